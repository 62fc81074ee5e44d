import Foundation
import KBCore

/// One rule of the navigation-bar model: what UIKit or SwiftUI does, where that is written down,
/// and on which OS versions it holds. The model consults rules by id; every consultation that
/// decides something is recorded in the scenario's trace.
public struct NavigationBarRule: Sendable, Equatable {
    public let id: String
    /// One line: what the platform does.
    public let statement: String
    /// An Apple documentation page or technote, or "field observation: <entry id>".
    public let source: String
    /// The OS versions (of those the model knows: 17, 18, 26) the rule holds for.
    public let osVersions: [Int]

    public init(id: String, statement: String, source: String, osVersions: [Int] = NavigationBarRules.allVersions) {
        self.id = id
        self.statement = statement
        self.source = source
        self.osVersions = osVersions
    }
}

/// The rule table of the navigation-bar model. `catalogue` is the one list the model, the
/// documentation (docs/model/navigation-bar.md) and the site's rule page are made from.
/// A `NavigationBarRules` value is the table one scenario runs with: tests switch single
/// rules off (`disabling:`) to see which records depend on them.
public struct NavigationBarRules: Sendable, Equatable {
    public static let allVersions = [17, 18, 26]
    public static let modelName = "navigation-bar model"

    public let rules: [NavigationBarRule]
    public let disabled: Set<String>

    public init(rules: [NavigationBarRule] = NavigationBarRules.catalogue, disabling disabled: Set<String> = []) {
        self.rules = rules
        self.disabled = disabled
    }

    public static let standard = NavigationBarRules()

    public func rule(_ id: String) -> NavigationBarRule? { rules.first { $0.id == id } }

    /// Whether rule `id` is in force on `os`: known, not switched off, and holding for that version.
    public func isInForce(_ id: String, os: Int) -> Bool {
        guard let rule = rule(id), !disabled.contains(id) else { return false }
        return rule.osVersions.contains(os)
    }

    /// Orders rule ids by their number (`NB-2` before `NB-10`).
    public static func sortIDs<S: Sequence>(_ ids: S) -> [String] where S.Element == String {
        Set(ids).sorted { number($0) != number($1) ? number($0) < number($1) : $0 < $1 }
    }

    static func number(_ id: String) -> Int { Int(id.split(separator: "-").last ?? "") ?? Int.max }

    // MARK: The catalogue

    static let docs = "https://developer.apple.com/documentation/"

