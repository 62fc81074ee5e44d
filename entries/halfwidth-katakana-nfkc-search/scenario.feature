# language: ja
機能: 半角カナのデータが全角カナの検索語で見つからない
  取引先マスタの CSV（半角カナと全角カナが混在）を python3・node・grep で検索し、
  そのままの比較、手書きの変換表、NFKD、NFKC の結果が記録どおりかを確かめる。

  背景:
    前提ファイル「customers.csv」の内容：
      """
      id,kana
      1,ﾔﾏﾀﾞｼｮｳｼﾞ
      2,ヤマダ商事
      3,ﾔﾏﾀｺｳｷﾞｮｳ
      4,ﾌｧｲﾙｻｰﾊﾞｰ保守
      """
    かつファイル「search.py」の内容：
      """
      import sys
      import unicodedata

      # 試行 2: 手書きの 1 文字対 1 文字の表
      HALF = "ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝｯｬｭｮｰﾞﾟ"
      FULL = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンッャュョー゛゜"
      TABLE = str.maketrans(HALF, FULL)

      def as_is(s):
          return s

      def by_table(s):
          return s.translate(TABLE)

      def nfkd(s):
          return unicodedata.normalize("NFKD", s)

      def nfkc(s):
          return unicodedata.normalize("NFKC", s)

      # モード名: (データ側のキー, 検索語側のキー)
      MODES = {
          "as-is": (as_is, as_is),
          "table": (by_table, by_table),
          "nfkd-index": (nfkd, as_is),
          "nfkd-both": (nfkd, nfkd),
          "nfkc": (nfkc, nfkc),
      }

      def codepoints(s):
          return " ".join(f"U+{ord(c):04X}" for c in s)

      with open("customers.csv", encoding="utf-8") as f:
          rows = f.read().splitlines()[1:]
      mode = sys.argv[1]
      row_key, query_key = MODES[mode]
      if len(sys.argv) == 2:
          # 検索語なし: データ側のキーと、カナ名の先頭 4 文字のコードポイントを表示する
          for row in rows:
              print(row_key(row), "|", codepoints(row_key(row).split(",")[1][:4]))
          sys.exit()
      query = sys.argv[2]
      q = query_key(query)
      print(f"mode={mode} query={query} key={codepoints(q)}")
      hits = [row for row in rows if q in row_key(row)]
      for row in hits:
          print("hit:", row)
      print(f"{len(hits)} hit(s)")
      """

  @attempt-1 @requires:python3 @requires:grep
  シナリオ: 試行 1 — そのまま比較すると、全角の検索語で半角カナの行が見つからない
    もし「python3 search.py as-is ヤマダ」を実行する
    ならば終了コードは0
    かつ標準出力に「mode=as-is query=ヤマダ key=U+30E4 U+30DE U+30C0」が含まれる
    かつ標準出力に「hit: 2,ヤマダ商事」が含まれる
    かつ標準出力に「hit: 1,」が含まれない
    かつ標準出力に「1 hit(s)」が含まれる
    もし「python3 search.py as-is ﾔﾏﾀﾞ」を実行する
    ならば標準出力に「key=U+FF94 U+FF8F U+FF80 U+FF9E」が含まれる
    かつ標準出力に「hit: 1,ﾔﾏﾀﾞｼｮｳｼﾞ」が含まれる
    かつ標準出力に「hit: 2,」が含まれない
    もし「grep -n ヤマダ customers.csv」を実行する
    ならば終了コードは0
    かつ標準出力に「3:2,ヤマダ商事」が含まれる
    かつ標準出力に「ﾔﾏﾀﾞ」が含まれない

  @attempt-1 @requires:node
  シナリオ: 試行 1 — node でも === と includes は false になる
    前提ファイル「compare.js」の内容：
      """
      const cp = (s) => [...s].map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
      const half = "ﾔﾏﾀﾞ";
      const full = "ヤマダ";
      console.log("as-is ===", half === full, "includes", "ﾔﾏﾀﾞｼｮｳｼﾞ".includes(full));
      for (const form of ["NFKD", "NFKC"]) {
        const a = half.normalize(form);
        console.log(form, cp(a), "=== ヤマダ:", a === full, "=== NFKD/NFKC(ヤマダ):", a === full.normalize(form));
      }
      console.log("NFKD->NFC", cp(half.normalize("NFKD").normalize("NFC")), half.normalize("NFKD").normalize("NFC") === full);
      """
    もし「node compare.js」を実行する
    ならば終了コードは0
    かつ標準出力に「as-is === false includes false」が含まれる

  @attempt-2 @requires:python3
  シナリオ: 試行 2 — 1 文字ずつの変換表では濁点が ゛（U+309B）として残り、小さいｧも抜ける
    もし「python3 search.py table」を実行する
    ならば終了コードは0
    かつ標準出力に「1,ヤマタ゛ショウシ゛ | U+30E4 U+30DE U+30BF U+309B」が含まれる
    かつ標準出力に「4,フｧイルサーハ゛ー保守 | U+30D5 U+FF67 U+30A4 U+30EB」が含まれる
    もし「python3 search.py table ヤマダ」を実行する
    ならば標準出力に「hit: 2,ヤマダ商事」が含まれる
    かつ標準出力に「hit: 1,」が含まれない
    かつ標準出力に「1 hit(s)」が含まれる
    もし「python3 search.py table ファイル」を実行する
    ならば標準出力に「0 hit(s)」が含まれる

  @attempt-3 @requires:python3
  シナリオ: 試行 3 — データ側だけ NFKD にすると全角の行まで見つからなくなり、両側にすると濁点なしの語が濁点付きの語に当たる
    もし「python3 search.py nfkd-index」を実行する
    ならば終了コードは0
    かつ標準出力に「1,ヤマダショウジ | U+30E4 U+30DE U+30BF U+3099」が含まれる
    かつ標準出力に「2,ヤマダ商事 | U+30E4 U+30DE U+30BF U+3099」が含まれる
    もし「python3 search.py nfkd-index ヤマダ」を実行する
    ならば標準出力に「0 hit(s)」が含まれる
    もし「python3 search.py nfkd-both ヤマダ」を実行する
    ならば標準出力に「key=U+30E4 U+30DE U+30BF U+3099」が含まれる
    かつ標準出力に「2 hit(s)」が含まれる
    もし「python3 search.py nfkd-both ヤマタ」を実行する
    ならば標準出力に「hit: 1,ﾔﾏﾀﾞｼｮｳｼﾞ」が含まれる
    かつ標準出力に「hit: 2,ヤマダ商事」が含まれる
    かつ標準出力に「hit: 3,ﾔﾏﾀｺｳｷﾞｮｳ」が含まれる
    かつ標準出力に「3 hit(s)」が含まれる

  @attempt-3 @requires:node
  シナリオ: 試行 3 — node の NFKD でも結合用の濁点 U+3099 が残り、ヤマダ と一致しない
    前提ファイル「nfkd.js」の内容：
      """
      const cp = (s) => [...s].map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
      const a = "ﾔﾏﾀﾞ".normalize("NFKD");
      console.log("NFKD", cp(a), "=== ヤマダ:", a === "ヤマダ");
      """
    もし「node nfkd.js」を実行する
    ならば終了コードは0
    かつ標準出力に「NFKD U+30E4 U+30DE U+30BF U+3099 === ヤマダ: false」が含まれる

  @fix @requires:python3
  シナリオ: 解決策 — データと検索語の両方を NFKC にすると、全角・半角どちらの検索語でも同じ行が見つかる
    もし「python3 search.py nfkc」を実行する
    ならば終了コードは0
    かつ標準出力に「1,ヤマダショウジ | U+30E4 U+30DE U+30C0 U+30B7」が含まれる
    かつ標準出力に「4,ファイルサーバー保守 | U+30D5 U+30A1 U+30A4 U+30EB」が含まれる
    もし「python3 search.py nfkc ヤマダ」を実行する
    ならば標準出力に「hit: 1,ﾔﾏﾀﾞｼｮｳｼﾞ」が含まれる
    かつ標準出力に「hit: 2,ヤマダ商事」が含まれる
    かつ標準出力に「2 hit(s)」が含まれる
    もし「python3 search.py nfkc ﾔﾏﾀﾞ」を実行する
    ならば標準出力に「key=U+30E4 U+30DE U+30C0」が含まれる
    かつ標準出力に「2 hit(s)」が含まれる
    もし「python3 search.py nfkc ヤマタ」を実行する
    ならば標準出力に「hit: 3,ﾔﾏﾀｺｳｷﾞｮｳ」が含まれる
    かつ標準出力に「1 hit(s)」が含まれる
    もし「python3 search.py nfkc ファイル」を実行する
    ならば標準出力に「hit: 4,ﾌｧｲﾙｻｰﾊﾞｰ保守」が含まれる

  @fix @requires:node
  シナリオ: 解決策 — node でも NFKC、または NFKD のあと NFC で ヤマダ と一致する
    前提ファイル「compare.js」の内容：
      """
      const cp = (s) => [...s].map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
      const half = "ﾔﾏﾀﾞ";
      const full = "ヤマダ";
      console.log("as-is ===", half === full, "includes", "ﾔﾏﾀﾞｼｮｳｼﾞ".includes(full));
      for (const form of ["NFKD", "NFKC"]) {
        const a = half.normalize(form);
        console.log(form, cp(a), "=== ヤマダ:", a === full, "=== NFKD/NFKC(ヤマダ):", a === full.normalize(form));
      }
      console.log("NFKD->NFC", cp(half.normalize("NFKD").normalize("NFC")), half.normalize("NFKD").normalize("NFC") === full);
      """
    もし「node compare.js」を実行する
    ならば終了コードは0
    かつ標準出力に「NFKC U+30E4 U+30DE U+30C0 === ヤマダ: true」が含まれる
    かつ標準出力に「NFKD->NFC U+30E4 U+30DE U+30C0 true」が含まれる

  @fix @requires:uconv @requires:grep @requires:sh
  シナリオ: 解決策 — grep の前に uconv で NFKC にすると、半角の検索語で両方の行が出る
    もし「sh -c 'uconv -f UTF-8 -t UTF-8 -x Any-NFKC customers.csv | grep -n "$(printf %s ﾔﾏﾀﾞ | uconv -f UTF-8 -t UTF-8 -x Any-NFKC)"'」を実行する
    ならば終了コードは0
    かつ標準出力に「2:1,ヤマダショウジ」が含まれる
    かつ標準出力に「3:2,ヤマダ商事」が含まれる

  @fix @requires:python3
  シナリオ: 副作用 — NFKC は丸数字・年号・全角英数字なども畳み、文字数も変わる
    前提ファイル「fold.py」の内容：
      """
      import unicodedata

      def codepoints(s):
          return " ".join(f"U+{ord(c):04X}" for c in s)

      for s in ["ﾊﾞ", "①", "㍻", "㈱", "ＡＢＣ", "１２３", "～", "〜", "\u3000", "ハ゛", "ヤマタ゛"]:
          t = unicodedata.normalize("NFKC", s)
          print(f"{codepoints(s)} -> {codepoints(t)} [{t}]")
      name = "ﾔﾏﾀﾞｼｮｳｼﾞ"
      print("len", len(name), "->", len(unicodedata.normalize("NFKC", name)))
      print("NFC(NFKD) == NFKC:", unicodedata.normalize("NFC", unicodedata.normalize("NFKD", name)) == unicodedata.normalize("NFKC", name))

      def search_key(s):
          # 単独の濁点・半濁点を結合用に置き換え、波ダッシュをチルダにそろえる
          s = s.replace("\u309b", "\u3099").replace("\u309c", "\u309a")
          return unicodedata.normalize("NFKC", s).replace("\u301c", "~")

      for s in ["ヤマタ゛", "10〜20", "10～20"]:
          print("search_key", s, "->", search_key(s), codepoints(search_key(s)))
      """
    もし「python3 fold.py」を実行する
    ならば終了コードは0
    かつ標準出力に「U+FF8A U+FF9E -> U+30D0 [バ]」が含まれる
    かつ標準出力に「U+2460 -> U+0031 [1]」が含まれる
    かつ標準出力に「U+337B -> U+5E73 U+6210 [平成]」が含まれる
    かつ標準出力に「U+3231 -> U+0028 U+682A U+0029 [(株)]」が含まれる
    かつ標準出力に「U+FF21 U+FF22 U+FF23 -> U+0041 U+0042 U+0043 [ABC]」が含まれる
    かつ標準出力に「U+FF5E -> U+007E [~]」が含まれる
    かつ標準出力に「U+301C -> U+301C [〜]」が含まれる
    かつ標準出力に「U+3000 -> U+0020 [ ]」が含まれる
    かつ標準出力に「U+30CF U+309B -> U+30CF U+0020 U+3099」が含まれる
    かつ標準出力に「len 9 -> 7」が含まれる
    かつ標準出力に「NFC(NFKD) == NFKC: True」が含まれる
    かつ標準出力に「search_key ヤマタ゛ -> ヤマダ U+30E4 U+30DE U+30C0」が含まれる
    かつ標準出力に「search_key 10〜20 -> 10~20 U+0031 U+0030 U+007E U+0032 U+0030」が含まれる
    かつ標準出力に「search_key 10～20 -> 10~20 U+0031 U+0030 U+007E U+0032 U+0030」が含まれる

  @fix @requires:iconv @requires:od @requires:sh
  シナリオ: 副作用 — 同じ Shift_JIS の 0x8160 が、CP932 では ～（U+FF5E）、SHIFT_JIS では 〜（U+301C）になる
    前提ファイル「tilde.sh」の内容：
      """
      for enc in CP932 SHIFT_JIS; do
        printf '%s:' "$enc"
        printf '\201\140' | iconv -f "$enc" -t UTF-8 | od -An -tx1
      done
      """
    もし「sh tilde.sh」を実行する
    ならば終了コードは0
    かつ標準出力に「CP932: ef bd 9e」が含まれる
    かつ標準出力に「SHIFT_JIS: e3 80 9c」が含まれる
