# language: ko
@requires:iconv @requires:sh @requires:python3 @requires:od @requires:cat @requires:wc @requires:cmp
기능: EUC-KR로 변환하면 KS X 1001 완성형 2,350자 밖의 한글에서 멈춘다
  가맹점 명단(UTF-8)을 "EUC-KR"로 넘기는 배치와, 거래처가 "EUC-KR"이라며 보내오는 파일을 읽는 스크립트를
  glibc iconv와 Python 표준 코덱으로 재현한다. 똠(U+B620), 햏(U+D58F), 뷁(U+BDC1)은 CP949 확장 영역에만 있다.

  배경:
    조건 파일 "shops.csv"의 내용:
      """
      가맹점,대표
      똠방분식,김햏순
      뷁카페,이철수
      한빛상회,박영희
      """

  @attempt-1
  시나리오: 시도 1 — 명세대로 iconv -t EUC-KR로 변환하면 똠에서 멈추고 머리글만 남는다
    만일 「sh -c 'iconv -f UTF-8 -t EUC-KR shops.csv > out.csv; echo "exit=$?"; iconv -f EUC-KR -t UTF-8 out.csv'」를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 오류에 "iconv: illegal input sequence at position 17"이 포함된다
    그리고 표준 출력에 "exit=1"이 포함된다
    그리고 표준 출력에 "가맹점,대표"가 포함된다
    그리고 표준 출력에 "한빛상회"가 포함되지 않는다
    조건 파일 "count.py"의 내용:
      """
      import subprocess
      syllables = "".join(chr(c) for c in range(0xAC00, 0xD7A4))
      out = subprocess.run(["iconv", "-c", "-f", "UTF-8", "-t", "EUC-KR"],
                           input=syllables.encode(), capture_output=True).stdout
      kept = out.decode("euc_kr")
      print("한글 음절", len(syllables), "EUC-KR에 있음", len(kept), "없음", len(syllables) - len(kept))
      print("똠 햏 뷁 포함 여부:", [ch in kept for ch in "똠햏뷁"])
      """
    만일 "python3 count.py"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "한글 음절 11172 EUC-KR에 있음 2350 없음 8822"가 포함된다
    그리고 표준 출력에 "똠 햏 뷁 포함 여부: [False, False, False]"가 포함된다

  @attempt-2
  시나리오: 시도 2 — //IGNORE와 -c는 글자를 조용히 지운다
    만일 「sh -c 'iconv -f UTF-8 -t EUC-KR//IGNORE shops.csv > ignore.csv; echo "exit=$?"; echo "size=$(wc -c < shops.csv)"; iconv -f EUC-KR -t UTF-8 ignore.csv'」를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "exit=1"이 포함된다
    그리고 표준 출력에 "size=83"이 포함된다
    그리고 표준 오류에 "iconv: illegal input sequence at position 83"이 포함된다
    그리고 표준 출력에 다음 내용이 포함된다:
      """
      방분식,김순
      카페,이철수
      한빛상회,박영희
      """
    만일 「sh -c 'iconv -c -f UTF-8 -t EUC-KR shops.csv > c.csv; echo "exit=$?"; iconv -f EUC-KR -t UTF-8 c.csv'」를 실행하면
    그러면 표준 출력에 "exit=0"이 포함된다
    그리고 표준 출력에 "방분식,김순"이 포함된다
    그리고 표준 오류가 비어 있다

  @attempt-3
  시나리오: 시도 3 — //TRANSLIT은 빠진 글자를 물음표로 바꾸고 성공으로 끝난다
    만일 「sh -c 'iconv -f UTF-8 -t EUC-KR//TRANSLIT shops.csv > translit.csv; echo "exit=$?"; iconv -f EUC-KR -t UTF-8 translit.csv'」를 실행하면
    그러면 표준 출력에 "exit=0"이 포함된다
    그리고 표준 출력에 "?방분식,김?순"이 포함된다
    그리고 표준 출력에 "?카페,이철수"가 포함된다
    그리고 표준 오류가 비어 있다

  @attempt-4
  시나리오: 시도 4 — Python euc_kr 코덱은 오류 없이 8바이트 조합 시퀀스를 만들고 iconv는 이를 자모 네 개로 읽는다
    조건 파일 "py_euckr.py"의 내용:
      """
      import subprocess

      text = open("shops.csv", encoding="utf-8").read()
      data = text.encode("euc_kr")  # UnicodeEncodeError가 나지 않는다
      print("똠:", "똠".encode("euc_kr").hex(" "))
      print("Python으로 되읽으면 원문과 같음:", data.decode("euc_kr") == text)
      for enc in ("EUC-KR", "CP949"):
          r = subprocess.run(["iconv", "-f", enc, "-t", "UTF-8"], input=data, capture_output=True)
          line = r.stdout.decode().splitlines()[1]
          print(f"iconv -f {enc}: exit={r.returncode}",
                " ".join(f"U+{ord(c):04X}" for c in line[:4]), line[4:])
      """
    만일 "python3 py_euckr.py"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "똠: a4 d4 a4 a8 a4 c7 a4 b1"이 포함된다
    그리고 표준 출력에 "Python으로 되읽으면 원문과 같음: True"가 포함된다
    그리고 표준 출력에 "iconv -f EUC-KR: exit=0 U+3164 U+3138 U+3157 U+3141 방분식,김"이 포함된다
    그리고 표준 출력에 "iconv -f CP949: exit=0 U+3164 U+3138 U+3157 U+3141 방분식,김"이 포함된다

  @attempt-5
  시나리오: 시도 5 — 거래처가 보낸 CP949 파일을 라벨대로 EUC-KR로 읽으면 조용히 깨지다가 멈춘다
    만일 「sh -c 'iconv -f UTF-8 -t CP949 shops.csv > result.csv; iconv -f EUC-KR -t UTF-8 result.csv > decoded.txt; echo "exit=$?"; od -An -tx1 decoded.txt; cat decoded.txt'」를 실행하면
    그러면 표준 출력에 "exit=1"이 포함된다
    그리고 표준 오류에 "iconv: illegal input sequence at position 23"이 포함된다
    그리고 표준 출력에 "0a c2 8c 63 eb b0 a9"가 포함된다
    그리고 표준 출력에 "c방분식,김"이 포함된다
    그리고 표준 출력에 "한빛상회"가 포함되지 않는다
    조건 파일 "read_euckr.py"의 내용:
      """
      open("result.csv", encoding="euc_kr").read()
      """
    만일 「sh -c 'iconv -f UTF-8 -t CP949 shops.csv > result.csv && python3 read_euckr.py'」를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "UnicodeDecodeError: 'euc_kr' codec can't decode byte 0x8c in position 12: illegal multibyte sequence"가 포함된다

  @fix
  시나리오: 해결 방법 — CP949(UHC)로 보내고 받으며 왕복으로 확인한다
    만일 "iconv --version"을 실행하면
    그러면 표준 출력에 "(Debian GLIBC 2.36-"이 포함된다
    만일 "python3 --version"을 실행하면
    그러면 표준 출력에 "Python 3.11.2"가 포함된다
    만일 "iconv -l"을 실행하면
    그러면 표준 출력에 "CP949//"가 포함된다
    그리고 표준 출력에 "UHC//"가 포함된다
    그리고 표준 출력에 "MSCP949//"가 포함된다
    그리고 표준 출력에 "WINDOWS-949"가 포함되지 않는다
    만일 「sh -c 'for s in 똠 햏 뷁; do printf "%s" "$s"; printf "%s" "$s" | iconv -f UTF-8 -t CP949 | od -An -tx1; done'」를 실행하면
    그러면 표준 출력에 다음 내용이 포함된다:
      """
      똠 8c 63
      햏 c1 64
      뷁 94 ee
      """
    조건 파일 "batch.sh"의 내용:
      """
      set -eu
      iconv -f UTF-8 -t CP949 shops.csv > shops.cp949.csv
      iconv -f CP949 -t UTF-8 shops.cp949.csv | cmp - shops.csv
      echo "CP949 왕복 일치"
      python3 -c 'import sys; a = open("shops.cp949.csv", "rb").read().decode("cp949"); b = open("shops.csv", encoding="utf-8").read(); print("Python cp949 일치:", a == b)'
      """
    만일 "sh batch.sh"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "CP949 왕복 일치"가 포함된다
    그리고 표준 출력에 "Python cp949 일치: True"가 포함된다
    조건 파일 "all.py"의 내용:
      """
      import subprocess
      syllables = "".join(chr(c) for c in range(0xAC00, 0xD7A4))
      cp = subprocess.run(["iconv", "-f", "UTF-8", "-t", "CP949"], input=syllables.encode(),
                          capture_output=True, check=True).stdout
      back = subprocess.run(["iconv", "-f", "CP949", "-t", "UTF-8"], input=cp,
                            capture_output=True, check=True).stdout.decode()
      print("CP949 바이트 수", len(cp), "왕복 일치", back == syllables)
      """
    만일 "python3 all.py"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "CP949 바이트 수 22344 왕복 일치 True"가 포함된다
    조건 파일 "superset.py"의 내용:
      """
      import subprocess
      text = "한빛상회,박영희\n"
      strict = subprocess.run(["iconv", "-f", "UTF-8", "-t", "EUC-KR"], input=text.encode(),
                              capture_output=True, check=True).stdout
      print("EUC-KR 파일을 cp949로 읽어도 같음:", strict.decode("cp949") == text)
      print("결과 파일을 cp949로 읽기:", open("result.csv", encoding="cp949").read().splitlines()[1])
      """
    만일 「sh -c 'iconv -f UTF-8 -t CP949 shops.csv > result.csv && python3 superset.py'」를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "EUC-KR 파일을 cp949로 읽어도 같음: True"가 포함된다
    그리고 표준 출력에 "결과 파일을 cp949로 읽기: 똠방분식,김햏순"이 포함된다

  @fix
  시나리오: 해결 방법 — 보내기 전 점검 스크립트가 확장 영역 글자와 CP949로도 못 보내는 글자를 찾는다
    조건 파일 "cafe.csv"의 내용:
      """
      가맹점,대표
      카페☕,최민수
      """
    조건 파일 "check_cp949.py"의 내용:
      """
      import sys

      for no, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
          for ch in line.rstrip("\n"):
              try:
                  b = ch.encode("cp949")
              except UnicodeEncodeError:
                  print(f"{no}행 {ch} U+{ord(ch):04X}: CP949로 보낼 수 없음")
                  continue
              if len(b) == 2 and (b[0] < 0xA1 or b[1] < 0xA1):
                  print(f"{no}행 {ch} U+{ord(ch):04X}: CP949 확장 {b.hex(' ')}")
      """
    만일 "python3 check_cp949.py shops.csv"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 다음 내용이 포함된다:
      """
      2행 똠 U+B620: CP949 확장 8c 63
      2행 햏 U+D58F: CP949 확장 c1 64
      3행 뷁 U+BDC1: CP949 확장 94 ee
      """
    만일 "python3 check_cp949.py cafe.csv"를 실행하면
    그러면 표준 출력에 "2행 ☕ U+2615: CP949로 보낼 수 없음"이 포함된다
    만일 "iconv -f UTF-8 -t CP949 cafe.csv"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "iconv: illegal input sequence at position 23"이 포함된다
    조건 파일 "write_cp949.py"의 내용:
      """
      open("cafe.csv", encoding="utf-8").read().encode("cp949")
      """
    만일 "python3 write_cp949.py"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "UnicodeEncodeError: 'cp949' codec can't encode character '\u2615' in position 9: illegal multibyte sequence"가 포함된다

  @fix
  시나리오: 해결 방법 — windows-949, ks_c_5601-1987 같은 라벨은 도구마다 뜻이 다르다
    만일 "iconv -f WINDOWS-949 -t UTF-8 shops.csv"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 오류에 "iconv: failed to start conversion processing: No such file or directory"가 포함된다
    조건 파일 "labels.py"의 내용:
      """
      import codecs
      for label in ("euc-kr", "ks_c_5601-1987", "cp949", "uhc", "ms949"):
          print(label, "->", codecs.lookup(label).name)
      codecs.lookup("windows-949")
      """
    만일 "python3 labels.py"를 실행하면
    그러면 종료 코드는 1이다
    그리고 표준 출력에 다음 내용이 포함된다:
      """
      euc-kr -> euc_kr
      ks_c_5601-1987 -> euc_kr
      cp949 -> cp949
      uhc -> cp949
      ms949 -> cp949
      """
    그리고 표준 오류에 "LookupError: unknown encoding: windows-949"가 포함된다

  @fix @requires:node
  시나리오: 해결 방법 — 이 환경의 Node TextDecoder("euc-kr")는 CP949 확장 영역을 읽지 못한다
    조건 파일 "decode.js"의 내용:
      """
      const fs = require("fs");
      const bytes = fs.readFileSync("result.csv");
      console.log("windows-949 ->", new TextDecoder("windows-949").encoding);
      const line = new TextDecoder("euc-kr").decode(bytes).split("\n")[1];
      console.log([...line].slice(0, 3).map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" "));
      try {
        new TextDecoder("euc-kr", { fatal: true }).decode(bytes);
      } catch (e) {
        console.log(`${e.name} ${e.code}: ${e.message}`);
      }
      """
    만일 "node --version"을 실행하면
    그러면 표준 출력에 "v20.20.2"가 포함된다
    만일 「sh -c 'iconv -f UTF-8 -t CP949 shops.csv > result.csv && node decode.js'」를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "windows-949 -> euc-kr"가 포함된다
    그리고 표준 출력에 "U+008C U+0063 U+BC29"가 포함된다
    그리고 표준 출력에 "TypeError ERR_ENCODING_INVALID_ENCODED_DATA: The encoded data was not valid for encoding euc-kr"가 포함된다