    public static let catalogue: [NavigationBarRule] = [
        NavigationBarRule(id: "NB-1",
            statement: "The bar picks its appearance by state: at the scroll edge (large title shown) scrollEdgeAppearance, scrolled standardAppearance; in compact height compactScrollEdgeAppearance and compactAppearance.",
            source: docs + "uikit/uinavigationbar/scrolledgeappearance"),
        NavigationBarRule(id: "NB-2",
            statement: "A non-nil appearance on the top item's UINavigationItem overrides the bar's for that state while the item is on top; the bar reads the items of the controllers on the stack, not of their children.",
            source: docs + "uikit/uinavigationitem/standardappearance"),
        NavigationBarRule(id: "NB-3",
            statement: "A nil compactAppearance falls back to standardAppearance, a nil compactScrollEdgeAppearance to scrollEdgeAppearance.",
            source: docs + "uikit/uinavigationbar/compactscrolledgeappearance"),
        NavigationBarRule(id: "NB-4",
            statement: "A nil scrollEdgeAppearance means standardAppearance with a transparent background at the scroll edge (iOS 15 and later, every bar managed by a navigation controller).",
            source: docs + "uikit/uinavigationbar/scrolledgeappearance"),
        NavigationBarRule(id: "NB-5",
            statement: "From iOS 18 the bar of a NavigationStack a SwiftUI view owns keeps the standard background at the scroll edge when scrollEdgeAppearance is nil; the transparency of NB-4 shows there on iOS 17 only.",
            source: "field observation: nav-bar-shadow-ios17", osVersions: [18, 26]),
        NavigationBarRule(id: "NB-6",
            statement: "The appearance proxy (UINavigationBar.appearance()) applies its values when a bar enters a window, to properties not set on the bar itself; bars already in a window do not change.",
            source: docs + "uikit/uiappearance"),
        NavigationBarRule(id: "NB-7",
            statement: "configureWithTransparentBackground(): no background and no shadow; configureWithDefaultBackground(): the system material with a shadow; configureWithOpaqueBackground(): an opaque theme colour with a shadow.",
            source: docs + "uikit/uibarappearance"),
        NavigationBarRule(id: "NB-8",
            statement: "A nil or clear shadowColor hides the bar's bottom hairline.",
            source: docs + "uikit/uibarappearance/shadowcolor"),
        NavigationBarRule(id: "NB-9",
            statement: "SwiftUI writes its toolbar preferences into the bar on each update pass, and rewrites the bar's appearances from them (defaults when there are none) on large/inline title transitions, overwriting UIKit writes made before or during the pass.",
            source: "field observation: large-title-custom-background, nav-bar-shadow-ios17"),
        NavigationBarRule(id: "NB-10",
            statement: "Work enqueued on the main queue during a SwiftUI update pass runs after the pass has ended.",
            source: "field observation: large-title-custom-background"),
        NavigationBarRule(id: "NB-11",
            statement: "toolbarColorScheme(_:for:) reaches the bar's text only while a bar background is visible; with a hidden background it changes the status bar only.",
            source: docs + "swiftui/view/toolbarcolorscheme(_:for:)"),
        NavigationBarRule(id: "NB-12",
            statement: "A visible bar background (material or colour) covers the content under the bar; a transparent one lets it show through.",
            source: docs + "swiftui/view/toolbarbackground(_:for:)"),
        NavigationBarRule(id: "NB-13",
            statement: "The large title's colour is the foregroundColor of the active appearance's largeTitleTextAttributes when set, else the label colour of the bar's effective colour scheme.",
            source: docs + "uikit/uinavigationbarappearance/largetitletextattributes"),
        NavigationBarRule(id: "NB-14",
            statement: "The large title (34 pt bold, WCAG large text) is readable at a contrast of 3:1 or more against what is behind it: the bar background when visible, else the image under its dim overlay.",
            source: "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html"),
        NavigationBarRule(id: "NB-15",
            statement: "Responder chain: a view's next responder is its view controller when it is that controller's root view, else its superview; a controller's next is its view's superview, else its parent.",
            source: docs + "uikit/uiresponder/next"),
        NavigationBarRule(id: "NB-16",
            statement: "The navigationController of a UIViewControllerRepresentable's controller placed in .background {} is nil while SwiftUI updates it (observed); the model's reason, that the controller is not yet attached to the navigation hierarchy then, is a hypothesis.",
            source: "field observation: large-title-custom-background"),
        NavigationBarRule(id: "NB-17",
            statement: "Such a representable's controller is attached to the navigation hierarchy once the update pass has ended, so work deferred to the main queue finds navigationController.",
            source: "field observation: nav-bar-shadow-ios17"),
        NavigationBarRule(id: "NB-18",
            statement: "One bar is shared by the whole navigation stack: a direct write to it persists across push and pop until someone restores it.",
            source: docs + "uikit/uinavigationcontroller/navigationbar"),
        NavigationBarRule(id: "NB-19",
            statement: "Title attributes written in viewWillAppear during a Back-button pop are lost to the bar's transition layout; during an interactive swipe-back they hold.",
            source: "https://developer.apple.com/library/archive/releasenotes/General/RN-iOSSDK-10.0/ ; field observation: title-attributes-pop-timing"),
        NavigationBarRule(id: "NB-20",
            statement: "Title attributes written after super.popViewController(animated:) returns and in the transition coordinator's completion hold.",
            source: docs + "uikit/uiviewcontrollertransitioncoordinator/animate(alongsidetransition:completion:) ; field observation: title-attributes-pop-timing"),
        NavigationBarRule(id: "NB-21",
            statement: "onScrollGeometryChange(for:of:action:) exists from iOS 18.",
            source: docs + "swiftui/view/onscrollgeometrychange(for:of:action:)", osVersions: [18, 26]),
        NavigationBarRule(id: "NB-22",
            statement: "A UIKit view placed with .background() sits in a sibling branch beside the content's scroll view, not inside it.",
            source: "field observation: nav-bar-shadow-ios17"),
        NavigationBarRule(id: "NB-23",
            statement: "From iOS 26 bars take the system (Liquid Glass) design and custom bar backgrounds are discouraged, so a configurator that follows the guidance skips itself.",
            source: docs + "technologyoverviews/adopting-liquid-glass ; field observation: nav-bar-shadow-ios17", osVersions: [26]),
        NavigationBarRule(id: "NB-24",
            statement: "SwiftUI lays out the bar's large-title label during its update pass; its frame read before the pass ends is the previous layout (zero before the first).",
            source: "field observation: large-title-custom-background"),
    ]
}

