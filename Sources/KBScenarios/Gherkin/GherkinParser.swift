import KBCore
/// Parses Gherkin feature files into a `GherkinDocument`.
///
/// A line-based scanner feeds a state machine that follows cucumber/gherkin's
/// grammar (`Feature` › `Background` › scenarios › `Rule`s, outlines with
/// `Examples`, steps with a data table and/or doc string). On a line the
/// grammar does not allow, the parser records an error in cucumber's format
/// and carries on with the next line, so one parse reports every error (up to
/// 11); `parse` then throws them all as `GherkinParseErrors`.
///
/// As an extension to cucumber, a full-width colon `：` after a title keyword
/// (`功能：`, `场景：`) is accepted like `:`.
public struct GherkinParser: Sendable {
    public var dialects: GherkinDialects

    public init(dialects: GherkinDialects = .builtIn) {
        self.dialects = dialects
    }

    /// Parses `source`; `uri` names the file in errors and in the document.
    /// Throws `GherkinParseErrors` listing every syntax error found.
    public func parse(source: String, uri: String) throws -> GherkinDocument {
        var run = GherkinParserRun(source: source, dialects: dialects)
        run.parse()
        if !run.errors.isEmpty {
            throw GherkinParseErrors(run.errors.map { error in
                var error = error
                error.uri = uri
                return error
            })
        }
        return GherkinDocument(
            uri: uri, feature: run.builder.feature, comments: run.builder.comments, idCount: run.builder.nextID
        )
    }
}

/// One pass of the state machine over a source.
struct GherkinParserRun {
    enum StepOwner: Equatable { case background, scenario }

    /// Which arguments a step has had so far: at most one data table and one
    /// doc string, in either order.
    enum StepArguments: Equatable { case none, table, docString, docStringThenTable, tableThenDocString }

    enum State: Equatable {
        case start, afterLanguage, featureTags
        /// After a `Feature:` or `Rule:` line, in its description.
        case header
        case ruleTags
        case backgroundHeader
        case scenarioTags
        case scenarioHeader
        case step(StepOwner, StepArguments)
        case docString(StepOwner, afterTable: Bool)
        case examplesTags
        case examplesHeader
        case examplesTable
        case finished
    }

    enum Lookahead { case scenario, examples }

    enum Action {
        case skip, comment, blank, description, end, language
        case tag, featureTags, featureLine, ruleTags, ruleLine, backgroundLine
        case scenarioTags, scenarioLine, examplesTags, examplesLine, examplesRow
        case stepLine, tableRow, docStringOpen, docStringLine, docStringClose
    }

    struct Alternative {
        var type: GherkinTokenType
        var lookahead: Lookahead?
        var action: Action
        var next: State
    }

    /// Errors stop being collected after this many, as in cucumber.
    static let maxErrors = 10

    let scanner: GherkinTokenScanner
    var matcher: GherkinTokenMatcher
    var builder = GherkinASTBuilder()
    var errors: [GherkinError] = []
    var state = State.start

    init(source: String, dialects: GherkinDialects) {
        scanner = GherkinTokenScanner(source: source)
        matcher = GherkinTokenMatcher(dialects: dialects)
    }

    mutating func parse() {
        var lineNumber = 1
        while true {
            let token = scanner.token(at: lineNumber)
            if !step(token) || token.isEOF { return }
            lineNumber += 1
        }
    }

    /// Feeds one token; false when too many errors were found to go on.
    private mutating func step(_ token: GherkinToken) -> Bool {
        let alternatives = Self.alternatives(state)
        for alternative in alternatives {
            let matched: GherkinMatch?
            do {
                matched = try matcher.match(alternative.type, token)
            } catch {
                guard addError(error) else { return false }
                continue
            }
            guard let match = matched else { continue }
            if let lookahead = alternative.lookahead {
                guard let found = self.lookahead(lookahead, after: token) else { return false }
                if !found { continue }
            }
            perform(alternative.action, match)
            state = alternative.next
            for error in builder.errors {
                guard addError(error) else { return false }
            }
            builder.errors = []
            return true
        }

        var expected: [String] = []
        for alternative in alternatives where !expected.contains(alternative.type.rawValue) {
            expected.append(alternative.type.rawValue)
        }
        let list = expected.joined(separator: ", ")
        if let line = token.line {
            return addError(GherkinError(
                line: token.lineNumber, column: line.indent + 1, reason: "expected: \(list), got '\(line.trimmedText)'"
            ))
        }
        return addError(GherkinError(line: token.lineNumber, column: 0, reason: "unexpected end of file, expected: \(list)"))
    }

    /// Records an error unless the same message is already there; false once
    /// there are more than `maxErrors`.
    private mutating func addError(_ error: GherkinError) -> Bool {
        if !errors.contains(where: { $0.message == error.message }) {
            errors.append(error)
        }
        return errors.count <= Self.maxErrors
    }

    /// Whether the lines after a tag line, skipping tags, comments and blank
    /// lines, reach a scenario (or examples) line. Nil when that look found too many errors.
    private mutating func lookahead(_ target: Lookahead, after token: GherkinToken) -> Bool? {
        var look = matcher
        var lineNumber = token.lineNumber + 1
        let wanted: GherkinTokenType = target == .scenario ? .scenarioLine : .examplesLine
        while true {
            let next = scanner.token(at: lineNumber)
            var skippable = false
            for type in [wanted, .empty, .comment, .tagLine] {
                do {
                    if try look.match(type, next) != nil {
                        if type == wanted { return true }
                        skippable = true
                        break
                    }
                } catch {
                    guard addError(error) else { return nil }
                }
            }
            if !skippable { return false }
            lineNumber += 1
        }
    }

