# language: ja
@requires:cmark
機能: 句読点やかぎ括弧に接した ** が太字にならない
  Debian の cmark（0.30.2）で、試行ごとの観測と解決策を実際に変換して確かめる。

  @attempt-1
  シナリオ: 試行 1 — 句読点に接した ** は強調にならず、アスタリスクが残る
    前提ファイル「kakko.md」の内容：
      """
      **「強調」**した
      """
    かつファイル「kuten.md」の内容：
      """
      **テスト。**です
      """
    もし「cmark kakko.md」を実行する
    ならば終了コードは0
    かつ標準出力に「<p>**「強調」**した</p>」が含まれる
    かつ標準出力に「<strong>」が含まれない
    もし「cmark kuten.md」を実行する
    ならば標準出力に「<p>**テスト。**です</p>」が含まれる

  @attempt-1
  シナリオ: 試行 1 — ASCII の記号、リンク、コードスパンの直後でも閉じず、__ は語の途中で効かない
    前提ファイル「ascii.md」の内容：
      """
      **注意:**この

      **100%**の確率

      **[リンク](url)**を参照

      **`code`**を使う

      これは__強調__した
      """
    もし「cmark ascii.md」を実行する
    ならば終了コードは0
    かつ標準出力に「<p>**注意:**この</p>」が含まれる
    かつ標準出力に「<p>**100%**の確率</p>」が含まれる
    かつ標準出力に「<p>**<a href="url">リンク</a>**を参照</p>」が含まれる
    かつ標準出力に「<p>**<code>code</code>**を使う</p>」が含まれる
    かつ標準出力に「<p>これは__強調__した</p>」が含まれる
    かつ標準出力に「<strong>」が含まれない

  @attempt-2
  シナリオ: 試行 2 — ** の外側に半角スペースを入れると太字になるが、空白が残る
    前提ファイル「space.md」の内容：
      """
      これは **「強調」** した
      """
    かつファイル「inside.md」の内容：
      """
      ** 「強調」 **した
      """
    もし「cmark space.md」を実行する
    ならば標準出力に「<p>これは <strong>「強調」</strong> した</p>」が含まれる
    もし「cmark inside.md」を実行する
    ならば標準出力に「<strong>」が含まれない

  @attempt-3
  シナリオ: 試行 3 — 句読点を区切り記号の外に出すと太字になる
    前提ファイル「outside.md」の内容：
      """
      「**強調**」した

      **テスト**。です
      """
    かつファイル「html.md」の内容：
      """
      <strong>「強調」</strong>した
      """
    もし「cmark outside.md」を実行する
    ならば標準出力に「<p>「<strong>強調</strong>」した</p>」が含まれる
    かつ標準出力に「<p><strong>テスト</strong>。です</p>」が含まれる
    もし「cmark html.md」を実行する
    ならば標準出力に「<!-- raw HTML omitted -->」が含まれる
    もし「cmark --unsafe html.md」を実行する
    ならば標準出力に「<p><strong>「強調」</strong>した</p>」が含まれる

  @attempt-3
  シナリオ: 試行 3 — ASCII の記号やリンクも、区切り記号の内側を文字で終わらせれば太字になる
    前提ファイル「ascii-outside.md」の内容：
      """
      **注意**:この

      **100**%の確率

      [**リンク**](url)を参照

      **`code`** を使う

      これは**強調**した
      """
    もし「cmark ascii-outside.md」を実行する
    ならば標準出力に「<p><strong>注意</strong>:この</p>」が含まれる
    かつ標準出力に「<p><strong>100</strong>%の確率</p>」が含まれる
    かつ標準出力に「<p><a href="url"><strong>リンク</strong></a>を参照</p>」が含まれる
    かつ標準出力に「<p><strong><code>code</code></strong> を使う</p>」が含まれる
    かつ標準出力に「<p>これは<strong>強調</strong>した</p>」が含まれる

  @fix
  シナリオ: 解決策 — 書き方のルールで太字になり、リンターが崩れる書き方を警告する
    前提ファイル「entries/sample/entry.md」の内容：
      """
      ---
      id: sample
      title: 見本
      lang: ja
      summary: 強調の書き方の見本。
      symptoms: [太字にならない]
      status: open
      updated: 2026-11-29
      ---

      ## 問題

      **「強調」**した
      """
    かつファイル「fixed/entries/sample/entry.md」の内容：
      """
      ---
      id: sample
      title: 見本
      lang: ja
      summary: 強調の書き方の見本。
      symptoms: [太字にならない]
      status: open
      updated: 2026-11-29
      ---

      ## 問題

      「**強調**」した
      """
    もし「kb lint entries」を実行する
    ならば標準出力に「[cjk-emphasis]」が含まれる
    もし「kb lint fixed/entries」を実行する
    ならば終了コードは0
    かつ標準出力に「[cjk-emphasis]」が含まれない
    もし「kb render fixed/entries/sample/entry.md」を実行する
    ならば標準出力に「「<strong>強調</strong>」した」が含まれる

  @fix
  シナリオ: 解決策 — リンターは ASCII の記号、リンク、コードスパン、__ の崩れも警告する
    前提ファイル「entries/ascii/entry.md」の内容：
      """
      ---
      id: ascii
      title: 見本
      lang: ja
      summary: 強調の書き方の見本。
      symptoms: [太字にならない]
      status: open
      updated: 2026-12-02
      ---

      ## 問題

      **注意:**この

      **100%**の確率

      **[リンク](url)**を参照

      **`code`**を使う

      これは__強調__した
      """
    もし「kb lint entries」を実行する
    ならば標準出力に「entry.md:13:6: warning: '**' after ':' cannot close」が含まれる
    かつ標準出力に「entry.md:15:7: warning: '**' after '%' cannot close」が含まれる
    かつ標準出力に「entry.md:17:13: warning: '**' after a link cannot close」が含まれる
    かつ標準出力に「entry.md:19:9: warning: '**' after a code span cannot close」が含まれる
    かつ標準出力に「entry.md:21:4: warning: '__' between 'は' and '強' is inside a word」が含まれる
    かつ標準エラー出力に「1 entry, 0 errors, 5 warnings」が含まれる

  @fix
  シナリオ: 解決策 — シェル版の検出スクリプトは崩れた書き方で終了コード 1 を返す
    前提ファイル「check-emphasis.sh」の内容：
      """
      status=0
      for file in "$@"; do
        hits=$(cmark "$file" \
          | awk '/<pre/ { skip = 1 } !skip { print } /<\/pre>/ { skip = 0 }' \
          | sed -e 's/<code>[^<]*<\/code>/`/g' \
          | grep -E '(\*\*|__)[^[:space:]*_<]|[^[:space:]*_>](\*\*|__)')
        if [ -n "$hits" ]; then
          printf '%s: 強調にならなかった区切り記号があります\n%s\n' "$file" "$hits" >&2
          status=1
        fi
      done
      exit $status
      """
    かつファイル「bad.md」の内容：
      """
      **注意:**この

      [**正しいリンク**](url)と**[崩れたリンク](url)**を参照
      """
    かつファイル「good.md」の内容：
      """
      「**強調**」した。**注意**:この。[**リンク**](url)を参照。アスタリスク ** の話。

      ```
      **「コードブロックの中」**は対象外
      ```
      """
    もし「sh check-emphasis.sh bad.md」を実行する
    ならば終了コードは1
    かつ標準エラー出力に「bad.md: 強調にならなかった区切り記号があります」が含まれる
    かつ標準エラー出力に「<p>**注意:**この</p>」が含まれる
    かつ標準エラー出力に「**を参照</p>」が含まれる
    もし「sh check-emphasis.sh good.md」を実行する
    ならば終了コードは0
    かつ標準エラー出力が空である
