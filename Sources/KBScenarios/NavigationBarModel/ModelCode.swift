import Foundation
import KBCore

/// Code the model does not understand: the step is reported as undefined with this message.
public struct NBUnsupportedCode: Error, CustomStringConvertible {
    public let code: String
    public let what: String
    public var description: String {
        "the navigation-bar model does not understand \(what) `\(code)`; it understands \(what == "the modifier" ? NBModifiers.supported : NBCodeRunner.supported)"
    }
}

/// Applies SwiftUI modifiers given as code to a screen's toolbar preferences.
public enum NBModifiers {
    static let supported = "`.toolbarBackground(.hidden|.visible|.automatic, for: .navigationBar)`, `.toolbarBackground(.bar|Color(.systemBackground)|.red, for: .navigationBar)`, `.toolbarColorScheme(.light|.dark, for: .navigationBar)`, `.navigationBarTitleDisplayMode(.large|.inline)`, `.navigationTitle(\"…\")`"

    /// Splits `.a(…).b(…)` (on one line or several) into modifier calls.
    static func calls(_ code: String) -> [String] {
        var calls: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for character in code {
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if character == "(" || character == "{" || character == "[" { depth += 1 }
                if character == ")" || character == "}" || character == "]" { depth -= 1 }
                if character == "." && depth == 0 {
                    let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !trimmed.isEmpty { calls.append(trimmed) }
                    current = ""
                }
            }
            current.append(character)
        }
        let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { calls.append(trimmed) }
        return calls.map { call in
            // Drop a trailing comment.
            if let range = call.range(of: "//") { return call[..<range.lowerBound].trimmingCharacters(in: .whitespaces) }
            return call
        }.filter { !$0.isEmpty }
    }

    public static func apply(_ code: String, to preferences: inout NBToolbarPreferences) throws {
        for call in calls(code) {
            let compact = call.replacingOccurrences(of: " ", with: "")
            func argument(_ prefix: String, _ suffix: String) -> String? {
                guard compact.hasPrefix(prefix), compact.hasSuffix(suffix) else { return nil }
                return String(compact.dropFirst(prefix.count).dropLast(suffix.count))
            }
            if let value = argument(".toolbarBackground(", ",for:.navigationBar)") {
                switch value {
                case ".hidden": preferences.visibility = .hidden
                case ".visible": preferences.visibility = .visible
                case ".automatic": preferences.visibility = .automatic
                case ".bar", "Material.bar", ".regularMaterial": preferences.style = .material
                default:
                    guard let color = NBCodeRunner.color(value) else { throw NBUnsupportedCode(code: call, what: "the modifier") }
                    preferences.style = .color(color)
                }
            } else if let value = argument(".toolbarColorScheme(", ",for:.navigationBar)") {
                switch value {
                case ".light": preferences.colorScheme = .light
                case ".dark": preferences.colorScheme = .dark
                case "nil": preferences.colorScheme = nil
                default: throw NBUnsupportedCode(code: call, what: "the modifier")
                }
            } else if let value = argument(".navigationBarTitleDisplayMode(", ")") {
                guard value == ".large" || value == ".inline" else { throw NBUnsupportedCode(code: call, what: "the modifier") }
                preferences.largeTitle = value == ".large"
            } else if compact.hasPrefix(".navigationTitle(") {
                continue
            } else {
                throw NBUnsupportedCode(code: call, what: "the modifier")
            }
        }
    }
}

/// Runs the UIKit statements scenarios give as code: building a `UINavigationBarAppearance`,
/// assigning it to a bar, an item or the appearance proxy, writing title attributes. What each
/// name (`bar`, `navigationItem`, `controller`, …) refers to is given by the caller.
public final class NBCodeRunner {
    public enum Value {
        case appearance(NBAppearance)
        case attributes(NBTextAttributes)
        case color(NBColor)
        case number(Double)
        case scheme(NBColorScheme)
        case proxy
        case bar(NBNavigationBar)
        case item(NBNavigationItem)
        case controller(NBViewController)
        case text(String)
        case none
    }

