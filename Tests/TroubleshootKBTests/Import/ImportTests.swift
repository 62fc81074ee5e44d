import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct ImportUnitTests {
    @Test(arguments: [
        ("导航栏的大标题在自定义背景上看不见，试了好几种方案。", "zh-Hans"),
        ("導航欄的大標題在自訂背景上看不見，這個問題試了好幾種方法。", "zh-Hant"),
        ("네비게이션 바의 배경색을 변경하고 하단 경계선을 제거하고자 함.", "ko"),
        ("ウィジェットに値が反映されない。UserDefaults を確認した。", "ja"),
        ("The archive fails on CI since the Xcode 15 upgrade; 日本 is mentioned once.", "en"),
        ("UINavigationBarAppearance 的 scrollEdgeAppearance 在 SwiftUI 里被覆盖了", "zh-Hans"),
    ])
    func languageFromTheScriptMix(text: String, lang: String) {
        #expect(LanguageDetector.detect(text) == lang)
    }

    @Test(arguments: [
        (".toolbarBackground(.hidden, for: .navigationBar)", CodeDetector.Signal.code),
        ("// NavigationBarFixer.swift", .code),
        ("/// Restores the appearance.", .code),
        ("let appearance = UINavigationBarAppearance()", .code),
        ("override func didMoveToWindow() {", .code),
        ("@objc private func refresh() {", .code),
        ("guard let bar = navigationController?.navigationBar else { return }", .code),
        ("}", .code),
        ("$ swift build -c release", .code),
        ("\"ENABLE_USER_SCRIPT_SANDBOXING\": \"NO\"", .code),
        ("- (void)viewDidLoad {", .code),
        ("[self.navigationController setNavigationBarHidden:YES animated:NO];", .code),
        ("let me explain why this happens:", .prose),
        ("Return to the list and open the entry again.", .prose),
        ("• .toolbarBackground(.visible, for: .navigationBar)와 배경색 적용.", .prose),
        ("想法：既然背景图要透出来，就把导航栏背景隐藏。", .prose),
        ("[10:04] jun: only the pods frameworks? which phase?", .prose),
        ("make sure the scheme is shared", .prose),
    ])
    func codeLineSignals(line: String, signal: CodeDetector.Signal) {
        #expect(CodeDetector.signal(line) == signal)
    }

    @Test func codeRunsKeepBlankLinesAndCommentsAndEndAtProse() {
        let text = """
        说明如下：

        // Fixer.swift
        struct Fixer {
            let isEnabled: Bool

            func apply() {
                // 延迟到下一轮
                DispatchQueue.main.async { }
            }
        }

        之后再看效果。
        """
        let blocks = LineClassifier.blocks(text)
        #expect(blocks.count == 3)
        guard case .code(let language, let lines) = blocks[1] else {
            Issue.record("expected code, got \(blocks[1])")
            return
        }
        #expect(language == "swift")
        #expect(lines.first == "// Fixer.swift" && lines.last == "}")
        #expect(lines.contains(""))
    }

    @Test func mediaTablesAndLinksAreSeparateBlocks() {
        let text = "before.gif\tafter.gif\n修正前\t修正後\n\nhttps://example.com/a\n• Docs - https://example.com/b\n"
        let blocks = LineClassifier.blocks(text)
        #expect(blocks == [.media(["before.gif\tafter.gif", "修正前\t修正後"]),
                           .links(["https://example.com/a", "Docs - https://example.com/b"])])
    }

    static func draft(_ text: String, lang: String? = nil) -> (EntryImporter.Draft, Entry) {
        let draft = EntryImporter().draft(text, options: .init(lang: lang, id: "test-entry", today: "2026-04-01"))
        let entry = TestSupport.parse(draft.markdown!, folder: "test-entry").entry!
        return (draft, entry)
    }

    @Test func outcomesAreReadNeverInvented() {
        let (_, entry) = Self.draft("""
        Login button does nothing on iPad

        Problem
        Tapping Login on iPad does nothing; iPhone is fine.

        Attempt 1: rebuild the layout
        Result: the button moved but nothing else changed.

        Attempt 2: disable the gesture recognizer
        Taps reach the button now. It worked.

        Attempt 3: move the button out of the scroll view
        Result: failed, taps are still swallowed.

        Fix
        Disable the recognizer's cancelsTouchesInView.
        """)
        #expect(entry.attempts.map(\.outcome) == [.unknown, .worked, .failed])
        // The closing sentence that states the outcome became the result.
        #expect(entry.attempts[1].failure == "It worked.")
        let todos = TestSupport.comments(underAttempt: 0, of: entry)
        #expect(todos.count == 1 && todos[0].contains("TODO(kb-import)"))
        #expect(entry.fix != nil && entry.metadata.status == .resolved)
    }

    @Test func contradictoryTextIsWeighedAndAsked() {
        // "성공" for one part, "적용 안 됨" for the rest: the failure decides, and the draft asks.
        let (_, entry) = Self.draft("""
        상단 경계선 문제

        시도 1: appearance 프록시
        • shadowColor = .clear로 경계선 제거 성공.
        • 문제: inline 모드에서 적용 안 됨.
        """)
        #expect(entry.attempts.count == 1)
        #expect(entry.attempts[0].outcome == .failed)
        let todos = TestSupport.comments(underAttempt: 0, of: entry)
        #expect(todos.contains { $0.contains("outcome 실패 drafted from \"적용 안 됨\"") }, "\(todos)")
        #expect(entry.metadata.status == .open)
    }

    @Test func bulletAttemptLabelsBecomeHeadings() {
        let (draft, entry) = Self.draft("""
        스크롤 추적

        시도 4: KVO로 추적
        • 시도 4-1 (superview 탐색): 상위 뷰를 탐색. 하지만 탐색에 실패함.
        • 시도 4-2 (형제 뷰 탐색): 형제 뷰까지 재귀적으로 탐색.
        • 결과: 성공함.
        • 최종 구현: iOS 17은 KVO 방식을 사용.
        """)
        #expect(entry.attempts.map(\.number.description) == ["4", "4-1", "4-2"])
        #expect(entry.attempts.map(\.outcome) == [.unknown, .failed, .worked])
        #expect(draft.markdown!.contains("### 시도 4-1 (superview 탐색)\n"))
        #expect(draft.markdown!.contains("- **결과:** 성공함."))
        #expect(entry.fix?.heading == "최종 구현")
    }

    @Test func frontMatterIsDrafted() {
        let (draft, entry) = Self.draft("""
        TodoListView header: the navigation bar keeps its hairline

        Problem
        The hairline under the UINavigationBar stays after setting toolbarBackground(_:for:).
        """)
        #expect(draft.lang == "en")
        #expect(entry.metadata.title == "TodoListView header: the navigation bar keeps its hairline")
        #expect(entry.metadata.apis.contains("UINavigationBar") && entry.metadata.apis.contains("toolbarBackground(_:for:)"))
        #expect(entry.metadata.summary.hasPrefix("The hairline under"))
        #expect(entry.metadata.tags.isEmpty && entry.metadata.related.isEmpty)
        #expect(entry.metadata.status == .open)
        #expect(IdentifierExtractor.slug(entry.metadata.title) == "todo-list-view-header-navigation-bar")
        #expect(IdentifierExtractor.slug("大标题看不见") == nil)
    }

    @Test func langOptionOverridesDetection() {
        let (draft, entry) = Self.draft("Titel\n\nHier steht etwas.\n", lang: "ja")
        #expect(draft.lang == "ja" && entry.metadata.lang == "ja")
    }
}

