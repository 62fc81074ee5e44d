# language: ko
@requires:python3 @requires:unzip @requires:sh @requires:ls @requires:grep @requires:find @requires:cat @requires:mv @requires:tar @requires:mkdir
기능: Mac에서 온 한글 파일 이름이 NFD(자모 분리)라서 Linux에서 이름으로 찾을 수 없다
  Mac에서 묶어 온 zip·tar처럼 한글 이름을 NFD로 넣은 압축 파일을 python3로 만들고 Debian의 unzip으로 푼다.
  grep·find·mv·rsync·iconv·convmv가 기록대로 동작하는지, convmv --notest와 정규화 스크립트로
  이름이 NFC로 바뀌는지, NFC 이름이 이미 있을 때 무슨 일이 생기는지 확인한다.

  배경:
    조건 파일 "make_mac_archives.py"의 내용:
      """
      import io
      import tarfile
      import unicodedata
      import zipfile

      # Mac에서 묶어 온 압축 파일처럼 한글 이름을 NFD(자모 분리)로 넣는다.
      names = ["보고서/한글.txt", "보고서/회의록.txt"]
      body = "Mac에서 온 내용\n".encode()
      with zipfile.ZipFile("mac.zip", "w") as archive:
          for name in names:
              archive.writestr(unicodedata.normalize("NFD", name), body)
      with tarfile.open("mac.tar", "w", format=tarfile.PAX_FORMAT) as archive:
          for name in names:
              info = tarfile.TarInfo(unicodedata.normalize("NFD", name))
              info.size = len(body)
              archive.addfile(info, io.BytesIO(body))
      """
    그리고 파일 "names.py"의 내용:
      """
      import os
      import sys
      import unicodedata


      def points(name):
          # ASCII는 그대로 두고 나머지 글자만 코드 포인트로 적는다.
          return "".join(f"U+{ord(c):04X} " if ord(c) > 0x7F else c for c in name).strip()


      for dirpath, dirnames, filenames in os.walk(sys.argv[1] if len(sys.argv) > 1 else "."):
          for name in sorted(dirnames + filenames):
              form = "NFC" if unicodedata.is_normalized("NFC", name) else "NFC 아님"
              print(f"{form}: {points(name)}")
      """
    그리고 파일 "normalize_names.py"의 내용:
      """
      import os
      import sys
      import unicodedata


      def plan(root):
          # 안쪽 항목부터 바꿔야 바깥 디렉터리 경로가 중간에 바뀌지 않는다.
          renames = []
          for dirpath, dirnames, filenames in os.walk(root, topdown=False):
              for name in sorted(dirnames + filenames):
                  nfc = unicodedata.normalize("NFC", name)
                  if nfc != name:
                      renames.append((os.path.join(dirpath, name), os.path.join(dirpath, nfc)))
          return renames


      def main(args):
          apply = "--apply" in args
          roots = [a for a in args if a != "--apply"] or ["."]
          renames = [r for root in roots for r in plan(root)]
          targets = [dst for _, dst in renames]
          clashes = sorted({dst for dst in targets if os.path.lexists(dst) or targets.count(dst) > 1})
          for dst in clashes:
              print(f"충돌: {ascii(dst)} 이름이 이미 있다", file=sys.stderr)
          if clashes:
              print("충돌이 있어 아무 이름도 바꾸지 않았다", file=sys.stderr)
              return 1
          for src, dst in renames:
              print(f"{'바꿈' if apply else '바꿀 예정'}: {ascii(src)} -> {ascii(dst)}")
              if apply:
                  os.rename(src, dst)
          return 0


      sys.exit(main(sys.argv[1:]))
      """
    그리고 "python3 make_mac_archives.py"를 실행한다
    그리고 "unzip -q mac.zip"를 실행한다

  @attempt-1
  시나리오: 시도 1 — 한글로 친 이름으로는 grep도 find도 cat도 풀린 파일을 찾지 못한다
    만일 "sh -c 'ls | grep 보고서'"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 출력이 비어 있다
    만일 "find . -name *한글*"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력이 비어 있다
    만일 "cat 보고서/한글.txt"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "cat: 보고서/한글.txt: No such file or directory"가 포함된다
    만일 "ls 보고서"를 실행하면
    그러면 종료 코드는 2이다
    그리고 표준 오류에 "ls: cannot access '보고서': No such file or directory"가 포함된다
    만일 "python3 -c 'open(\"보고서/한글.txt\")'"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "FileNotFoundError: [Errno 2] No such file or directory: '보고서/한글.txt'"가 포함된다
    만일 "sh -c 'tar -tf mac.tar | grep 한글'"를 실행하면
    그러면 종료 코드는 1이다
    만일 "sh -c 'mkdir tar풀기 && tar -xf mac.tar -C tar풀기 && python3 names.py tar풀기'"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "NFC 아님: U+1112 U+1161 U+11AB U+1100 U+1173 U+11AF .txt"가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1112 U+1161 U+11AB U+1100 U+1173 U+11AF .txt"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1112 U+116C U+110B U+1174 U+1105 U+1169 U+11A8 .txt"가 포함된다
    만일 "python3 -c 'import unicodedata as u; print(u.normalize(\"NFC\", \"한\").encode().hex(\" \"), \"/\", u.normalize(\"NFD\", \"한\").encode().hex(\" \"))'"를 실행하면
    그러면 표준 출력에 "ed 95 9c / e1 84 92 e1 85 a1 e1 86 ab"가 포함된다

  @attempt-2
  시나리오: 시도 2 — 보이는 이름을 그대로 쳐서 mv로 바꾸려 하면 원본을 찾지 못한다
    만일 "mv 보고서 보고서_정리"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "mv: cannot stat '보고서': No such file or directory"가 포함된다
    만일 "mv 보고서/한글.txt 한글.txt"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "mv: cannot stat '보고서/한글.txt': No such file or directory"가 포함된다

  @attempt-3 @requires:rsync @requires:iconv
  시나리오: 시도 3 — rsync는 이름을 바이트 그대로 옮기고, --iconv=utf-8-mac,utf-8은 Linux에서 시작도 못 한다
    만일 "rsync -a --exclude=받은곳 ./ 받은곳/"를 실행하면
    그러면 종료 코드는 0이다
    만일 "python3 names.py 받은곳"를 실행하면
    그러면 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1112 U+1161 U+11AB U+1100 U+1173 U+11AF .txt"가 포함된다
    만일 "rsync -a --iconv=utf-8-mac,utf-8 --exclude=받은곳 ./ 변환본/"를 실행하면
    그러면 종료 코드는 4이다
    그리고 표준 오류에 「iconv_open("UTF-8", "utf-8-mac") failed」가 포함된다
    그리고 표준 오류에 "rsync error: requested action not supported (code 4)"가 포함된다
    만일 "sh -c 'printf 한글 | iconv -f UTF-8-MAC -t UTF-8'"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "iconv: failed to start conversion processing: No such file or directory"가 포함된다
    만일 "sh -c 'iconv -l | grep -i utf-8-mac'"를 실행하면
    그러면 종료 코드는 1이다

  @attempt-4 @requires:convmv
  시나리오: 시도 4 — --nfc 없이 utf-8에서 utf-8로 convmv를 돌리면 바꿀 것이 없다고 한다
    만일 "convmv -f utf-8 -t utf-8 -r ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "No changes to your files done. Would have converted 0 files"가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다

  @attempt-5 @requires:convmv
  시나리오: 시도 5 — --nfc를 붙여도 -r이 없으면 0개, -r을 붙이면 목록만 나오고 이름은 그대로다
    만일 "convmv -f utf-8 -t utf-8 --nfc ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "Would have converted 0 files"가 포함된다
    만일 "convmv -f utf-8 -t utf-8 --nfc -r ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "Starting a dry run without changes..."가 포함된다
    그리고 표준 오류에 "No changes to your files done. Would have converted 3 files"가 포함된다
    그리고 표준 오류에 "Use --notest to finally rename the files."가 포함된다
    그리고 표준 출력에 "\"./보고서\""가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1112 U+1161 U+11AB U+1100 U+1173 U+11AF .txt"가 포함된다

  @fix @requires:convmv
  시나리오: 해결 방법 — convmv --nfc -r --notest로 바꾸면 한글로 친 이름으로 찾고 열 수 있다
    만일 "convmv -f utf-8 -t utf-8 --nfc -r --notest ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "Ready! I converted 3 files"가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC: U+BCF4 U+ACE0 U+C11C"가 포함된다
    그리고 표준 출력에 "NFC: U+D55C U+AE00 .txt"가 포함된다
    그리고 표준 출력에 "NFC: U+D68C U+C758 U+B85D .txt"가 포함된다
    그리고 표준 출력에 "NFC 아님"이 포함되지 않는다
    만일 "sh -c 'ls 보고서 | grep 한글'"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "한글.txt"가 포함된다
    만일 "find . -name *한글*"를 실행하면
    그러면 표준 출력에 "./보고서/한글.txt"가 포함된다
    만일 "cat 보고서/한글.txt"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "Mac에서 온 내용"이 포함된다

  @fix
  시나리오: 해결 방법 — 가져오기 스크립트는 미리 보기로 바꿀 이름을 보여 주고 --apply에서만 NFC로 바꾼다
    만일 "python3 normalize_names.py ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 「바꿀 예정: './\u1107\u1169\u1100\u1169\u1109\u1165' -> './\ubcf4\uace0\uc11c'」가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    만일 "python3 normalize_names.py --apply ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 「바꿈: './\u1107\u1169\u1100\u1169\u1109\u1165/\u1112\u1161\u11ab\u1100\u1173\u11af.txt' -> './\u1107\u1169\u1100\u1169\u1109\u1165/\ud55c\uae00.txt'」가 포함된다
    그리고 표준 출력에 「바꿈: './\u1107\u1169\u1100\u1169\u1109\u1165' -> './\ubcf4\uace0\uc11c'」가 포함된다
    만일 "cat 보고서/한글.txt"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "Mac에서 온 내용"이 포함된다
    만일 "python3 normalize_names.py ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력이 비어 있다

  @fix @requires:convmv
  시나리오: 해결 방법(부작용) — NFC 이름이 이미 있으면 convmv는 건너뛰고도 변환 수에 넣고, 같은 이름의 디렉터리 둘이 남는다
    조건 파일 "보고서/한글.txt"의 내용:
      """
      Linux에서 고친 내용
      """
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC: U+BCF4 U+ACE0 U+C11C"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    만일 "convmv -f utf-8 -t utf-8 --nfc -r --notest ."를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "보고서 exists and differs or --replace option missing - skipped"가 포함된다
    그리고 표준 오류에 "Ready! I converted 3 files"가 포함된다
    그리고 표준 출력에 "\"./보고서\""가 포함된다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC: U+BCF4 U+ACE0 U+C11C"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    만일 "cat 보고서/한글.txt"를 실행하면
    그러면 표준 출력에 "Linux에서 고친 내용"이 포함된다

  @fix
  시나리오: 해결 방법(부작용) — 정규화 스크립트는 충돌을 먼저 찾아 알리고 아무 이름도 바꾸지 않는다
    조건 파일 "보고서/한글.txt"의 내용:
      """
      Linux에서 고친 내용
      """
    만일 "python3 normalize_names.py --apply ."를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 「충돌: './\ubcf4\uace0\uc11c' 이름이 이미 있다」가 포함된다
    그리고 표준 오류에 "충돌이 있어 아무 이름도 바꾸지 않았다"가 포함된다
    그리고 표준 출력이 비어 있다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC 아님: U+1112 U+1161 U+11AB U+1100 U+1173 U+11AF .txt"가 포함된다

  @fix @requires:rsync @requires:convmv
  시나리오: 해결 방법(부작용) — NFC로 바꾼 폴더에 원본을 다시 rsync로 받으면 NFD 디렉터리가 옆에 또 생긴다
    만일 "convmv -f utf-8 -t utf-8 --nfc -r --notest ."를 실행하면
    그러면 종료 코드는 0이다
    만일 "sh -c 'mkdir mac-copy && tar -xf mac.tar -C mac-copy && rsync -a mac-copy/ ./'"를 실행하면
    그러면 종료 코드는 0이다
    만일 "python3 names.py ."를 실행하면
    그러면 표준 출력에 "NFC: U+BCF4 U+ACE0 U+C11C"가 포함된다
    그리고 표준 출력에 "NFC 아님: U+1107 U+1169 U+1100 U+1169 U+1109 U+1165"가 포함된다
    만일 "python3 normalize_names.py ."를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 「충돌: './\ubcf4\uace0\uc11c' 이름이 이미 있다」가 포함된다
    만일 "sh -c 'mkdir staging && tar -xf mac.tar -C staging && python3 normalize_names.py --apply staging'"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 「바꿈: 'staging/\u1107\u1169\u1100\u1169\u1109\u1165' -> 'staging/\ubcf4\uace0\uc11c'」가 포함된다
