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