@Suite struct ImportCommandTests {
    static let raw = """
    Widget shows stale values after saving

    Problem
    The widget keeps showing the old goal after the app saves a new one.

    Attempt 1: reload all timelines
    WidgetCenter.shared.reloadAllTimelines()
    Result: failed, the value is still old.

    Fix
    Read and write through UserDefaults(suiteName:).
    """

    @Test func writeCreatesTheEntryOnceAndNeverOverwrites() throws {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        TestSupport.write(Self.raw, to: dir + "/raw.txt")
        let env = ["KB_IMPORT_DATE": "2026-04-01"]
        let first = TestSupport.kb(["import", "raw.txt", "--write"], in: dir, environment: env)
        #expect(first.code == 0, "\(first.stderr)")
        let path = dir + "/entries/widget-shows-stale-values-after-saving/entry.md"
        #expect(first.stdout.contains("entries/widget-shows-stale-values-after-saving/entry.md"))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("updated: 2026-04-01") && written.contains("```swift"))
        #expect(TestSupport.kb(["lint"], in: dir).code == 0)

        // Edit the entry, then import again: refused, and the file keeps the edit.
        try (written + "\nEdited by hand.\n").write(toFile: path, atomically: true, encoding: .utf8)
        let second = TestSupport.kb(["import", "raw.txt", "--write"], in: dir, environment: env)
        #expect(second.code == 1)
        #expect(second.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written + "\nEdited by hand.\n")
    }

    @Test func readsStandardInputAndPrintsTheDraft() {
        let result = TestSupport.kb(["import", "-", "--id", "stale-widget"], in: "/", environment: ["KB_IMPORT_DATE": "2026-04-01"], stdin: Self.raw)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("---\nid: stale-widget\n"))
        #expect(result.stdout.contains("### Attempt 1: reload all timelines"))
        #expect(result.stdout.contains("- **Result:** failed, the value is still old."))
        #expect(result.stderr.contains("en, 1 attempt"))
    }

    @Test func errors() {
        let dir = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(dir) }
        // No ASCII words in the title: an id is needed.
        let noSlug = TestSupport.kb(["import", "-"], in: dir, stdin: "大标题看不见\n\n问题\n浅色背景上看不见。\n")
        #expect(noSlug.code == 1 && noSlug.stderr.contains("--id"))
        #expect(TestSupport.kb(["import", "missing.txt"], in: dir).code == 1)
        #expect(TestSupport.kb(["import", "-", "--lang", "fr"], in: dir, stdin: "x").code == 64)
        #expect(TestSupport.kb(["import", "-", "--id", "Bad Id"], in: dir, stdin: "x").code == 64)
        #expect(TestSupport.kb(["import"], in: dir).code == 64)
        #expect(TestSupport.kb(["help", "import"], in: dir).stdout.contains("USAGE: kb import"))
    }
}