    private mutating func perform(_ action: Action, _ m: GherkinMatch) {
        switch action {
        case .skip, .language: break
        case .comment: builder.comment(m)
        case .blank: builder.descriptionBlank()
        case .description: builder.descriptionLine(m)
        case .end: builder.end()
        case .tag, .featureTags: builder.tag(m)
        case .featureLine: builder.featureHeaderLine(m)
        case .ruleTags: builder.ruleTags(m)
        case .ruleLine: builder.ruleLine(m)
        case .backgroundLine: builder.backgroundLine(m)
        case .scenarioTags: builder.scenarioTags(m)
        case .scenarioLine: builder.scenarioLine(m)
        case .examplesTags: builder.examplesTags(m)
        case .examplesLine: builder.examplesLine(m)
        case .examplesRow: builder.examplesRow(m)
        case .stepLine: builder.stepLine(m)
        case .tableRow: builder.tableRow(m)
        case .docStringOpen: builder.docStringOpen(m)
        case .docStringLine: builder.docStringLine(m)
        case .docStringClose: builder.docStringClose(m)
        }
    }

    // MARK: Grammar

    private static func alt(_ type: GherkinTokenType, _ action: Action, _ next: State, _ lookahead: Lookahead? = nil) -> Alternative {
        Alternative(type: type, lookahead: lookahead, action: action, next: next)
    }

    /// A tag line starts a scenario's tags when a scenario line follows,
    /// otherwise a rule's tags.
    private static let scenarioOrRuleTags: [Alternative] = [
        alt(.tagLine, .scenarioTags, .scenarioTags, .scenario),
        alt(.tagLine, .ruleTags, .ruleTags),
    ]

    /// Lines that end a background or scenario and start the next element.
    private static func following(examples: Bool) -> [Alternative] {
        (examples ? [alt(.tagLine, .examplesTags, .examplesTags, .examples)] : [])
            + scenarioOrRuleTags
            + (examples ? [alt(.examplesLine, .examplesLine, .examplesHeader)] : [])
            + [alt(.scenarioLine, .scenarioLine, .scenarioHeader), alt(.ruleLine, .ruleLine, .header)]
    }

    /// The lines allowed in a state, in the order cucumber tries them (which is
    /// also the order its error messages list them).
    static func alternatives(_ state: State) -> [Alternative] {
        let ignored = [alt(.comment, .comment, state), alt(.empty, .skip, state)]
        let eof = alt(.eof, .end, .finished)
        let descriptive = [eof, alt(.empty, .blank, state), alt(.comment, .comment, state)]
        let other = alt(.other, .description, state)
        switch state {
        case .start:
            return [eof, alt(.language, .language, .afterLanguage), alt(.tagLine, .featureTags, .featureTags),
                    alt(.featureLine, .featureLine, .header)] + ignored
        case .afterLanguage, .featureTags:
            return [alt(.tagLine, .featureTags, .featureTags), alt(.featureLine, .featureLine, .header)] + ignored
        case .header:
            return descriptive + [alt(.backgroundLine, .backgroundLine, .backgroundHeader)]
                + following(examples: false) + [other]
        case .ruleTags:
            return [alt(.tagLine, .tag, .ruleTags), alt(.ruleLine, .ruleLine, .header)] + ignored
        case .backgroundHeader:
            return descriptive + [alt(.stepLine, .stepLine, .step(.background, .none))]
                + following(examples: false) + [other]
        case .scenarioTags:
            return [alt(.tagLine, .tag, .scenarioTags), alt(.scenarioLine, .scenarioLine, .scenarioHeader)] + ignored
        case .scenarioHeader:
            return descriptive + [alt(.stepLine, .stepLine, .step(.scenario, .none))]
                + following(examples: true) + [other]
        case let .step(owner, arguments):
            var args: [Alternative] = []
            switch arguments {
            case .none:
                args = [alt(.tableRow, .tableRow, .step(owner, .table)),
                        alt(.docStringSeparator, .docStringOpen, .docString(owner, afterTable: false))]
            case .table:
                args = [alt(.tableRow, .tableRow, state),
                        alt(.docStringSeparator, .docStringOpen, .docString(owner, afterTable: true))]
            case .docString:
                args = [alt(.tableRow, .tableRow, .step(owner, .docStringThenTable))]
            case .docStringThenTable:
                args = [alt(.tableRow, .tableRow, state)]
            case .tableThenDocString:
                args = []
            }
            return [eof] + args + [alt(.stepLine, .stepLine, .step(owner, .none))]
                + following(examples: owner == .scenario) + ignored
        case let .docString(owner, afterTable):
            return [alt(.docStringSeparator, .docStringClose, .step(owner, afterTable ? .tableThenDocString : .docString)),
                    alt(.other, .docStringLine, state)]
        case .examplesTags:
            return [alt(.tagLine, .tag, .examplesTags), alt(.examplesLine, .examplesLine, .examplesHeader)] + ignored
        case .examplesHeader:
            return descriptive + [alt(.tableRow, .examplesRow, .examplesTable)] + following(examples: true) + [other]
        case .examplesTable:
            return [eof, alt(.tableRow, .examplesRow, .examplesTable)] + following(examples: true) + ignored
        case .finished:
            return []
        }
    }
}
