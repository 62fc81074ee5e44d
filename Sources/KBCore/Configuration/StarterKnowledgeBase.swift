/// The files `kb init` writes: a knowledge base that lints clean, checks and builds from the
/// first minute. Its example entry (one per language) is a small real problem — `sort` puts
/// v1.10 before v1.9 — whose scenario runs GNU `sort`, so `kb check` reproduces it anywhere.
public struct StarterKnowledgeBase: Sendable {
    /// Languages with an example entry, in the order `kb init` lists them.
    public static let languages = ["zh-Hans", "ko", "ja", "en"]

    public let title: String
    public let languages: [String]
    /// `updated` of the example entries (`YYYY-MM-DD`).
    public let date: String

    public init(title: String, languages: [String], date: String) {
        self.title = title
        self.languages = languages
        self.date = date
    }

    /// Root-relative path → content, of the files `kb init` creates (never over existing ones).
    public var files: [(path: String, content: String)] {
        var files: [(String, String)] = [
            (KnowledgeBaseConfiguration.fileName, configuration),
            ("entries/" + Glossary.fileName, glossary),
            (".github/workflows/kb.yml", Self.workflow),
        ]
        for language in languages {
            guard let example = Self.examples[language] else { continue }
            files.append(("entries/\(example.id)/entry.md", example.entry.replacingOccurrences(of: "updated: 2026-12-02", with: "updated: \(date)")))
            files.append(("entries/\(example.id)/scenario.feature", example.scenario))
        }
        return files
    }

    /// Lines `.gitignore` must hold (added to an existing one when missing).
    public static let ignoredLines = ["_site/", ".kb/"]
    public static let gitignoreHeader = "# Built by kb: the site and derived data (search index, check report)."

    var configuration: String {
        """
        # Settings of this knowledge base (every key: man kb, section KB.YAML).
        title: \(Self.yamlString(title))
        description: "What we tried, what failed and what worked: our troubleshooting notes."
        # Where the site is served; used for sitemap.xml, feed.xml, canonical links and 404.html.
        # base_url: https://example.com/kb/
        languages: [\(languages.joined(separator: ", "))]
        entries: entries
        output: _site
        # A folder whose files replace the built-in theme's (start one with `kb theme eject theme`).
        # theme: theme
        check:
          jobs: 2
          timeout: 60

        """
    }

