import TroubleshootKB

/// A small multilingual corpus for ranking tests and the web fixture.
enum SearchTestCorpus {
    static func doc(_ id: String, _ lang: String, title: String, tags: [String] = [], status: String = "resolved",
                    symptoms: [String] = [], apis: [String] = [], problem: String = "",
                    attempts: [(String, String, String)] = [], fix: String = "", body: String = "") -> SearchDocument {
        var fields: [SearchField: [FieldText]] = [.title: [FieldText(title)]]
        if !symptoms.isEmpty { fields[.symptoms] = symptoms.map { FieldText($0) } }
        if !apis.isEmpty { fields[.apis] = apis.map { FieldText($0) } }
        if !problem.isEmpty { fields[.problem] = [FieldText(problem, anchor: "problem", label: nil)] }
        if !attempts.isEmpty { fields[.attempts] = attempts.map { FieldText($0.2, anchor: $0.0, label: $0.1) } }
        if !fix.isEmpty { fields[.fix] = [FieldText(fix, anchor: "fix", label: nil)] }
        if !body.isEmpty { fields[.body] = [FieldText(body)] }
        return SearchDocument(id: id, lang: lang, tags: tags, status: status, title: title,
                              url: "entries/\(id)/", fields: fields)
    }

    static let documents: [SearchDocument] = [
        doc("zh-toolbar-color-scheme", "zh-Hans", title: "toolbarColorScheme 在 iOS 17 上不生效",
            tags: ["swiftui", "navigation"],
            symptoms: ["导航栏颜色不对", "toolbarColorScheme 不生效", "深色模式下标题是黑色的"],
            apis: ["toolbarColorScheme(_:for:)", "UINavigationBarAppearance"],
            problem: "在 NavigationStack 里设置了 toolbarColorScheme，导航栏颜色在 iOS 17 上没有变化。",
            attempts: [
                ("attempt-1", "方案 1：只用 toolbarColorScheme", "只设置 toolbarColorScheme(.dark, for: .navigationBar)，结果：失败，标题颜色没有变化。原因：没有同时设置 toolbarBackground。"),
                ("attempt-2", "方案 2 — 结果", "加上 toolbarBackground(.visible) 后导航栏颜色正确了，但是滚动时闪烁。"),
            ],
            fix: "同时设置 toolbarBackground(.visible, for: .navigationBar) 和 toolbarColorScheme，并在 UINavigationBarAppearance 中配置背景色。"),
        doc("ko-navigation-bar-appearance", "ko", title: "UINavigationBarAppearance 배경색이 적용되지 않음",
            tags: ["uikit", "navigation"],
            symptoms: ["네비게이션 바 배경색이 안 바뀜", "스크롤하면 네비게이션 바가 투명해짐"],
            apis: ["UINavigationBarAppearance", "UINavigationBar.appearance()", "scrollEdgeAppearance"],
            problem: "UINavigationBar.appearance()로 배경색을 지정했는데 iOS 15부터 스크롤 끝에서 투명해진다.",
            attempts: [
                ("attempt-1", "시도 1 — 결과", "barTintColor를 설정했다. 결과: 실패. 원인: iOS 15부터 scrollEdgeAppearance가 따로 적용된다."),
                ("attempt-2", "시도 2 — 결과", "standardAppearance와 scrollEdgeAppearance에 같은 UINavigationBarAppearance를 넣었다. 결과: 성공."),
            ],
            fix: "configureWithOpaqueBackground()를 호출한 UINavigationBarAppearance를 standardAppearance와 scrollEdgeAppearance에 모두 지정한다."),
        doc("ja-navigation-bar-color", "ja", title: "UINavigationBar の色が変わらない",
            tags: ["uikit", "navigation"],
            symptoms: ["ナビゲーションバーの色が変わらない", "ダークモードでタイトルが見えない"],
            apis: ["UINavigationBar.appearance()", "tintColor"],
            problem: "UINavigationBar.appearance().tintColor を設定してもナビゲーションバーの色が変わらない。",
            attempts: [
                ("attempt-1", "試行 1 — 結果", "AppDelegate で appearance を設定した。結果：失敗。原因：画面表示後に設定していた。"),
            ],
            fix: "画面を表示する前に appearance を設定し、既存のバーには直接 tintColor を設定する。"),
        doc("en-urlsession-timeout", "en", title: "URLSession requests time out on cellular",
            tags: ["networking"], status: "workaround",
            symptoms: ["requests time out after 60 seconds", "URLSession timeout only on cellular"],
            apis: ["URLSession", "URLSessionConfiguration.timeoutIntervalForRequest", "waitsForConnectivity"],
            problem: "Data tasks fail with NSURLErrorTimedOut on cellular networks while Wi-Fi works.",
            attempts: [
                ("attempt-1", "Attempt 1 — Result", "Raised timeoutIntervalForRequest to 120 seconds. Result: failed; the request still timed out."),
                ("attempt-2", "Attempt 2 — Result", "Enabled waitsForConnectivity on the configuration. Result: partial."),
            ],
            fix: "Set allowsCellularAccess and waitsForConnectivity, and retry idempotent requests with backoff."),
        doc("zh-localized-string", "zh-Hans", title: "LocalizedStringKey 导致部分文案始终显示英文",
            tags: ["localization"],
            symptoms: ["部分文案始终显示英文", "仅在真机上复现"],
            apis: ["LocalizedStringKey", "Bundle.main.preferredLocalizations"],
            problem: "用户反馈部分文案始终显示英文，退出重进页面后问题依旧存在。",
            attempts: [("attempt-1", "方案 1 — 结果", "检查了 Localizable.xcstrings 的翻译状态。结果：失败。")],
            fix: "把 Text(verbatim:) 改回 Text(LocalizedStringKey) 并补齐缺失的翻译。"),
        doc("zh-common-chars", "zh-Hans", title: "的的的的的的的的的的的的",
            tags: ["noise"],
            symptoms: ["的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的"],
            body: "的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的的"),
        doc("zh-scattered-words", "zh-Hans", title: "导航的问题和颜色的问题",
            tags: ["navigation"], status: "open",
            symptoms: ["导航有时候卡住", "颜色偶尔不准"],
            problem: "导航跳转偶尔卡住；另外图标颜色在某些设备上不准。"),
        doc("ja-keyboard-avoidance", "ja", title: "キーボードでテキストフィールドが隠れる",
            tags: ["swiftui", "keyboard"],
            symptoms: ["キーボードが入力欄を隠す"],
            apis: ["safeAreaInset(edge:alignment:spacing:content:)", "ignoresSafeArea(.keyboard)"],
            problem: "ScrollView の下部にある TextField がキーボードに隠れてしまう。",
            fix: "ScrollViewReader で scrollTo を呼び、safeAreaInset を使う。"),
        doc("ko-keyboard-dismiss", "ko", title: "스크롤할 때 키보드가 내려가지 않음",
            tags: ["swiftui", "keyboard"],
            symptoms: ["스크롤해도 키보드가 안 내려감"],
            apis: ["scrollDismissesKeyboard(_:)"],
            problem: "List를 스크롤해도 키보드가 계속 떠 있다.",
            fix: "scrollDismissesKeyboard(.interactively)를 List에 적용한다."),
        doc("en-core-data-migration", "en", title: "Core Data lightweight migration crashes on launch",
            tags: ["coredata"],
            symptoms: ["app crashes on launch after update", "Can't find model for source store"],
            apis: ["NSPersistentContainer", "NSMigratePersistentStoresAutomaticallyOption"],
            problem: "After shipping a new model version the app crashes at launch for existing users.",
            fix: "Add a mapping model for the renamed attribute and keep the old model version in the bundle."),
    ]

