import Foundation
import KBCore

/// The colour scheme (light or dark mode).
public enum NBColorScheme: String, Sendable {
    case light, dark
}

/// A colour of the model: fixed sRGB, or dynamic (resolved per colour scheme), or clear.
public struct NBColor: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    let light: (Double, Double, Double)
    let dark: (Double, Double, Double)
    public let alpha: Double

    public static func == (a: NBColor, b: NBColor) -> Bool { a.name == b.name && a.alpha == b.alpha }

    public init(name: String, rgb: (Double, Double, Double), alpha: Double = 1) {
        self.name = name
        light = rgb
        dark = rgb
        self.alpha = alpha
    }

    public init(name: String, light: (Double, Double, Double), dark: (Double, Double, Double)) {
        self.name = name
        self.light = light
        self.dark = dark
        alpha = 1
    }

    public var description: String { name }
    public var isClear: Bool { alpha == 0 }
    public var isDynamic: Bool { light != dark }

    /// The colour for one scheme, as a fixed colour.
    public func resolved(_ scheme: NBColorScheme) -> NBColor {
        guard isDynamic else { return self }
        let rgb = scheme == .light ? light : dark
        let plain = rgb == (0, 0, 0) ? "black" : rgb == (1, 1, 1) ? "white" : nil
        return NBColor(name: plain ?? "\(name) (\(scheme.rawValue))", rgb: rgb, alpha: alpha)
    }

    /// WCAG relative luminance in the given scheme.
    public func luminance(_ scheme: NBColorScheme) -> Double {
        let (r, g, b) = scheme == .light ? light : dark
        return 0.2126 * Self.linear(r) + 0.7152 * Self.linear(g) + 0.0722 * Self.linear(b)
    }

    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    static func gamma(_ l: Double) -> Double { l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055 }

    public static let black = NBColor(name: "black", rgb: (0, 0, 0))
    public static let white = NBColor(name: "white", rgb: (1, 1, 1))
    public static let clear = NBColor(name: "clear", rgb: (0, 0, 0), alpha: 0)
    public static let red = NBColor(name: "red", rgb: (1, 0.231, 0.188))
    public static let systemPurple = NBColor(name: "systemPurple", rgb: (0.686, 0.322, 0.871))
    public static let systemOrange = NBColor(name: "systemOrange", rgb: (1, 0.584, 0))
    public static let label = NBColor(name: "label", light: (0, 0, 0), dark: (1, 1, 1))
    public static let systemBackground = NBColor(name: "systemBackground", light: (1, 1, 1), dark: (0, 0, 0))
    public static let secondarySystemBackground = NBColor(name: "secondarySystemBackground", light: (0.949, 0.949, 0.969), dark: (0.11, 0.11, 0.118))
    public static let separator = NBColor(name: "separator", light: (0.776, 0.776, 0.784), dark: (0.329, 0.329, 0.345))
    /// What the system bar material looks like over ordinary content.
    public static let barMaterial = NBColor(name: "system material", light: (0.976, 0.976, 0.976), dark: (0.114, 0.114, 0.114))

    public static let named: [String: NBColor] = [
        "black": .black, "white": .white, "clear": .clear, "red": .red, "systemRed": .red, "systemPurple": .systemPurple,
        "purple": .systemPurple, "systemOrange": .systemOrange, "orange": .systemOrange, "label": .label,
        "systemBackground": .systemBackground, "secondarySystemBackground": .secondarySystemBackground,
        "separator": .separator,
    ]
}

/// WCAG contrast ratio of two relative luminances.
public func wcagContrast(_ a: Double, _ b: Double) -> Double {
    (max(a, b) + 0.05) / (min(a, b) + 0.05)
}

/// Text attributes: a foreground colour and a font size, each optional.
public struct NBTextAttributes: Sendable, Equatable, CustomStringConvertible {
    public var foregroundColor: NBColor?
    public var fontSize: Double?

    public init(foregroundColor: NBColor? = nil, fontSize: Double? = nil) {
        self.foregroundColor = foregroundColor
        self.fontSize = fontSize
    }

    public var isEmpty: Bool { foregroundColor == nil && fontSize == nil }

    public var description: String {
        var parts: [String] = []
        if let foregroundColor { parts.append(".foregroundColor: \(foregroundColor)") }
        if let fontSize { parts.append(".font: \(fontSize == fontSize.rounded() ? String(Int(fontSize)) : String(fontSize)) pt") }
        return parts.isEmpty ? "[:]" : "[" + parts.joined(separator: ", ") + "]"
    }
}