    static let supported = "`let a = UINavigationBarAppearance()`, `a.configureWithTransparentBackground()` / `…DefaultBackground()` / `…OpaqueBackground()`, `a.backgroundColor = …`, `a.shadowColor = …`, `a.titleTextAttributes = [.foregroundColor: …, .font: UIFont.systemFont(ofSize: N)]`, `a.largeTitleTextAttributes = …`, `X.standardAppearance` / `compactAppearance` / `scrollEdgeAppearance` / `compactScrollEdgeAppearance = a` or `nil` where X is a bar (`bar`, `navigationBar`, `navigationController?.navigationBar`), a navigation item (`navigationItem?`) or `UINavigationBar.appearance()`, `X.titleTextAttributes = [...]`, `guard let bar = … else { return }`"

    public var variables: [String: Value]
    let context: NBContext
    /// Called when the proxy changed (bars already in a window are told).
    var proxyChanged: () -> Void
    let proxy: NBAppearanceProxy
    /// Called before a bar's appearance slot is written (for save and restore).
    public var willWriteBar: ((NBNavigationBar, NBAppearanceSlot) -> Void)?
    /// Who writes (for the bar's records).
    public var writer = "UIKit"
    /// Optional chains that stopped at nil, as written.
    public private(set) var stoppedChains: [String] = []

    init(context: NBContext, proxy: NBAppearanceProxy, variables: [String: Value], proxyChanged: @escaping () -> Void) {
        self.context = context
        self.proxy = proxy
        self.variables = variables
        self.proxyChanged = proxyChanged
    }