    /// A small glossary for the corpus: the web fixture is built with it.
    static let glossary = SearchGlossary(concepts: [
        .init(id: "navigation-bar", name: "navigation bar",
              terms: ["navigation bar", "UINavigationBar", "导航栏", "내비게이션 바", "네비게이션 바", "ナビゲーションバー"]),
        .init(id: "color", name: "color", terms: ["color", "颜色", "색상", "배경색", "色"]),
        .init(id: "keyboard", name: "keyboard", terms: ["keyboard", "键盘", "키보드", "キーボード"]),
        .init(id: "scroll", name: "scroll", terms: ["scroll", "滚动", "스크롤", "スクロール"]),
        .init(id: "transparent", name: "transparent", terms: ["transparent", "透明", "투명", "透過"]),
        .init(id: "not-working", name: "not working", terms: ["not working", "不生效", "적용되지 않음", "안 바뀜", "変わらない"]),
        .init(id: "timeout", name: "timeout", terms: ["time out", "timeout", "超时", "타임아웃", "タイムアウト"]),
        .init(id: "crash", name: "crash", terms: ["crash", "闪退", "崩溃", "크래시", "クラッシュ"]),
    ])

    /// Queries whose results are part of the web fixture (and checked by the node test).
    static let fixtureQueries: [(query: String, filters: SearchFilters)] = [
        ("toolbarColorScheme 不生效", .none),
        ("导航栏颜色", .none),
        ("UINavigationBarAppearance 배경색", .none),
        ("UINavigationBar.appearance 色が変わらない", .none),
        ("URLSession timeout cellular", .none),
        ("的 LocalizedStringKey", .none),
        ("的", .none),
        ("toolbarColorScheme 完全不存在的词", .none),
        ("scrollEdgeAppearance 투명", .none),
        ("ＵＲＬＳｅｓｓｉｏｎ", .none),
        ("키보드", SearchFilters(langs: ["ko"])),
        ("keyboard", .none),
        ("navigation", SearchFilters(tags: ["uikit"])),
        ("颜色", SearchFilters(statuses: ["open", "resolved"])),
        ("migration crash", .none),
        ("toolbar color scheme", .none),
        // Across languages, through the glossary.
        ("导航栏 颜色 不生效", .none),
        ("키보드 스크롤", .none),
        ("キーボード スクロール", .none),
        ("网络请求超时", .none),
        ("앱 크래시", .none),
        ("ナビゲーションバー 透過", SearchFilters(langs: ["ko"])),
        ("navigation bars transparent", .none),
        // Completions of the word being typed, and corrections of one-edit typos.
        ("toolbarcolor", .none),
        ("scrolledgeappear", .none),
        ("scrolledge", .none),
        ("configur", .none),
        ("timeoutinterval", .none),
        ("toolbarcolor ", .none),
        ("UINavigationBar appearence", .none),
        ("apperance", .none),
        ("migraton crash", .none),
        ("scrollEdgeApperance 투명", .none),
        ("keyboard navigation", .none),
    ]
}
