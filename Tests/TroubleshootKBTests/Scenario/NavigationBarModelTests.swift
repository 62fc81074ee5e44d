import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

@Suite struct NavigationBarCatalogueTests {
    static let docPath = TestSupport.repositoryRoot + "/docs/model/navigation-bar.md"

    /// docs/model/navigation-bar.md is generated from the rule table; regenerate it with
    /// `KB_WRITE_MODEL_DOC=1 swift test --filter NavigationBarCatalogueTests`.
    @Test func documentMatchesTheRuleTable() throws {
        let generated = NavigationBarRules.markdown()
        if ProcessInfo.processInfo.environment["KB_WRITE_MODEL_DOC"] == "1" {
            try generated.write(toFile: Self.docPath, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        for rule in NavigationBarRules.catalogue {
            #expect(text.contains("| <a id=\"\(rule.id)\"></a>\(rule.id) |"), "the doc lacks \(rule.id)")
        }
        #expect(text == generated, "docs/model/navigation-bar.md is out of date: run KB_WRITE_MODEL_DOC=1 swift test --filter NavigationBarCatalogueTests")
    }

    @Test func rulesAreWellFormed() {
        let ids = NavigationBarRules.catalogue.map(\.id)
        #expect(Set(ids).count == ids.count)
        for (index, rule) in NavigationBarRules.catalogue.enumerated() {
            #expect(rule.id == "NB-\(index + 1)")
            #expect(!rule.statement.isEmpty && !rule.statement.contains("\n"))
            #expect(rule.source.hasPrefix("http") || rule.source.hasPrefix("field observation: "), "\(rule.id) source")
            #expect(!rule.osVersions.isEmpty && rule.osVersions.allSatisfy { NavigationBarRules.allVersions.contains($0) })
        }
        // Field observations name an entry that exists.
        for rule in NavigationBarRules.catalogue {
            for part in rule.source.split(separator: ";") {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("field observation: ") else { continue }
                for id in text.dropFirst("field observation: ".count).split(separator: ",") {
                    #expect(TestSupport.entryIDs.contains(id.trimmingCharacters(in: .whitespaces)), "\(rule.id) names \(id)")
                }
            }
        }
    }

    /// The model knows no entry: no entry id and no attempt number in its sources.
    @Test func modelSourcesNameNoEntryAndNoAttempt() throws {
        let folder = TestSupport.repositoryRoot + "/Sources/KBScenarios/NavigationBarModel"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let attempt = try NSRegularExpression(pattern: "(?i)attempt[-_ ]?[0-9]|@attempt|@fix\\b|方案 ?[0-9]|시도 ?[0-9]|試行 ?[0-9]")
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            // The catalogue may name entries as the source of a field observation, nothing else may.
            let checked = text.split(separator: "\n").filter { !$0.contains("field observation: ") }.joined(separator: "\n")
            for id in TestSupport.entryIDs { #expect(!checked.contains(id), "\(file) names entry \(id)") }
            #expect(attempt.firstMatch(in: checked, range: NSRange(location: 0, length: (checked as NSString).length)) == nil,
                    "\(file) refers to an attempt")
        }
    }
}

/// Switching single rules off: exactly the records that depend on the rule turn stale.
@Suite(.serialized) struct NavigationBarRuleDependencyTests {
    static let iOSEntries = ["large-title-custom-background", "nav-bar-shadow-ios17", "title-attributes-pop-timing",
                             "scoped-navigation-bar-appearance"]

    /// `entry@anchor` of every record that does not reproduce with `disabled` switched off.
    static func failing(disabling disabled: Set<String>) throws -> Set<String> {
        var settings = CheckTestSupport.settings
        settings.disabledModelRules = disabled
        let checker = EntryChecker(settings: settings)
        var result = Set<String>()
        for id in iOSEntries {
            let check = checker.check(try CheckTestSupport.item(TestSupport.entriesDirectory, id))
            for attempt in check.attempts where attempt.verdict != .reproduces {
                #expect(attempt.verdict == .stale, "\(id) @\(attempt.anchor ?? "") is \(attempt.verdict) without \(disabled): \(attempt.message ?? "")")
                result.insert("\(id)@\(attempt.anchor ?? "")")
            }
        }
        return result
    }