    /// Statements of a code block: comments dropped, one per line or `;`.
    static func statements(_ code: String) -> [String] {
        code.split(separator: "\n").flatMap { line -> [String] in
            var text = String(line)
            if let range = text.range(of: "//") { text = String(text[..<range.lowerBound]) }
            return text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { !$0.isEmpty }
    }

    public func run(_ code: String) throws {
        for statement in Self.statements(code) {
            if try !execute(statement) { return }
        }
    }

    /// Runs one statement; false stops the block (`guard … else { return }` with nil).
    func execute(_ statement: String) throws -> Bool {
        let unsupported = NBUnsupportedCode(code: statement, what: "the statement")
        if statement.hasPrefix("guard let ") || statement.hasPrefix("guard var ") {
            guard let equals = statement.range(of: "="), let elseRange = statement.range(of: " else ", options: .backwards),
                  statement.hasSuffix("{ return }") || statement.hasSuffix("{return}") else { throw unsupported }
            let name = statement[statement.index(statement.startIndex, offsetBy: 10)..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
            let expression = statement[equals.upperBound..<elseRange.lowerBound].trimmingCharacters(in: .whitespaces)
            let value = try evaluate(expression, statement: statement)
            if case .none = value { stoppedChains.append(expression); return false }
            variables[name] = value
            return true
        }
        if statement.hasPrefix("let ") || statement.hasPrefix("var ") {
            guard let equals = statement.range(of: "=") else { throw unsupported }
            let name = statement[statement.index(statement.startIndex, offsetBy: 4)..<equals.lowerBound]
                .split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            variables[name] = try evaluate(statement[equals.upperBound...].trimmingCharacters(in: .whitespaces), statement: statement)
            return true
        }
        if statement.hasSuffix("()"), let dot = statement.range(of: ".", options: .backwards) {
            let target = String(statement[..<dot.lowerBound])
            let method = String(statement[dot.upperBound...].dropLast(2))
            guard case .appearance(var appearance)? = variables[target] else { throw unsupported }
            try configure(&appearance, method, statement: statement)
            variables[target] = .appearance(appearance)
            return true
        }
        if let equals = statement.range(of: " = ") {
            let left = statement[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
            let right = statement[equals.upperBound...].trimmingCharacters(in: .whitespaces)
            guard let dot = left.range(of: ".", options: .backwards) else { throw unsupported }
            var targetPath = String(left[..<dot.lowerBound])
            if targetPath.hasSuffix("?") { targetPath.removeLast() }
            let property = String(left[dot.upperBound...])
            let value = try evaluate(right, statement: statement)
            if case .appearance(var appearance)? = variables[targetPath] {
                try set(&appearance, property, value, statement: statement)
                variables[targetPath] = .appearance(appearance)
                return true
            }
            let target = try evaluate(targetPath, statement: statement)
            try assign(target, property, value, path: targetPath, statement: statement)
            return true
        }
        throw unsupported
    }

    func configure(_ appearance: inout NBAppearance, _ method: String, statement: String) throws {
        let kind: String
        switch method {
        case "configureWithTransparentBackground": kind = "transparent"
        case "configureWithDefaultBackground": kind = "default"
        case "configureWithOpaqueBackground": kind = "opaque"
        default: throw NBUnsupportedCode(code: statement, what: "the statement")
        }
        let note = kind == "transparent" ? "configureWithTransparentBackground(): no background, no shadow"
            : kind == "default" ? "configureWithDefaultBackground(): the system material with a shadow"
            : "configureWithOpaqueBackground(): an opaque systemBackground with a shadow"
        guard context.applies("NB-7", note) else { return }
        switch kind {
        case "transparent": appearance.background = .transparent; appearance.shadowColor = nil
        case "default": appearance.background = .material; appearance.shadowColor = .separator
        default: appearance.background = .color(.systemBackground); appearance.shadowColor = .separator
        }
    }

    func set(_ appearance: inout NBAppearance, _ property: String, _ value: Value, statement: String) throws {
        switch (property, value) {
        case ("backgroundColor", .color(let color)): appearance.background = .color(color)
        case ("backgroundColor", .none): appearance.background = .transparent
        case ("shadowColor", .color(let color)): appearance.shadowColor = color
        case ("shadowColor", .none): appearance.shadowColor = nil
        case ("titleTextAttributes", .attributes(let attributes)): appearance.titleTextAttributes = attributes
        case ("largeTitleTextAttributes", .attributes(let attributes)): appearance.largeTitleTextAttributes = attributes
        default: throw NBUnsupportedCode(code: statement, what: "the statement")
        }
    }

    func assign(_ target: Value, _ property: String, _ value: Value, path: String, statement: String) throws {
        let unsupported = NBUnsupportedCode(code: statement, what: "the statement")
        if case .none = target { stoppedChains.append(path); return }
        if property == "title", case .item(let item) = target, case .text(let title) = value { item.title = title; return }
        if property == "titleTextAttributes" || property == "largeTitleTextAttributes" {
            guard case .attributes(let attributes) = value else { throw unsupported }
            switch target {
            case .bar(let bar):
                guard property == "titleTextAttributes" else { throw unsupported }
                bar.setTitleTextAttributes(attributes, by: writer)
            case .proxy:
                if property == "titleTextAttributes" { proxy.titleTextAttributes = attributes } else { proxy.largeTitleTextAttributes = attributes }
                proxyChanged()
            default: throw unsupported
            }
            return
        }
        guard let slot = NBAppearanceSlot(rawValue: property) else { throw unsupported }
        let appearance: NBAppearance?
        switch value {
        case .appearance(let a): appearance = a
        case .none: appearance = nil
        default: throw unsupported
        }
        switch target {
        case .bar(let bar):
            willWriteBar?(bar, slot)
            bar.setAppearance(slot, appearance, by: writer)
        case .item(let item): item.appearances[slot] = appearance
        case .proxy:
            proxy.appearances[slot] = appearance
            proxyChanged()
        default: throw unsupported
        }
    }

    /// Evaluates an expression: a path (`controller.navigationController?.navigationBar`), a
    /// constructor, a colour, a dictionary of text attributes, a number or a comparison.
    func evaluate(_ expression: String, statement: String) throws -> Value {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let unsupported = NBUnsupportedCode(code: statement, what: "the statement")
        if text == "nil" { return .none }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return .text(String(text.dropFirst().dropLast())) }
        if text == "UINavigationBarAppearance()" { return .appearance(NBAppearance()) }
        if text == "UINavigationBar.appearance()" { return .proxy }
        if let number = Double(text) { return .number(number) }
        if text.hasPrefix("UITraitCollection(userInterfaceStyle:") {
            return .scheme(text.contains(".dark") ? .dark : .light)
        }
        if text.hasPrefix("[") && text.hasSuffix("]") { return .attributes(try attributes(text, statement: statement)) }
        if let question = text.range(of: " ? "), let colon = text.range(of: " : ", range: question.upperBound..<text.endIndex) {
            let condition = text[..<question.lowerBound]
            guard let less = condition.range(of: " < ") else { throw unsupported }
            guard case .number(let a) = try evaluate(String(condition[..<less.lowerBound]), statement: statement),
                  case .number(let b) = try evaluate(String(condition[less.upperBound...]), statement: statement) else { throw unsupported }
            return try evaluate(String(a < b ? text[question.upperBound..<colon.lowerBound] : text[colon.upperBound...]), statement: statement)
        }
        if let resolved = text.range(of: ".resolvedColor(with:") {
            guard let base = Self.color(String(text[..<resolved.lowerBound])) else { throw unsupported }
            var argument = String(text[resolved.upperBound...]).trimmingCharacters(in: .whitespaces)
            if argument.hasSuffix(")") { argument.removeLast() }
            let scheme: NBColorScheme
            if case .scheme(let s)? = variables[argument] { scheme = s }
            else if case .scheme(let s) = try evaluate(argument, statement: statement) { scheme = s }
            else { throw unsupported }
            return .color(base.resolved(scheme))
        }
        if let color = Self.color(text) { return .color(color) }
        // A path of names.
        let parts = text.replacingOccurrences(of: "?.", with: ".").replacingOccurrences(of: "self.", with: "").split(separator: ".").map(String.init)
        guard let first = parts.first, var value = variables[first] else { throw unsupported }
        for member in parts.dropFirst() {
            switch (value, member) {
            case (.none, _): return .none
            case (.controller(let c), "navigationController"): value = c.navigationController.map { .controller($0) } ?? .none
            case (.controller(let c), "navigationItem"): value = .item(c.navigationItem)
            case (.controller(let c as NBNavigationController), "navigationBar"): value = .bar(c.navigationBar)
            case (.bar(let bar), let slotName) where NBAppearanceSlot(rawValue: slotName) != nil:
                value = bar.appearance(NBAppearanceSlot(rawValue: slotName)!).map { .appearance($0) } ?? .none
            default: throw unsupported
            }
        }
        return value
    }

    func attributes(_ text: String, statement: String) throws -> NBTextAttributes {
        var result = NBTextAttributes()
        let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        if inner == ":" { return result }
        var depth = 0
        var pieces: [String] = []
        var current = ""
        for character in inner {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == "," && depth == 0 { pieces.append(current); current = ""; continue }
            current.append(character)
        }
        pieces.append(current)
        for piece in pieces.map({ $0.trimmingCharacters(in: .whitespaces) }) where !piece.isEmpty {
            guard let colon = piece.range(of: ":") else { throw NBUnsupportedCode(code: statement, what: "the statement") }
            let key = piece[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            let value = piece[colon.upperBound...].trimmingCharacters(in: .whitespaces)
            switch key {
            case ".foregroundColor", "NSAttributedString.Key.foregroundColor":
                guard case .color(let color) = try evaluate(value, statement: statement) else { throw NBUnsupportedCode(code: statement, what: "the statement") }
                result.foregroundColor = color
            case ".font", "NSAttributedString.Key.font":
                guard let open = value.range(of: "systemFont(ofSize:"), let size = Double(value[open.upperBound...].dropLast().trimmingCharacters(in: .whitespaces)) else {
                    throw NBUnsupportedCode(code: statement, what: "the statement")
                }
                result.fontSize = size
            default: throw NBUnsupportedCode(code: statement, what: "the statement")
            }
        }
        return result
    }

    /// A colour written as `.red`, `UIColor.systemBackground`, `Color(.systemBackground)`, `.label`.
    public static func color(_ text: String) -> NBColor? {
        var name = text.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("Color(") && name.hasSuffix(")") { name = String(name.dropFirst(6).dropLast()) }
        if name.hasPrefix("UIColor(") && name.hasSuffix(")") { name = String(name.dropFirst(8).dropLast()) }
        for prefix in ["UIColor.", "Color."] where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
        if name.hasPrefix(".") { name.removeFirst() }
        return NBColor.named[name]
    }
}
