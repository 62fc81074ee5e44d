# language: ja
@requires:iconv @requires:python3 @requires:sh @requires:cmp @requires:od
機能: Windows の Shift_JIS（CP932）を SHIFT_JIS で変換すると ～ が 〜 に化け、① で止まる
  Debian 12 の glibc iconv（2.36）と Python 3.11.2 の shift_jis / cp932 コーデックで、
  試行ごとの観測と解決策を実際に変換して確かめる。Windows が書き出すのと同じ CP932 の
  バイト列は glibc の WINDOWS-31J で作り、試行 1 で 16 進の値を確認している。

  背景:
    前提ファイル「order-utf8.csv」の内容：
      """
      受付番号,時間帯,備考,差額
      1001,10:00～12:00,午前指定,－500
      1002,14:00～16:00,①再配達,0
      """
    かつファイル「path.txt」の内容：
      """
      C:\orders\in
      ~/in
      """
    もし「iconv -f UTF-8 -t WINDOWS-31J -o order.csv order-utf8.csv」を実行する
    ならば終了コードは0

  @attempt-1
  シナリオ: 試行 1 — SHIFT_JIS で読むと ① で止まり、止まる前の行では ～ が 〜 に、－ が − になる
    もし「iconv --version」を実行する
    ならば標準出力に「GLIBC 2.36」が含まれる
    もし「python3 --version」を実行する
    ならば標準出力に「Python 3.11.2」が含まれる
    もし「python3 -c "print(open('order.csv', 'rb').read().hex(' '))"」を実行する
    ならば標準出力に「31 30 3a 30 30 81 60 31 32 3a 30 30」が含まれる
    かつ標準出力に「2c 81 7c 35 30 30」が含まれる
    かつ標準出力に「2c 87 40 8d c4」が含まれる
    もし「iconv -f SHIFT_JIS -t UTF-8 order.csv」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「iconv: illegal input sequence at position 77」が含まれる
    かつ標準出力に「1001,10:00〜12:00,午前指定,−500」が含まれる
    かつ標準出力に「①」が含まれない
    もし「python3 -c "open('order.csv', encoding='shift_jis').read()"」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「UnicodeDecodeError: 'shift_jis' codec can't decode byte 0x87 in position 77: illegal multibyte sequence」が含まれる
    もし「python3 -c "b = b'\x81\x60\x81\x61\x81\x7c\x81\x91\x81\x92\x81\xca'; print(ascii(b.decode('shift_jis'))); print(ascii(b.decode('cp932')))"」を実行する
    ならば標準出力に「'\u301c\u2016\u2212\xa2\xa3\xac'」が含まれる
    かつ標準出力に「'\uff5e\u2225\uff0d\uffe0\uffe1\uffe2'」が含まれる
    もし「sh -c 'printf "\201\140\201\141\201\174\201\221\201\222\201\312" | iconv -f SHIFT_JIS -t UTF-16BE | od -An -tx1'」を実行する
    ならば標準出力に「30 1c 20 16 22 12 00 a2 00 a3 00 ac」が含まれる
    もし「sh -c 'printf "\201\140\201\141\201\174\201\221\201\222\201\312" | iconv -f CP932 -t UTF-16BE | od -An -tx1'」を実行する
    ならば標準出力に「ff 5e 22 25 ff 0d ff e0 ff e1 ff e2」が含まれる
    もし「sh -c 'printf "\372\100" | iconv -f SHIFT_JIS -t UTF-8'」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「iconv: illegal input sequence at position 0」が含まれる
    もし「sh -c 'printf "\372\100" | iconv -f CP932 -t UTF-8'」を実行する
    ならば終了コードは0
    かつ標準出力に「ⅰ」が含まれる
    もし「python3 -c "line = open('order.csv', 'rb').read().split(b'\n')[1]; print(line.decode('shift_jis') == line.decode('cp932'))"」を実行する
    ならば標準出力に「False」が含まれる
    もし「iconv -f SHIFT_JIS -t UTF-8 path.txt」を実行する
    ならば標準出力に「C:¥orders¥in」が含まれる
    かつ標準出力に「‾/in」が含まれる
    もし「python3 -c "print(open('path.txt', encoding='shift_jis').read())"」を実行する
    ならば標準出力に「C:\orders\in」が含まれる

  @attempt-2
  シナリオ: 試行 2 — SJIS や MS_KANJI に変えても glibc では同じ表で、Python では同じ名前が別の表を指す
    もし「iconv -l」を実行する
    ならば標準出力に「SJIS//」が含まれる
    かつ標準出力に「MS_KANJI//」が含まれる
    かつ標準出力に「CP932//」が含まれる
    かつ標準出力に「WINDOWS-31J//」が含まれる
    もし「iconv -f SJIS -t UTF-8 order.csv」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「iconv: illegal input sequence at position 77」が含まれる
    もし「iconv -f MS_KANJI -t UTF-8 order.csv」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「iconv: illegal input sequence at position 77」が含まれる
    もし「python3 -c "import codecs; print(*[codecs.lookup(n).name for n in ('sjis', 'shift-jis', 'ms_kanji', 'ms932')])"」を実行する
    ならば標準出力に「shift_jis shift_jis cp932 cp932」が含まれる
    もし「python3 -c "open('order.csv', encoding='windows-31j').read()"」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「LookupError: unknown encoding: windows-31j」が含まれる

  @attempt-3
  シナリオ: 試行 3 — 読み込みだけ CP932 にすると、SHIFT_JIS での書き戻しが ～ で止まる
    もし「iconv -f CP932 -t UTF-8 -o order-in.csv order.csv」を実行する
    ならば終了コードは0
    もし「iconv -f UTF-8 -t SHIFT_JIS -o back.csv order-in.csv」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「iconv: illegal input sequence at position 47」が含まれる
    もし「python3 -c "open('order.csv', encoding='cp932').read().encode('shift_jis')"」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「UnicodeEncodeError: 'shift_jis' codec can't encode character '\uff5e' in position 25: illegal multibyte sequence」が含まれる
    もし「python3 -c "print(*['NG' if c.encode('shift_jis', 'replace') == b'?' else 'OK' for c in '\uff5e\uff0d\u2225\uffe0\uffe1\uffe2'])"」を実行する
    ならば標準出力に「NG NG NG NG NG NG」が含まれる

  @attempt-4
  シナリオ: 試行 4 — iconv -c や errors='replace' で止まらなくなるが、文字が黙って消える
    もし「iconv -c -f SHIFT_JIS -t UTF-8 order.csv」を実行する
    ならば終了コードは0
    かつ標準エラー出力が空である
    かつ標準出力に「1002,14:00〜16:00,再配達,0」が含まれる
    かつ標準出力に「①」が含まれない
    もし「python3 -c "print(open('order.csv', encoding='shift_jis', errors='replace').read())"」を実行する
    ならば終了コードは0
    かつ標準出力に「1002,14:00〜16:00,�@再配達,0」が含まれる
    もし「sh -c 'iconv -f CP932 -t UTF-8 order.csv | iconv -c -f UTF-8 -t SHIFT_JIS | iconv -f SHIFT_JIS -t UTF-8'」を実行する
    ならば終了コードは0
    かつ標準エラー出力が空である
    かつ標準出力に「1001,10:0012:00,午前指定,500」が含まれる
    もし「python3 -c "print(open('order.csv', encoding='cp932').read().encode('shift_jis', errors='replace').decode('shift_jis'))"」を実行する
    ならば標準出力に「1001,10:00?12:00,午前指定,?500」が含まれる

  @attempt-5
  シナリオ: 試行 5 — SHIFT_JIS で読んでから置換表で直すと ～ と － は戻るが、① の行は読めない
    前提ファイル「fix_by_hand.py」の内容：
      """
      import sys

      # SHIFT_JIS の表で読んだ文字を Windows 側の文字に戻す
      BACK_TO_WINDOWS = str.maketrans({"\u301c": "\uff5e", "\u2212": "\uff0d"})

      for no, raw in enumerate(open(sys.argv[1], "rb"), 1):
          try:
              print(no, raw.decode("shift_jis").translate(BACK_TO_WINDOWS), end="")
          except UnicodeDecodeError as e:
              print(no, "NG", e)
      """
    もし「python3 fix_by_hand.py order.csv」を実行する
    ならば終了コードは0
    かつ標準出力に「2 1001,10:00～12:00,午前指定,－500」が含まれる
    かつ標準出力に「3 NG 'shift_jis' codec can't decode byte 0x87 in position 18: illegal multibyte sequence」が含まれる

  @fix
  シナリオ: 解決策 — 読み書きとも CP932 にすると ～ も ① もそのまま読め、元のバイト列に戻る
    もし「iconv -f CP932 -t UTF-8 order.csv」を実行する
    ならば終了コードは0
    かつ標準出力に「1001,10:00～12:00,午前指定,－500」が含まれる
    かつ標準出力に「1002,14:00～16:00,①再配達,0」が含まれる
    もし「iconv -f MS932 -t UTF-8 order.csv」を実行する
    ならば終了コードは0
    かつ標準出力に「1002,14:00～16:00,①再配達,0」が含まれる
    もし「iconv -f WINDOWS-31J -t UTF-8 path.txt」を実行する
    ならば標準出力に「C:\orders\in」が含まれる
    かつ標準出力に「~/in」が含まれる
    かつ標準出力に「¥」が含まれない
    もし「sh -c 'iconv -f CP932 -t UTF-8 order.csv | iconv -f UTF-8 -t CP932 | cmp - order.csv && echo 往復後も同じバイト列'」を実行する
    ならば終了コードは0
    かつ標準出力に「往復後も同じバイト列」が含まれる

  @fix
  シナリオ: 解決策 — Python では cp932 で読み書きし、JIS 系の表で入った文字を CP932 側にそろえる
    前提ファイル「windows_text.py」の内容：
      """
      # Windows から来る「Shift_JIS」のファイルは CP932 として読み書きする。
      WINDOWS_ENCODING = "cp932"

      # JIS 系の表（SHIFT_JIS、EUC-JP など）を通った文字を CP932 の表の文字にそろえる。
      TO_CP932_FORM = str.maketrans({
          "\u301c": "\uff5e",  # WAVE DASH            -> FULLWIDTH TILDE
          "\u2212": "\uff0d",  # MINUS SIGN           -> FULLWIDTH HYPHEN-MINUS
          "\u2016": "\u2225",  # DOUBLE VERTICAL LINE -> PARALLEL TO
          "\u00a2": "\uffe0",  # CENT SIGN            -> FULLWIDTH CENT SIGN
          "\u00a3": "\uffe1",  # POUND SIGN           -> FULLWIDTH POUND SIGN
          "\u00ac": "\uffe2",  # NOT SIGN             -> FULLWIDTH NOT SIGN
          "\u2014": "\u2015",  # EM DASH              -> HORIZONTAL BAR
      })


      def normalize(text):
          return text.translate(TO_CP932_FORM)


      def read_windows_text(path):
          # errors は既定の strict のまま。読めないバイトは例外で止める。
          with open(path, encoding=WINDOWS_ENCODING, newline="") as f:
              return normalize(f.read())


      def write_windows_text(path, text):
          with open(path, "w", encoding=WINDOWS_ENCODING, newline="") as f:
              f.write(normalize(text))
      """
    かつファイル「sync.py」の内容：
      """
      from windows_text import normalize, read_windows_text, write_windows_text

      text = read_windows_text("order.csv")
      write_windows_text("back.csv", text)
      print("往復:", open("order.csv", "rb").read() == open("back.csv", "rb").read())

      # Web フォームから UTF-8 で来た値（JIS 系の表の文字が入っている）
      form = "10:00\u301c12:00,\u2212500,\u2014"
      print("照合:", normalize("10:00\u301c12:00") in text, normalize("\u2212500") in text)
      write_windows_text("form.csv", form)
      print("書き出し:", open("form.csv", "rb").read().hex(" "))
      """
    もし「python3 sync.py」を実行する
    ならば終了コードは0
    かつ標準出力に「往復: True」が含まれる
    かつ標準出力に「照合: True True」が含まれる
    かつ標準出力に「書き出し: 31 30 3a 30 30 81 60 31 32 3a 30 30 2c 81 7c 35 30 30 2c 81 5c」が含まれる

  @fix
  シナリオ: 解決策の副作用 — CP932 は 〜 も 81 60 に書くので読み戻すと ～ になり、— は変換器によって扱いが違う
    前提ファイル「dash.txt」の内容：
      """
      〜—
      """
    もし「python3 -c "b = '\u301c'.encode('cp932'); print(b.hex(' '), ascii(b.decode('cp932')))"」を実行する
    ならば標準出力に「81 60 '\uff5e'」が含まれる
    もし「python3 -c "'\u2014'.encode('cp932')"」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「UnicodeEncodeError: 'cp932' codec can't encode character '\u2014' in position 0: illegal multibyte sequence」が含まれる
    もし「sh -c 'iconv -f UTF-8 -t CP932 dash.txt | od -An -tx1'」を実行する
    ならば標準出力に「81 60 81 5c」が含まれる
    もし「python3 -c "import unicodedata; print(ascii(unicodedata.normalize('NFKC', '\u301c\uff5e\u2212\uff0d')))"」を実行する
    ならば標準出力に「'\u301c~\u2212-'」が含まれる
    もし「python3 -c "import unicodedata; t = '\u301c\u2212'.translate({0x301c: 0xff5e, 0x2212: 0xff0d}); print(ascii(unicodedata.normalize('NFKC', t)))"」を実行する
    ならば標準出力に「'~-'」が含まれる