/// A `UINavigationBarAppearance`: background, shadow, title attributes. A value: assigning it to
/// a bar copies it, like UIKit does.
public struct NBAppearance: Sendable, Equatable, CustomStringConvertible {
    public enum Background: Sendable, Equatable, CustomStringConvertible {
        case transparent
        case material
        case color(NBColor)

        public var description: String {
            switch self {
            case .transparent: return "transparent"
            case .material: return "system material"
            case .color(let color): return color.name
            }
        }
    }

    public var background: Background
    public var shadowColor: NBColor?
    public var titleTextAttributes = NBTextAttributes()
    public var largeTitleTextAttributes = NBTextAttributes()

    /// A new `UINavigationBarAppearance()`: the default background.
    public init(background: Background = .material, shadowColor: NBColor? = .separator) {
        self.background = background
        self.shadowColor = shadowColor
    }

    public var backgroundIsVisible: Bool {
        if case .color(let color) = background { return !color.isClear }
        return background != .transparent
    }

    public var description: String {
        var text = "background \(background), shadow \(shadowColor?.name ?? "nil")"
        if !largeTitleTextAttributes.isEmpty { text += ", largeTitleTextAttributes \(largeTitleTextAttributes)" }
        if !titleTextAttributes.isEmpty { text += ", titleTextAttributes \(titleTextAttributes)" }
        return text
    }
}

/// Which of the four appearances of a bar or item.
public enum NBAppearanceSlot: String, Sendable, CaseIterable {
    case standard = "standardAppearance"
    case compact = "compactAppearance"
    case scrollEdge = "scrollEdgeAppearance"
    case compactScrollEdge = "compactScrollEdgeAppearance"

    public var shortName: String { String(rawValue.dropLast("Appearance".count)) }

    public init?(name: String) {
        let trimmed = name.hasSuffix("Appearance") ? name : name + "Appearance"
        guard let slot = NBAppearanceSlot(rawValue: trimmed) else { return nil }
        self = slot
    }
}

/// A background image under the screen: its relative luminance and a black dim overlay.
public struct NBImage: Sendable, Equatable {
    public var luminance: Double
    public var dimOpacity: Double = 0

    /// The luminance seen through the overlay (black composited over the image in sRGB).
    public var visibleLuminance: Double {
        let gray = NBColor.gamma(luminance) * (1 - dimOpacity)
        return NBColor.linear(gray)
    }
}

/// Everything a model object needs from its surroundings: the rule table, the trace, the OS,
/// the colour scheme and the main queue.
public final class NBContext {
    public let rules: NavigationBarRules
    public let trace = RuleTrace()
    public var os: Int
    public var colorScheme: NBColorScheme = .light
    public let mainQueue = NBMainQueue()
    /// Whether a SwiftUI update pass is running.
    public var inUpdatePass = false

    public init(rules: NavigationBarRules = .standard, os: Int = 17) {
        self.rules = rules
        self.os = os
    }

    /// Whether rule `id` is in force; records `note` in the trace when it is.
    @discardableResult
    public func applies(_ id: String, _ note: @autoclosure () -> String) -> Bool {
        guard rules.isInForce(id, os: os) else { return false }
        trace.record(id, note())
        return true
    }

    /// Records that a rule decided something without a branch.
    public func note(_ id: String, _ note: @autoclosure () -> String) {
        if rules.isInForce(id, os: os) { trace.record(id, note()) }
    }
}

/// The main queue: work enqueued while a SwiftUI pass runs waits until the pass has ended.
public final class NBMainQueue {
    private var pending: [() -> Void] = []

    public func async(_ context: NBContext, _ work: @escaping () -> Void) {
        if context.inUpdatePass {
            if context.applies("NB-10", "work put on the main queue during the update pass waits until the pass has ended") {
                pending.append(work)
                return
            }
        }
        if context.inUpdatePass { work(); return }
        pending.append(work)
    }

    /// Runs everything enqueued, including work enqueued by that work.
    public func drain() {
        var rounds = 0
        while !pending.isEmpty, rounds < 100 {
            let batch = pending
            pending = []
            for work in batch { work() }
            rounds += 1
        }
    }
}