    @Test func allRulesOnEverythingReproduces() throws {
        #expect(try Self.failing(disabling: []).isEmpty)
    }

    /// Which records each rule carries. A rule that no record depends on is listed with none:
    /// switching it off changes no verdict.
    static let dependents: [String: [String]] = [
        "NB-1": ["large-title-custom-background@attempt-0", "large-title-custom-background@attempt-4", "large-title-custom-background@fix",
                 "nav-bar-shadow-ios17@fix", "scoped-navigation-bar-appearance@fix"],
        "NB-2": ["scoped-navigation-bar-appearance@fix"],
        "NB-3": [],
        "NB-4": ["nav-bar-shadow-ios17@fix"],
        "NB-5": ["nav-bar-shadow-ios17@fix"],
        "NB-6": ["scoped-navigation-bar-appearance@attempt-1", "title-attributes-pop-timing@fix"],
        "NB-7": ["large-title-custom-background@attempt-0", "large-title-custom-background@fix"],
        "NB-8": ["nav-bar-shadow-ios17@attempt-2", "nav-bar-shadow-ios17@attempt-3", "nav-bar-shadow-ios17@fix", "scoped-navigation-bar-appearance@fix"],
        "NB-9": ["large-title-custom-background@attempt-1", "large-title-custom-background@attempt-2", "nav-bar-shadow-ios17@attempt-1",
                 "nav-bar-shadow-ios17@attempt-2"],
        "NB-10": ["large-title-custom-background@fix", "nav-bar-shadow-ios17@attempt-3", "nav-bar-shadow-ios17@fix"],
        // If toolbarColorScheme reached the text over a hidden background, attempt 1 would have worked.
        "NB-11": ["large-title-custom-background@attempt-1"],
        "NB-12": ["large-title-custom-background@attempt-2"],
        "NB-13": [],
        "NB-14": ["large-title-custom-background@attempt-1", "large-title-custom-background@attempt-3", "large-title-custom-background@fix"],
        "NB-15": ["large-title-custom-background@attempt-0", "large-title-custom-background@attempt-4", "large-title-custom-background@fix"],
        "NB-16": ["large-title-custom-background@attempt-3"],
        "NB-17": ["nav-bar-shadow-ios17@attempt-3", "nav-bar-shadow-ios17@fix"],
        "NB-18": ["nav-bar-shadow-ios17@fix", "scoped-navigation-bar-appearance@attempt-1", "title-attributes-pop-timing@attempt-1", "title-attributes-pop-timing@attempt-2"],
        "NB-19": ["title-attributes-pop-timing@attempt-1", "title-attributes-pop-timing@attempt-2"],
        "NB-20": ["title-attributes-pop-timing@fix"],
        "NB-21": ["nav-bar-shadow-ios17@attempt-4"],
        "NB-22": ["nav-bar-shadow-ios17@attempt-4-1", "nav-bar-shadow-ios17@attempt-4-2"],
        "NB-23": ["nav-bar-shadow-ios17@fix"],
        "NB-24": ["large-title-custom-background@attempt-4"],
    ]

    @Test func everyRuleHasItsDependentsListed() {
        #expect(Set(Self.dependents.keys) == Set(NavigationBarRules.catalogue.map(\.id)))
    }

    @Test(arguments: NavigationBarRules.catalogue.map(\.id))
    func switchingARuleOffMakesExactlyItsDependentsStale(rule: String) throws {
        let failing = try Self.failing(disabling: [rule])
        #expect(failing == Set(Self.dependents[rule] ?? []), "without \(rule): \(failing.sorted())")
    }