    var glossary: String {
        var lines = [
            "# Concepts and the words people type for them in each language. Search adds a concept",
            "# wherever one of its words occurs, so a query in one language finds an entry in another.",
            "concepts:",
            "  - id: version-sort",
        ]
        let terms: [(String, String)] = [
            ("en", "[version sort, sort -V, natural sort]"),
            ("zh-Hans", "[版本号排序, 自然排序]"),
            ("ko", "[버전 정렬, 자연 정렬]"),
            ("ja", "[バージョンソート, 自然順ソート]"),
        ]
        for (language, words) in terms { lines.append("    \(language): \(words)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar (the importer's quoting).
    static func yamlString(_ text: String) -> String { DraftWriter.quoted(text) }

    /// GitHub Actions: lint, check and build on every push; `kb` is built from its source.
    static let workflow = """
    # Checks the knowledge base on every push and pull request: entries lint clean under
    # --strict, every scenario still reproduces, the site builds. The built site is kept as an
    # artifact; docs/deploy.md of kb shows how to publish it with GitHub Pages.
    name: knowledge base
    on:
      push:
      pull_request:
    jobs:
      check:
        runs-on: ubuntu-latest
        # kb is built and tested with Swift 6.3 on Debian 12; any Swift 6 image with apt should do.
        container: swift:6.0-jammy
        env:
          # Where kb's source is cloned from (set the repository variable KB_SOURCE).
          KB_SOURCE: ${{ vars.KB_SOURCE }}
        steps:
          - uses: actions/checkout@v4
          - name: Install kb
            run: |
              test -n "$KB_SOURCE" || { echo "Set the repository variable KB_SOURCE to the git URL kb is built from (Settings > Secrets and variables > Actions > Variables)."; exit 1; }
              apt-get update && apt-get install -y --no-install-recommends git make libcmark-dev libyaml-dev libmimalloc-dev pkg-config
              git clone --depth 1 "$KB_SOURCE" /tmp/kb
              make -C /tmp/kb install PREFIX=/usr/local
          - name: Lint
            run: kb lint --strict
          - name: Check scenarios
            run: kb check --junit .kb/junit.xml
          - name: Build the site
            run: kb build
          - uses: actions/upload-artifact@v4
            if: always()
            with:
              name: site
              path: _site

    """

    struct Example {
        let id: String
        let entry: String
        let scenario: String
    }

    /// The examples' check scenario, the same steps in each language: Gherkin keywords and the
    /// shell world's step phrases of that language (docs/scenario-language.md) around one tag list.
    struct ExampleScenario {
        let language: String
        let feature: String, background: String, scenario: String
        let given: String, when: String, then: String, and: String
        let title: String
        let description: String
        /// Attempt 1, attempt 2, the fix.
        let scenarioTitles: [String]
        let file: (String) -> String
        let run: (String) -> String
        let exitZero: String
        let outputContains: String

        var text: String {
            func docString(_ lines: [String], indent: String) -> String {
                ([indent + "\"\"\""] + lines.map { indent + $0 } + [indent + "\"\"\""]).joined(separator: "\n")
            }
            let steps = "    "
            let body = "      "
            var out = [
                "# language: \(language)",
                "@requires:sort",
                "\(feature): \(title)",
                "  \(description)",
                "",
                "  \(background):",
                steps + given + file("versions.txt"),
                docString(["v1.9", "v1.10", "v1.2"], indent: body),
                "",
                "  @attempt-1",
                "  \(scenario): \(scenarioTitles[0])",
                steps + when + run("sort versions.txt"),
                steps + then + exitZero,
                steps + and + outputContains,
                docString(["v1.10", "v1.2", "v1.9"], indent: body),
                "",
                "  @attempt-2",
                "  \(scenario): \(scenarioTitles[1])",
                steps + when + run("sort -n versions.txt"),
                steps + then + outputContains,
                docString(["v1.10", "v1.2", "v1.9"], indent: body),
                steps + given + file("bare.txt"),
                docString(["1.9", "1.10", "1.2"], indent: body),
                steps + when + run("sort -n bare.txt"),
                steps + then + outputContains,
                docString(["1.10", "1.2", "1.9"], indent: body),
                "",
                "  @fix",
                "  \(scenario): \(scenarioTitles[2])",
                steps + when + run("sort -V versions.txt"),
                steps + then + exitZero,
                steps + and + outputContains,
                docString(["v1.2", "v1.9", "v1.10"], indent: body),
            ]
            out.append("")
            return out.joined(separator: "\n")
        }
    }

    static let examples: [String: Example] = [
        "en": Example(id: "example-sort-version-order", entry: """
        ---
        id: example-sort-version-order
        title: "sort puts v1.10 before v1.9"
        lang: en
        summary: "Plain sort compares lines character by character and sort -n reads 1.10 as the decimal 1.1, so a release script picked v1.9 as the newest tag after v1.10 existed. sort -V compares each run of digits as a number."
        symptoms:
          - "sort puts 10 before 9"
          - "sort version numbers wrong order"
          - "sort -n does not sort version strings"
          - "v1.10 sorted before v1.2"
          - "latest git tag wrong after v1.10"
        platforms: ["GNU coreutils", "Debian 12"]
        apis: ["sort", "sort -n", "sort -V", "tail -n 1"]
        tags: [shell, coreutils, sort, example]
        status: resolved
        updated: 2026-12-02
        ---

        # sort puts v1.10 before v1.9

        <!-- An example entry written by kb init. Keep it as a model, or delete its folder once
             you have entries of your own. -->

        ## Problem

        A release script lists the repository's tags, sorts them and takes the last line as the
        newest version (`sort versions.txt | tail -n 1`). Once v1.10 was tagged, the script still
        answered v1.9.

        ## Attempts

        ### Attempt 1: plain sort

        **Idea:** version tags are text, so sorted text should be sorted versions.

        ```sh
        sort versions.txt
        ```

        **Result:** failed. The order is `v1.10`, `v1.2`, `v1.9`, so the last line is v1.9.

        **Cause:** `sort` compares lines character by character. After `v1.` the next characters are
        `1`, `2` and `9`, and `1` comes first whatever follows it.

        ### Attempt 2: numeric sort

        **Idea:** `sort -n` compares numbers, so 10 should come after 9.

        ```sh
        sort -n versions.txt
        ```

        **Result:** failed. The order does not change.

        **Cause:** `-n` reads the number at the start of a line. The tags start with `v`, so every line
        counts as zero and `sort` falls back to comparing whole lines as text. Without the `v` it is
        still wrong: `1.10` is read as the decimal 1.1 and sorts before `1.2`.

        ## Fix

        Sort with `sort -V` (version sort in GNU coreutils), which compares each run of digits as a
        whole number: v1.2, v1.9, v1.10.

        1. Replace `sort` with `sort -V` where the script picks the newest tag.
        2. Check the script with a tag list that has a two-digit part.

        ```sh
        sort -V versions.txt | tail -n 1
        ```

        ## Lessons

        - Version strings are not text and not decimals; sort them with a comparison made for versions.
        - Test ordering code with a two-digit part (1.10, 2.0.10) before the first real one arrives.

        ## References

        - [GNU coreutils manual: sort invocation](https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html)

        """, scenario: ExampleScenario(
            language: "en", feature: "Feature", background: "Background", scenario: "Scenario",
            given: "Given ", when: "When ", then: "Then ", and: "And ",
            title: "sort puts v1.10 before v1.9",
            description: "Each attempt runs GNU sort on the same tag list and checks the order it prints.",
            scenarioTitles: ["Attempt 1 — plain sort compares character by character",
                             "Attempt 2 — sort -n leaves the order as it was",
                             "Fix — sort -V compares the numbers as numbers"],
            file: { "a file \"\($0)\" containing:" }, run: { "I run \"\($0)\"" },
            exitZero: "the exit status is 0", outputContains: "standard output contains:").text),
        "zh-Hans": Example(id: "example-sort-version-order-zh", entry: """
        ---
        id: example-sort-version-order-zh
        title: "sort 把 v1.10 排在 v1.9 前面"
        lang: zh-Hans
        summary: "sort 默认逐个字符比较，sort -n 又把 1.10 当成小数 1.1，结果发布脚本在打了 v1.10 之后仍然把 v1.9 当成最新版本。改用 sort -V 按版本号排序后解决。"
        symptoms:
          - "sort 排序 10 排在 9 前面"
          - "版本号排序不对"
          - "sort -n 排版本号没用"
          - "v1.10 排在 v1.2 前面"
          - "取最新 tag 取错了"
        platforms: ["GNU coreutils", "Debian 12"]
        apis: ["sort", "sort -n", "sort -V", "tail -n 1"]
        tags: [shell, coreutils, sort, example]
        status: resolved
        updated: 2026-12-02
        ---

        # sort 把 v1.10 排在 v1.9 前面

        <!-- kb init 生成的示例条目。可以留作写法参考，有了自己的条目后删掉这个文件夹即可。 -->

        ## 问题背景

        发布脚本先列出仓库里的 tag，排序后取最后一行当作最新版本（`sort versions.txt | tail -n 1`）。
        打了 v1.10 之后，脚本给出的最新版本还是 v1.9。

        ## 尝试过的方案

        ### 方案 1：直接用 sort

        **思路：** tag 是文本，按文本排好序就是按版本排好序。

        ```sh
        sort versions.txt
        ```

        **结果：** 失败。输出顺序是 `v1.10`、`v1.2`、`v1.9`，最后一行是 v1.9。

        **原因：** `sort` 逐个字符比较。`v1.` 之后分别是 `1`、`2`、`9`，不管后面还有什么，`1` 都排在最前。

        ### 方案 2：按数值排序

        **思路：** `sort -n` 按数字比较，10 应该排在 9 后面。

        ```sh
        sort -n versions.txt
        ```

        **结果：** 失败。顺序没有任何变化。

        **原因：** `-n` 只读取行首的数字。tag 以 `v` 开头，每一行都被当成 0，`sort` 只好退回按整行文本比较。
        去掉 `v` 也不对：`1.10` 被读成小数 1.1，排在 `1.2` 前面。

        ## 最终方案

        改用 `sort -V`（GNU coreutils 的版本号排序），它把每一段连续数字当作整数比较，顺序是 v1.2、v1.9、v1.10。

        1. 脚本里取最新 tag 的地方把 `sort` 换成 `sort -V`。
        2. 用带两位数版本段的 tag 列表再跑一遍脚本确认。

        ```sh
        sort -V versions.txt | tail -n 1
        ```

        ## 经验教训

        - 版本号既不是普通文本也不是小数，要用专门比较版本的方式排序。
        - 排序相关的代码，在真正出现 1.10、2.0.10 这样的两位数之前就用它们测一遍。

        ## 参考资料

        - [GNU coreutils 手册：sort invocation](https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html)

        """, scenario: ExampleScenario(
            language: "zh-CN", feature: "功能", background: "背景", scenario: "场景",
            given: "假如", when: "当", then: "那么", and: "而且",
            title: "sort 把 v1.10 排在 v1.9 前面",
            description: "每个方案都用 GNU sort 排同一份 tag 列表，检查输出的顺序。",
            scenarioTitles: ["方案 1 —— 直接 sort 逐个字符比较",
                             "方案 2 —— sort -n 不改变顺序",
                             "最终方案 —— sort -V 把数字当作整数比较"],
            file: { "文件「\($0)」的内容为：" }, run: { "运行「\($0)」" },
            exitZero: "退出码为0", outputContains: "标准输出包含：").text),
        "ko": Example(id: "example-sort-version-order-ko", entry: """
        ---
        id: example-sort-version-order-ko
        title: "sort가 v1.10을 v1.9보다 앞에 둔다"
        lang: ko
        summary: "sort는 기본적으로 글자 단위로 비교하고 sort -n은 1.10을 소수 1.1로 읽는다. 그래서 v1.10 태그가 생긴 뒤에도 릴리스 스크립트가 v1.9를 최신 버전으로 골랐다. sort -V로 버전 순서로 정렬해 해결했다."
        symptoms:
          - "sort 10이 9보다 앞에 나온다"
          - "버전 정렬 순서가 이상하다"
          - "sort -n 버전 정렬 안 됨"
          - "v1.10이 v1.2보다 앞에 정렬된다"
          - "최신 태그를 잘못 가져온다"
        platforms: ["GNU coreutils", "Debian 12"]
        apis: ["sort", "sort -n", "sort -V", "tail -n 1"]
        tags: [shell, coreutils, sort, example]
        status: resolved
        updated: 2026-12-02
        ---

        # sort가 v1.10을 v1.9보다 앞에 둔다

        <!-- kb init이 만든 예시 항목이다. 작성 예시로 남겨 두거나, 직접 쓴 항목이 생기면 폴더째 지우면 된다. -->

        ## 문제 상황

        릴리스 스크립트는 저장소의 태그를 정렬한 뒤 마지막 줄을 최신 버전으로 쓴다
        (`sort versions.txt | tail -n 1`). v1.10 태그를 만든 뒤에도 스크립트는 계속 v1.9를 돌려줬다.

        ## 시도한 방법

        ### 시도 1: 그냥 sort

        **아이디어:** 태그는 문자열이니 문자열로 정렬하면 버전 순서가 된다.

        ```sh
        sort versions.txt
        ```

        **결과:** 실패. 순서가 `v1.10`, `v1.2`, `v1.9`라서 마지막 줄이 v1.9다.

        **원인:** `sort`는 한 글자씩 비교한다. `v1.` 다음 글자가 각각 `1`, `2`, `9`이므로 뒤에 무엇이 오든 `1`이 먼저 온다.

        ### 시도 2: 숫자 정렬

        **아이디어:** `sort -n`은 숫자로 비교하니 10이 9 뒤로 갈 것이다.

        ```sh
        sort -n versions.txt
        ```

        **결과:** 실패. 순서가 전혀 바뀌지 않는다.

        **원인:** `-n`은 줄 맨 앞의 숫자만 읽는다. 태그가 `v`로 시작하므로 모든 줄이 0으로 취급되고, `sort`는
        줄 전체를 문자열로 비교하는 방식으로 돌아간다. `v`를 빼도 틀린다. `1.10`을 소수 1.1로 읽어서 `1.2`보다 앞에 둔다.

        ## 해결 방법

        `sort -V`(GNU coreutils의 버전 정렬)를 쓴다. 연속된 숫자 묶음을 정수로 비교하므로 v1.2, v1.9, v1.10 순서가 된다.

        1. 스크립트에서 최신 태그를 고르는 부분의 `sort`를 `sort -V`로 바꾼다.
        2. 두 자리 버전이 들어간 태그 목록으로 스크립트를 다시 돌려 확인한다.

        ```sh
        sort -V versions.txt | tail -n 1
        ```

        ## 교훈

        - 버전 문자열은 일반 문자열도 소수도 아니다. 버전 비교용 정렬을 써야 한다.
        - 정렬 코드는 1.10, 2.0.10 같은 두 자리 버전이 실제로 나오기 전에 미리 테스트한다.

        ## 참고 자료

        - [GNU coreutils 매뉴얼: sort invocation](https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html)

        """, scenario: ExampleScenario(
            language: "ko", feature: "기능", background: "배경", scenario: "시나리오",
            given: "조건 ", when: "만일 ", then: "그러면 ", and: "그리고 ",
            title: "sort가 v1.10을 v1.9보다 앞에 둔다",
            description: "시도마다 같은 태그 목록을 GNU sort로 정렬하고 출력 순서를 확인한다.",
            scenarioTitles: ["시도 1 — 그냥 sort는 한 글자씩 비교한다",
                             "시도 2 — sort -n은 순서를 바꾸지 못한다",
                             "해결 — sort -V는 숫자 묶음을 정수로 비교한다"],
            file: { "파일 \"\($0)\"의 내용:" }, run: { "\"\($0)\"를 실행하면" },
            exitZero: "종료 코드는 0이다", outputContains: "표준 출력에 다음 내용이 포함된다:").text),
        "ja": Example(id: "example-sort-version-order-ja", entry: """
        ---
        id: example-sort-version-order-ja
        title: "sort で v1.10 が v1.9 より前に並ぶ"
        lang: ja
        summary: "sort は既定で文字ごとに比較し、sort -n は 1.10 を小数の 1.1 と読む。そのため v1.10 のタグを打った後もリリーススクリプトが v1.9 を最新版として選んでいた。sort -V でバージョン順に並べて解決した。"
        symptoms:
          - "sort 10 が 9 より前に来る"
          - "バージョン番号 並び順 おかしい"
          - "sort -n でバージョンがソートできない"
          - "v1.10 が v1.2 より前に並ぶ"
          - "最新タグの取得を間違える"
        platforms: ["GNU coreutils", "Debian 12"]
        apis: ["sort", "sort -n", "sort -V", "tail -n 1"]
        tags: [shell, coreutils, sort, example]
        status: resolved
        updated: 2026-12-02
        ---

        # sort で v1.10 が v1.9 より前に並ぶ

        <!-- kb init が作った例のエントリ。書き方の見本として残すか、自分のエントリができたらフォルダごと削除する。 -->

        ## 問題

        リリーススクリプトはリポジトリのタグを並べ替え、最後の行を最新バージョンとして使っている
        （`sort versions.txt | tail -n 1`）。v1.10 のタグを打った後も、スクリプトは v1.9 を返し続けた。

        ## 試したこと

        ### 試行 1: そのまま sort

        **考え方:** タグは文字列なので、文字列として並べればバージョン順になるはず。

        ```sh
        sort versions.txt
        ```

        **結果:** 失敗。並びは `v1.10`、`v1.2`、`v1.9` で、最後の行は v1.9 になる。

        **原因:** `sort` は 1 文字ずつ比較する。`v1.` の次の文字はそれぞれ `1`、`2`、`9` なので、その後に何が続いても `1` が先に来る。

        ### 試行 2: 数値としてソート

        **考え方:** `sort -n` なら数値で比較するので、10 は 9 の後ろに来るはず。

        ```sh
        sort -n versions.txt
        ```

        **結果:** 失敗。並びはまったく変わらない。

        **原因:** `-n` が読むのは行頭の数値だけ。タグは `v` で始まるので全行が 0 とみなされ、`sort` は行全体を文字列として
        比較するやり方に戻る。`v` を外しても正しくならない。`1.10` を小数の 1.1 と読み、`1.2` より前に置く。

        ## 解決策

        `sort -V`（GNU coreutils のバージョンソート）を使う。連続した数字のまとまりを整数として比較するので、
        v1.2、v1.9、v1.10 の順になる。

        1. スクリプトで最新タグを選ぶ箇所の `sort` を `sort -V` に置き換える。
        2. 2 桁の番号を含むタグ一覧でスクリプトをもう一度動かして確かめる。

        ```sh
        sort -V versions.txt | tail -n 1
        ```

        ## 教訓

        - バージョン文字列はただの文字列でも小数でもない。バージョン比較用のソートを使う。
        - 並べ替えのコードは、1.10 や 2.0.10 のような 2 桁の番号が実際に現れる前にテストしておく。

        ## 参考資料

        - [GNU coreutils マニュアル: sort invocation](https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html)

        """, scenario: ExampleScenario(
            language: "ja", feature: "機能", background: "背景", scenario: "シナリオ",
            given: "前提", when: "もし", then: "ならば", and: "かつ",
            title: "sort で v1.10 が v1.9 より前に並ぶ",
            description: "試行ごとに同じタグ一覧を GNU sort で並べ替え、出力の順番を確かめる。",
            scenarioTitles: ["試行 1 — そのままの sort は 1 文字ずつ比較する",
                             "試行 2 — sort -n では並びが変わらない",
                             "解決策 — sort -V は数字のまとまりを整数として比較する"],
            file: { "ファイル「\($0)」の内容：" }, run: { "「\($0)」を実行する" },
            exitZero: "終了コードは0", outputContains: "標準出力に次の内容が含まれる：").text),
    ]
}