/// What the model decided in one scenario, rule by rule, in order.
public final class RuleTrace {
    public struct Event: Sendable, Equatable {
        public let rule: String
        public let note: String
    }

    public private(set) var events: [Event] = []

    public init() {}

    public func record(_ rule: String, _ note: String) {
        if let last = events.last, last.rule == rule, last.note == note { return }
        events.append(Event(rule: rule, note: note))
    }

    /// The rule ids that fired, by number.
    public var ruleIDs: [String] { NavigationBarRules.sortIDs(events.map(\.rule)) }

    /// One line per event: `NB-4: …`.
    public var lines: [String] { events.map { "\($0.rule): \($0.note)" } }
}

extension NavigationBarRules {
    /// docs/model/navigation-bar.md, generated from the catalogue (a test keeps the file in step).
    public static func markdown(_ rules: [NavigationBarRule] = catalogue) -> String {
        var out = """
        # The navigation-bar model

        The four iOS entries' scenarios (`@world:navigation-bar-model`) run against this model, not a
        device: a small, deterministic object graph shaped like UIKit and SwiftUI (window, views,
        view controllers, a navigation controller with one shared bar, navigation items, appearances,
        the appearance proxy, a SwiftUI hosting layer with toolbar preferences and update passes, a
        main queue, a scroll view, iOS 17 / 18 / 26, colour scheme, a background image). Every
        decision it makes comes from one rule below and is recorded: `kb check --explain ID` prints
        the trace per scenario, the report lists the rules each scenario exercised (`rules`), and the
        site shows them on entry pages with a link to the rule page (`model/navigation-bar/index.html`).

        When a platform release changes a rule, change that rule in
        `Sources/KBScenarios/NavigationBarModel/NavigationBarRules.swift`; `kb check`
        then shows which entries and attempts no longer hold. Tests switch single rules off
        (`WorldSettings.disabledModelRules`) and check that exactly the dependent records turn stale.
        The model knows no entry: entries appear here only as the source of a field observation.

        This file is generated from the rule table (`NavigationBarRules.markdown()`); a test fails
        when it is out of date.

        | id | rule | source | iOS |
        |---|---|---|---|

        """
        for rule in rules {
            let source = rule.source.split(separator: ";").map { part -> String in
                let text = part.trimmingCharacters(in: .whitespaces)
                return text.hasPrefix("http") ? "<\(text)>" : text
            }.joined(separator: "; ")
            out += "| <a id=\"\(rule.id)\"></a>\(rule.id) | \(rule.statement.replacingOccurrences(of: "|", with: "\\|")) | \(source) | \(rule.osVersions.map(String.init).joined(separator: ", ")) |\n"
        }
        out += """

        ## Readability

        Contrast is the WCAG ratio (L1 + 0.05) / (L2 + 0.05) of relative luminances; the large title
        (34 pt bold) counts as large text, readable from 3:1. A black dim overlay of opacity *a* is
        composited over the image in sRGB (each channel × (1 − a)), so it always lowers the image's
        luminance: it helps light text and hurts dark text.

        ## What scenarios can say

        Steps are listed with their phrases in English, Chinese, Korean and Japanese in
        `Sources/KBScenarios/NavigationBarModel/NavigationBarWorld.swift`. Code in
        backticks or doc strings is read by a small recogniser: SwiftUI toolbar modifiers
        (`.toolbarBackground`, `.toolbarColorScheme`, `.navigationBarTitleDisplayMode`) and UIKit
        statements (`let a = UINavigationBarAppearance()`, `a.configureWith…Background()`,
        `a.backgroundColor/shadowColor/titleTextAttributes/largeTitleTextAttributes = …`,
        `X.standardAppearance/compactAppearance/scrollEdgeAppearance/compactScrollEdgeAppearance = …`
        on a bar, an item or `UINavigationBar.appearance()`, `X.titleTextAttributes = […]`,
        `guard let bar = … else { return }`). Anything else makes the step undefined with a message
        naming what the model understands, so the check is reported as broken rather than passing
        silently.

        """
        return out
    }
}