    /// Every record a rule carries lists that rule among the rules it exercised.
    @Test func dependentRecordsReportTheRule() throws {
        let checker = EntryChecker(settings: CheckTestSupport.settings)
        var exercised: [String: Set<String>] = [:]
        for id in Self.iOSEntries {
            for attempt in checker.check(try CheckTestSupport.item(TestSupport.entriesDirectory, id)).attempts {
                exercised["\(id)@\(attempt.anchor ?? "")", default: []].formUnion(attempt.rules)
                #expect(!attempt.rules.isEmpty && attempt.trace?.isEmpty == false, "\(id) @\(attempt.anchor ?? "") has no trace")
            }
        }
        for (rule, records) in Self.dependents {
            for record in records { #expect(exercised[record]?.contains(rule) == true, "\(record) depends on \(rule) but does not report it") }
        }
    }
}

/// The model's rules one by one, on the object graph directly.
@Suite struct NavigationBarModelUnitTests {
    static func app(os: Int = 17, disabling: Set<String> = []) -> (NBContext, NBNavigationController, NBWindow, NBAppearanceProxy) {
        let context = NBContext(rules: NavigationBarRules(disabling: disabling), os: os)
        let proxy = NBAppearanceProxy()
        let root = NBViewController("root", context: context)
        let navigation = NBNavigationController("nav", root: root, context: context, proxy: proxy)
        let window = NBWindow("window", context: context)
        return (context, navigation, window, proxy)
    }

    @Test func nb1AndNb4SelectionAndNilScrollEdge() {
        let (context, navigation, _, _) = Self.app()
        let bar = navigation.navigationBar
        var opaque = NBAppearance(background: .color(.red))
        opaque.shadowColor = .separator
        bar.setAppearance(.standard, opaque)
        bar.isAtScrollEdge = false
        #expect(bar.activeAppearance().slot == .standard)
        bar.isAtScrollEdge = true
        let edge = bar.activeAppearance()
        #expect(edge.slot == .scrollEdge && edge.appearance.background == .transparent, "nil scrollEdge → transparent standard")
        #expect(context.trace.ruleIDs.contains("NB-4"))
        bar.isCompactHeight = true
        bar.isAtScrollEdge = false
        #expect(bar.activeAppearance().slot == .standard, "nil compact falls back to standard (NB-3)")
    }

    @Test func nb2ItemOverridesBar() {
        let (_, navigation, _, _) = Self.app()
        navigation.topViewController!.navigationItem.appearances[.scrollEdge] = NBAppearance(background: .color(.red))
        let active = navigation.navigationBar.activeAppearance()
        #expect(active.source == "navigation item" && active.appearance.background == .color(.red))
    }

    @Test func nb5OwnStackKeepsBackgroundFrom18() {
        for (os, expected) in [(17, NBAppearance.Background.transparent), (18, .color(.systemBackground))] {
            let (_, navigation, _, _) = Self.app(os: os)
            navigation.navigationBar.isOwnedBySwiftUIStack = true
            navigation.navigationBar.setAppearance(.standard, NBAppearance(background: .color(.systemBackground)))
            #expect(navigation.navigationBar.activeAppearance().appearance.background == expected, "iOS \(os)")
        }
    }

    @Test func nb6ProxyAppliesOnWindowEntryOnly() {
        let (_, navigation, window, proxy) = Self.app()
        proxy.appearances[.standard] = NBAppearance(background: .color(.red))
        navigation.navigationBar.isAtScrollEdge = false
        window.rootViewController = navigation
        #expect(navigation.navigationBar.activeAppearance().appearance.background == .color(.red))
        proxy.appearances[.standard] = NBAppearance(background: .material)
        navigation.navigationBar.proxyChanged()
        #expect(navigation.navigationBar.activeAppearance().appearance.background == .color(.red), "a bar in a window keeps its look")
    }

