# language: ja
機能: 𠮷野家の「𠮷」（U+20BB7）で文字数がずれ、切り詰めで文字化けし、utf8 の列に保存できない
  Debian 12 の node、python3、swiftc、iconv と MariaDB 10.11（mariadbd / mariadb）で、
  試行ごとの失敗と解決策を実際に動かして確かめる。
  データベースは作業フォルダーの中に使い捨てで立ち上げ、ネットワークには出さない。

  背景:
    前提ファイル「db.sh」の内容：
      """
      # 作業フォルダーの db/ に使い捨ての MariaDB を起動し、標準入力の SQL を流してから止める。
      # 引数は mariadb クライアントにそのまま渡す。
      dir=$PWD/db
      mkdir -p "$dir/data"
      mariadbd --no-defaults --datadir="$dir/data" --socket="$dir/sock" --pid-file="$dir/pid" \
        --skip-networking --skip-grant-tables --user="$(id -un)" --log-error="$dir/err" \
        --innodb-log-file-size=4M --innodb-buffer-pool-size=16M 2>/dev/null &
      i=0
      while [ ! -S "$dir/sock" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
      mariadb --no-defaults -S "$dir/sock" "$@"; status=$?
      mariadb --no-defaults -S "$dir/sock" -e SHUTDOWN
      wait
      exit $status
      """

  @attempt-1 @requires:node @requires:python3
  シナリオ: 試行 1 — .length で上限を判定すると、10 文字ちょうどの店名がフロントだけで弾かれる
    前提ファイル「counter.js」の内容：
      """
      const MAX = 10;
      const name = "𠮷野家 西新宿五丁目";
      console.log(`length=${name.length}`);
      console.log(name.length > MAX ? `${MAX} 文字を超えています` : "OK");
      """
    かつファイル「check.py」の内容：
      """
      MAX = 10
      name = "𠮷野家 西新宿五丁目"
      print(f"len={len(name)}")
      print("OK" if len(name) <= MAX else f"{MAX} 文字を超えています")
      print(f"utf-16 code units={len(name.encode('utf-16-le')) // 2}")
      """
    もし「node counter.js」を実行する
    ならば終了コードは0
    かつ標準出力に「length=11」が含まれる
    かつ標準出力に「10 文字を超えています」が含まれる
    もし「python3 check.py」を実行する
    ならば終了コードは0
    かつ標準出力に「len=10」が含まれる
    かつ標準出力に「OK」が含まれる
    かつ標準出力に「utf-16 code units=11」が含まれる

  @attempt-2 @requires:node @requires:python3
  シナリオ: 試行 2 — slice で頭文字を切り出すと上位サロゲートだけが残り、UTF-8 にすると U+FFFD や例外になる
    前提ファイル「initial.js」の内容：
      """
      const fs = require("fs");
      const name = "𠮷野家";
      const initial = name.slice(0, 1);
      const short = "ランチは𠮷野家で".slice(0, 5) + "…";
      console.log(`initial=${JSON.stringify(initial)} isWellFormed=${initial.isWellFormed()}`);
      console.log(`substring same=${name.substring(0, 1) === initial}`);
      console.log(`initial utf8=${Buffer.from(initial, "utf8").toString("hex")}`);
      console.log(`short=${JSON.stringify(short)}`);
      console.log(`short utf8=${Buffer.from(short, "utf8").toString("hex")}`);
      fs.writeFileSync("initial.json", JSON.stringify({ initial }));
      try {
        encodeURIComponent(initial);
      } catch (e) {
        console.log(String(e));
      }
      """
    かつファイル「receive.py」の内容：
      """
      import json

      with open("initial.json", encoding="utf-8") as f:
          data = json.load(f)
      print("received:", ascii(data["initial"]))
      data["initial"].encode("utf-8")
      """
    もし「node initial.js」を実行する
    ならば終了コードは0
    かつ標準出力に「initial="\ud842" isWellFormed=false」が含まれる
    かつ標準出力に「substring same=true」が含まれる
    かつ標準出力に「initial utf8=efbfbd」が含まれる
    かつ標準出力に「short="ランチは\ud842…"」が含まれる
    かつ標準出力に「short utf8=e383a9e383b3e38381e381afefbfbde280a6」が含まれる
    かつ標準出力に「URIError: URI malformed」が含まれる
    もし「python3 receive.py」を実行する
    ならば終了コードは1
    かつ標準出力に「received: '\ud842'」が含まれる
    かつ標準エラー出力に「UnicodeEncodeError: 'utf-8' codec can't encode character '\ud842' in position 0: surrogates not allowed」が含まれる

  @attempt-3 @requires:node
  シナリオ: 試行 3 — Array.from なら 𠮷 は割れないが、異体字セレクタ付きの「葛＋U+E0100」は基底字とセレクタの間で切れる
    前提ファイル「codepoints.js」の内容：
      """
      const cut = (s, n) => Array.from(s).slice(0, n).join("");
      const hex = (s) => Array.from(s, (c) => "U+" + c.codePointAt(0).toString(16).toUpperCase()).join(" ");
      for (const s of ["𠮷野家", "葛\u{E0100}飾区"]) {
        console.log(`length=${s.length} codepoints=${Array.from(s).length} cut1=${hex(cut(s, 1))} wellFormed=${cut(s, 1).isWellFormed()}`);
      }
      """
    もし「node codepoints.js」を実行する
    ならば終了コードは0
    かつ標準出力に「length=4 codepoints=3 cut1=U+20BB7 wellFormed=true」が含まれる
    かつ標準出力に「length=5 codepoints=4 cut1=U+845B wellFormed=true」が含まれる

  @attempt-4 @requires:swiftc
  シナリオ: 試行 4 — Character の位置で NSRange を作るとずれ、NSRange を Character の位置に使うと落ちる
    前提ファイル「highlight.swift」の内容：
      """
      import Foundation

      let name = "𠮷野家"
      let target = "野家"
      let hex = { (s: String) in
          s.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
      }

      print("count=\(name.count) utf16.count=\(name.utf16.count) NSString.length=\((name as NSString).length)")

      // Character の位置と長さから NSRange を作る
      let r = name.range(of: target)!
      let location = name.distance(from: name.startIndex, to: r.lowerBound)
      let nsRange = NSRange(location: location, length: target.count)
      let picked = (name as NSString).substring(with: nsRange)
      print("NSRange={\(nsRange.location), \(nsRange.length)} picked=\(hex(picked))")

      // NSRegularExpression の NSRange を Character の位置として使う
      let regex = try! NSRegularExpression(pattern: target)
      let m = regex.firstMatch(in: name, range: NSRange(location: 0, length: (name as NSString).length))!
      print("match={\(m.range.location), \(m.range.length)} byCharacters=\(String(name.dropFirst(m.range.location).prefix(m.range.length)))")
      """
    かつファイル「crash.swift」の内容：
      """
      import Foundation

      let name = "𠮷野家"
      let regex = try! NSRegularExpression(pattern: "野家")
      let m = regex.firstMatch(in: name, range: NSRange(location: 0, length: (name as NSString).length))!
      let start = name.index(name.startIndex, offsetBy: m.range.location)
      let end = name.index(start, offsetBy: m.range.length)
      print(name[start..<end])
      """
    もし「swiftc highlight.swift -o highlight」を実行する
    ならば終了コードは0
    もし「./highlight」を実行する
    ならば終了コードは0
    かつ標準出力に「count=3 utf16.count=4 NSString.length=4」が含まれる
    かつ標準出力に「NSRange={1, 2} picked=U+FFFD U+91CE」が含まれる
    かつ標準出力に「match={2, 2} byCharacters=家」が含まれる
    もし「swiftc crash.swift -o crash」を実行する
    ならば終了コードは0
    もし「./crash」を実行する
    ならば終了コードは0ではない
    かつ標準エラー出力に「Fatal error: String index is out of bounds」が含まれる

  @attempt-5 @requires:sh @requires:mariadbd @requires:mariadb
  シナリオ: 試行 5 — utf8 で作った列は utf8mb3 になり、𠮷 を含む INSERT が ERROR 1366 で拒否される
    もし次の入力で「sh db.sh -N --default-character-set=utf8mb4」を実行する：
      """
      CREATE DATABASE shop;
      CREATE TABLE shop.stores (name VARCHAR(20) CHARACTER SET utf8);
      SELECT CONCAT('column=', CHARACTER_SET_NAME) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'stores';
      INSERT INTO shop.stores VALUES ('吉野家');
      INSERT INTO shop.stores VALUES ('𠮷野家');
      """
    ならば終了コードは1
    かつ標準出力に「column=utf8mb3」が含まれる
    かつ標準エラー出力に「ERROR 1366 (22007) at line 5: Incorrect string value: '\xF0\xA0\xAE\xB7\xE9\x87...' for column `shop`.`stores`.`name` at row 1」が含まれる

  @attempt-6 @requires:sh @requires:mariadbd @requires:mariadb
  シナリオ: 試行 6 — 列だけ utf8mb4 にしても、接続が utf8mb3 のままだと同じエラーになる
    もし次の入力で「sh db.sh -N」を実行する：
      """
      SELECT CONCAT('client=', @@character_set_client, ' connection=', @@character_set_connection);
      CREATE DATABASE shop;
      CREATE TABLE shop.stores (name VARCHAR(20) CHARACTER SET utf8mb4);
      INSERT INTO shop.stores VALUES ('𠮷野家');
      """
    ならば終了コードは1
    かつ標準出力に「client=utf8mb3 connection=utf8mb3」が含まれる
    かつ標準エラー出力に「ERROR 1366 (22007) at line 4: Incorrect string value: '\xF0\xA0\xAE\xB7\xE9\x87...' for column `shop`.`stores`.`name` at row 1」が含まれる
    もし次の入力で「sh db.sh -N --default-character-set=utf8mb4」を実行する：
      """
      SET NAMES utf8;
      SELECT CONCAT('after SET NAMES utf8: client=', @@character_set_client);
      INSERT INTO shop.stores VALUES ('𠮷野家');
      """
    ならば終了コードは1
    かつ標準出力に「after SET NAMES utf8: client=utf8mb3」が含まれる
    かつ標準エラー出力に「ERROR 1366 (22007) at line 3: Incorrect string value: '\xF0\xA0\xAE\xB7\xE9\x87...' for column `shop`.`stores`.`name` at row 1」が含まれる

  @attempt-7 @requires:sh @requires:mariadbd @requires:mariadb
  シナリオ: 試行 7 — sql_mode を空にするとエラーは消えるが、𠮷 が ? に置き換わって保存される
    もし次の入力で「sh db.sh -N --default-character-set=utf8mb4」を実行する：
      """
      CREATE DATABASE shop;
      CREATE TABLE shop.stores (name VARCHAR(20) CHARACTER SET utf8);
      SET SESSION sql_mode = '';
      INSERT INTO shop.stores VALUES ('𠮷野家');
      SHOW WARNINGS;
      SELECT CONCAT('stored=', name, ' hex=', HEX(name)) FROM shop.stores;
      """
    ならば終了コードは0
    かつ標準出力に「Warning」が含まれる
    かつ標準出力に「Incorrect string value: '\\xF0\\xA0\\xAE\\xB7\\xE9\\x87...' for column `shop`.`stores`.`name` at row 1」が含まれる
    かつ標準出力に「stored=?野家 hex=3FE9878EE5AEB6」が含まれる

  @fix @requires:node
  シナリオ: 解決策 — JavaScript は Intl.Segmenter の書記素クラスタで数えて切り、UTF-16 の位置は境界でだけ使う
    前提ファイル「graphemes.js」の内容：
      """
      const segmenter = new Intl.Segmenter("ja", { granularity: "grapheme" });
      const graphemes = (s) => Array.from(segmenter.segment(s), (x) => x.segment);
      const countChars = (s) => graphemes(s).length;
      const truncate = (s, n) => graphemes(s).slice(0, n).join("");
      const hex = (s) => Array.from(s, (c) => "U+" + c.codePointAt(0).toString(16).toUpperCase()).join(" ");

      for (const s of ["𠮷野家 西新宿五丁目", "葛\u{E0100}飾区"]) {
        const head = truncate(s, 1);
        console.log(`graphemes=${countChars(s)} codepoints=${Array.from(s).length} length=${s.length} head=${hex(head)} wellFormed=${head.isWellFormed()}`);
      }
      console.log(`initial=${encodeURIComponent(truncate("𠮷野家", 1))}`);
      console.log(`short=${truncate("ランチは𠮷野家で", 5)}…`);
      """
    もし「node graphemes.js」を実行する
    ならば終了コードは0
    かつ標準出力に「graphemes=10 codepoints=10 length=11 head=U+20BB7 wellFormed=true」が含まれる
    かつ標準出力に「graphemes=3 codepoints=4 length=5 head=U+845B U+E0100 wellFormed=true」が含まれる
    かつ標準出力に「initial=%F0%A0%AE%B7」が含まれる
    かつ標準出力に「short=ランチは𠮷…」が含まれる

  @fix @requires:python3
  シナリオ: 解決策 — サーバー側は len（コードポイント数）で DB の上限を見て、孤立サロゲートは 400 で返す
    前提ファイル「validate.py」の内容：
      """
      import json

      DB_MAX = 20

      def validate(name: str) -> str:
          try:
              name.encode("utf-8")
          except UnicodeEncodeError as e:
              return f"400 invalid text: {e.reason} at {e.start}"
          if len(name) > DB_MAX:
              return f"400 too long: {len(name)}"
          return f"ok codepoints={len(name)} utf16={len(name.encode('utf-16-le')) // 2} utf8={name.encode('utf-8').hex(' ')}"

      print(validate("𠮷野家"))
      print(validate(json.loads('"\\ud842"')))
      """
    もし「python3 validate.py」を実行する
    ならば終了コードは0
    かつ標準出力に「ok codepoints=3 utf16=4 utf8=f0 a0 ae b7 e9 87 8e e5 ae b6」が含まれる
    かつ標準出力に「400 invalid text: surrogates not allowed at 0」が含まれる

  @fix @requires:sh @requires:iconv @requires:od
  シナリオ: 解決策 — 𠮷 は UTF-8 で 4 バイト F0 A0 AE B7、UTF-16 でサロゲートペア D842 DFB7 になる
    もし「sh -c 'printf %s 𠮷 | od -An -tx1'」を実行する
    ならば標準出力に「f0 a0 ae b7」が含まれる
    もし「sh -c 'printf %s 𠮷 | iconv -f UTF-8 -t UTF-16BE | od -An -tx1'」を実行する
    ならば終了コードは0
    かつ標準出力に「d8 42 df b7」が含まれる

  @fix @requires:swiftc
  シナリオ: 解決策 — Swift は String のインデックスで扱い、NSRange との変換は NSRange(_:in:) と Range(_:in:) に任せる
    前提ファイル「ranges.swift」の内容：
      """
      import Foundation

      let name = "𠮷野家"
      let hex = { (s: String) in
          s.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
      }

      // Swift の範囲を NSString / NSAttributedString に渡す直前で NSRange にする
      if let r = name.range(of: "野家") {
          let ns = NSRange(r, in: name)
          print("NSRange(_:in:)={\(ns.location), \(ns.length)} picked=\((name as NSString).substring(with: ns))")
      }

      // NSRegularExpression の結果は Range(_:in:) で String の範囲に戻す
      let regex = try! NSRegularExpression(pattern: "野家")
      if let m = regex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)),
         let r = Range(m.range, in: name) {
          print("Range(_:in:)=\(name[r])")
      }

      // 表示用の切り詰めは Character（書記素クラスタ）単位
      let ivs = "葛\u{E0100}飾区"
      print("count=\(ivs.count) unicodeScalars=\(ivs.unicodeScalars.count) utf16=\(ivs.utf16.count) prefix1=\(hex(String(ivs.prefix(1))))")
      """
    もし「swiftc ranges.swift -o ranges」を実行する
    ならば終了コードは0
    もし「./ranges」を実行する
    ならば終了コードは0
    かつ標準出力に「NSRange(_:in:)={2, 2} picked=野家」が含まれる
    かつ標準出力に「Range(_:in:)=野家」が含まれる
    かつ標準出力に「count=3 unicodeScalars=4 utf16=5 prefix1=U+845B U+E0100」が含まれる

  @fix @requires:sh @requires:mariadbd @requires:mariadb
  シナリオ: 解決策 — 列を utf8mb4 / utf8mb4_bin に変換し、接続も utf8mb4 にすると 4 バイトのまま保存できる
    もし次の入力で「sh db.sh -N --default-character-set=utf8mb4」を実行する：
      """
      CREATE DATABASE shop;
      CREATE TABLE shop.stores (name VARCHAR(20) CHARACTER SET utf8, UNIQUE KEY (name));
      INSERT INTO shop.stores VALUES ('吉野家');
      ALTER TABLE shop.stores CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
      INSERT INTO shop.stores VALUES ('𠮷野家'), ('𩸽野家');
      SELECT CONCAT(name, ' hex=', HEX(name), ' chars=', CHAR_LENGTH(name), ' bytes=', LENGTH(name)) FROM shop.stores ORDER BY name;
      SELECT CONCAT('ivs chars=', CHAR_LENGTH(x), ' bytes=', LENGTH(x)) FROM (SELECT CONVERT(UNHEX('E8919BF3A08480E9A3BEE58CBA') USING utf8mb4) AS x) AS t;
      """
    ならば終了コードは0
    かつ標準出力に次の内容が含まれる：
      """
      吉野家 hex=E59089E9878EE5AEB6 chars=3 bytes=9
      𠮷野家 hex=F0A0AEB7E9878EE5AEB6 chars=3 bytes=10
      𩸽野家 hex=F0A9B8BDE9878EE5AEB6 chars=3 bytes=10
      """
    かつ標準出力に「ivs chars=4 bytes=13」が含まれる

  @fix @requires:sh @requires:mariadbd @requires:mariadb
  シナリオ: 解決策 — 照合順序を既定の utf8mb4_general_ci のままにすると 𠮷 と 𩸽 が同じ値とみなされる
    もし次の入力で「sh db.sh -N --default-character-set=utf8mb4」を実行する：
      """
      SELECT CONCAT('default=', DEFAULT_COLLATE_NAME) FROM information_schema.CHARACTER_SETS WHERE CHARACTER_SET_NAME = 'utf8mb4';
      SELECT CONCAT('general_ci=', '𠮷' = '𩸽' COLLATE utf8mb4_general_ci, ' unicode_ci=', 'はは' = 'ぱぱ' COLLATE utf8mb4_unicode_ci, ' bin=', '𠮷' = '𩸽' COLLATE utf8mb4_bin, '/', 'はは' = 'ぱぱ' COLLATE utf8mb4_bin);
      CREATE DATABASE shop;
      CREATE TABLE shop.stores (name VARCHAR(20) CHARACTER SET utf8mb4, UNIQUE KEY (name));
      INSERT INTO shop.stores VALUES ('𠮷野家');
      INSERT INTO shop.stores VALUES ('𩸽野家');
      """
    ならば終了コードは1
    かつ標準出力に「default=utf8mb4_general_ci」が含まれる
    かつ標準出力に「general_ci=1 unicode_ci=1 bin=0/0」が含まれる
    かつ標準エラー出力に「ERROR 1062 (23000) at line 6: Duplicate entry '?野家' for key 'name'」が含まれる