    @Test func nb8ClearShadowHidesHairline() {
        let (_, navigation, _, _) = Self.app()
        let bar = navigation.navigationBar
        bar.isAtScrollEdge = false
        #expect(bar.hairlineVisible())
        var appearance = NBAppearance()
        appearance.shadowColor = .clear
        bar.setAppearance(.standard, appearance)
        #expect(!bar.hairlineVisible())
        let (_, other, _, _) = Self.app(disabling: ["NB-8"])
        other.navigationBar.isAtScrollEdge = false
        other.navigationBar.setAppearance(.standard, appearance)
        #expect(other.navigationBar.hairlineVisible(), "without NB-8 the clear shadow would show")
    }

    @Test func nb10MainQueueWaitsForThePass() {
        let context = NBContext()
        var order: [String] = []
        context.inUpdatePass = true
        context.mainQueue.async(context) { order.append("deferred") }
        order.append("pass")
        context.inUpdatePass = false
        context.mainQueue.drain()
        #expect(order == ["pass", "deferred"])
    }

    @Test func nb11ColorSchemeNeedsAVisibleBackground() {
        let (context, navigation, _, _) = Self.app()
        context.colorScheme = .dark
        let bar = navigation.navigationBar
        bar.colorSchemeOverride = .light
        bar.setAppearance(.scrollEdge, NBAppearance(background: .transparent, shadowColor: nil))
        #expect(bar.largeTitleColor().color == .white)
        bar.setAppearance(.scrollEdge, NBAppearance(background: .material))
        #expect(bar.largeTitleColor().color == .black)
    }

    @Test func nb14ContrastAndDimOverlay() {
        #expect(abs(wcagContrast(0, 1) - 21) < 0.001)
        var image = NBImage(luminance: 0.12)
        #expect(wcagContrast(0, image.visibleLuminance) >= 3, "black on L 0.12 is readable")
        image.dimOpacity = 0.5
        #expect(wcagContrast(0, image.visibleLuminance) < 3, "a dim overlay makes dark text worse")
    }

    @Test func nb15ResponderChainReachesTheNavigationController() {
        let (context, navigation, _, _) = Self.app()
        let root = navigation.topViewController!
        let leaf = NBView("leaf", context: context)
        root.view.addSubview(leaf)
        var responder: NBResponder? = leaf.next
        var found: NBNavigationController?
        while let current = responder {
            if let controller = current as? NBViewController, let nav = controller.navigationController { found = nav; break }
            responder = current.next
        }
        #expect(found === navigation)
    }

    @Test func nb19And20TitleAttributesAroundAPop() {
        for kind in [NBNavigationController.PopKind.backButton, .swipe] {
            let (context, navigation, window, _) = Self.app()
            window.rootViewController = navigation
            let detail = NBViewController("detail", context: context)
            navigation.topViewController!.viewWillAppearHook = { [unowned navigation] in
                navigation.navigationBar.setTitleTextAttributes(NBTextAttributes(foregroundColor: .systemPurple), by: "viewWillAppear")
            }
            navigation.push(detail)
            navigation.navigationBar.setTitleTextAttributes(NBTextAttributes(foregroundColor: .black))
            navigation.pop(kind)
            let color = navigation.navigationBar.titleTextAttributes.foregroundColor
            #expect(color == (kind == .backButton ? .black : .systemPurple), "\(kind)")
        }
    }

    @Test func unsupportedCodeIsNamed() {
        let context = NBContext()
        let runner = NBCodeRunner(context: context, proxy: NBAppearanceProxy(), variables: [:]) {}
        #expect(throws: NBUnsupportedCode.self) { try runner.run("view.layer.cornerRadius = 4") }
        var preferences = NBToolbarPreferences()
        #expect(throws: NBUnsupportedCode.self) { try NBModifiers.apply(".toolbarVisibility(.hidden, for: .navigationBar)", to: &preferences) }
        #expect(throws: Never.self) { try NBModifiers.apply(".toolbarBackground(.hidden, for: .navigationBar)", to: &preferences) }
        #expect(preferences.visibility == .hidden)
    }
}
