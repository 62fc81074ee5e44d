import KBCore
/// Assembles the AST from matched lines as the parser walks the grammar.
///
/// Elements stay open while their lines arrive and are closed when the next
/// element starts, children first; ids are handed out on closing, in the same
/// order cucumber's builder uses (table rows, then steps, then tags, then the
/// element), so ids line up with the reference implementation.
struct GherkinASTBuilder {
    private struct Description {
        private var lines: [String] = []
        private var blanks = 0

        mutating func add(_ line: String) {
            if !lines.isEmpty { lines += Array(repeating: "", count: blanks) }
            blanks = 0
            lines.append(line)
        }

        mutating func addBlank() { if !lines.isEmpty { blanks += 1 } }

        var text: String { lines.joined(separator: "\n") }
    }

    private struct OpenStep {
        var line: GherkinMatch
        var tableRows: [GherkinMatch]?
        var dataTable: Gherkin.DataTable?
        var docOpening: GherkinMatch?
        var docLines: [String] = []
        var docString: Gherkin.DocString?
    }

    private struct OpenBackground {
        var line: GherkinMatch
        var description = Description()
        var steps: [Gherkin.Step] = []
    }

    private struct OpenScenario {
        var tags: [GherkinMatch]
        var line: GherkinMatch?
        var description = Description()
        var steps: [Gherkin.Step] = []
        var examples: [Gherkin.Examples] = []
    }

    private struct OpenExamples {
        var tags: [GherkinMatch]
        var line: GherkinMatch?
        var description = Description()
        var rows: [GherkinMatch] = []
    }

    private struct OpenRule {
        var tags: [GherkinMatch]
        var line: GherkinMatch?
        var description = Description()
        var children: [Gherkin.Rule.Child] = []
    }

    private enum DescriptionTarget { case none, feature, rule, background, scenario, examples }
    private enum TagTarget { case feature, rule, scenario, examples }

    private(set) var nextID = 0
    private(set) var comments: [Gherkin.Comment] = []
    private(set) var feature: Gherkin.Feature?
    /// Errors found while building (inconsistent tables), for the parser to collect.
    var errors: [GherkinError] = []

    private var featureTags: [GherkinMatch] = []
    private var featureLine: GherkinMatch?
    private var featureDescription = Description()
    private var featureChildren: [Gherkin.Feature.Child] = []
    private var rule: OpenRule?
    private var background: OpenBackground?
    private var scenario: OpenScenario?
    private var examples: OpenExamples?
    private var step: OpenStep?
    private var descriptionTarget = DescriptionTarget.none
    private var tagTarget = TagTarget.feature

    private mutating func newID() -> String {
        defer { nextID += 1 }
        return String(nextID)
    }

    // MARK: Lines

    mutating func comment(_ m: GherkinMatch) {
        comments.append(Gherkin.Comment(location: m.location, text: m.text))
    }

    mutating func descriptionLine(_ m: GherkinMatch) {
        switch descriptionTarget {
        case .feature: featureDescription.add(m.text)
        case .rule: rule?.description.add(m.text)
        case .background: background?.description.add(m.text)
        case .scenario: scenario?.description.add(m.text)
        case .examples: examples?.description.add(m.text)
        case .none: break
        }
    }

    mutating func descriptionBlank() {
        switch descriptionTarget {
        case .feature: featureDescription.addBlank()
        case .rule: rule?.description.addBlank()
        case .background: background?.description.addBlank()
        case .scenario: scenario?.description.addBlank()
        case .examples: examples?.description.addBlank()
        case .none: break
        }
    }

    /// Another tag line for the element whose tags are being read.
    mutating func tag(_ m: GherkinMatch) {
        switch tagTarget {
        case .feature: featureTags.append(m)
        case .rule: rule?.tags.append(m)
        case .scenario: scenario?.tags.append(m)
        case .examples: examples?.tags.append(m)
        }
    }

    mutating func featureHeaderLine(_ m: GherkinMatch) {
        featureLine = m
        descriptionTarget = .feature
    }

    mutating func ruleTags(_ m: GherkinMatch) {
        closeRule()
        rule = OpenRule(tags: [m])
        tagTarget = .rule
        descriptionTarget = .none
    }

    mutating func ruleLine(_ m: GherkinMatch) {
        if rule == nil || rule?.line != nil {
            closeRule()
            rule = OpenRule(tags: [])
        }
        rule?.line = m
        descriptionTarget = .rule
    }

    mutating func backgroundLine(_ m: GherkinMatch) {
        closeScenarioLevel()
        background = OpenBackground(line: m)
        descriptionTarget = .background
    }

    mutating func scenarioTags(_ m: GherkinMatch) {
        closeScenarioLevel()
        scenario = OpenScenario(tags: [m])
        tagTarget = .scenario
        descriptionTarget = .none
    }

    mutating func scenarioLine(_ m: GherkinMatch) {
        if scenario == nil || scenario?.line != nil {
            closeScenarioLevel()
            scenario = OpenScenario(tags: [])
        }
        scenario?.line = m
        descriptionTarget = .scenario
    }

    mutating func examplesTags(_ m: GherkinMatch) {
        closeStep()
        closeExamples()
        examples = OpenExamples(tags: [m])
        tagTarget = .examples
        descriptionTarget = .none
    }

    mutating func examplesLine(_ m: GherkinMatch) {
        if examples == nil || examples?.line != nil {
            closeStep()
            closeExamples()
            examples = OpenExamples(tags: [])
        }
        examples?.line = m
        descriptionTarget = .examples
    }

    mutating func examplesRow(_ m: GherkinMatch) {
        examples?.rows.append(m)
        descriptionTarget = .none
    }

    mutating func stepLine(_ m: GherkinMatch) {
        closeStep()
        step = OpenStep(line: m)
        descriptionTarget = .none
    }

    mutating func tableRow(_ m: GherkinMatch) {
        let rows = step?.tableRows ?? []
        step?.tableRows = rows + [m]
    }

    mutating func docStringOpen(_ m: GherkinMatch) {
        closeTable()
        step?.docOpening = m
        step?.docLines = []
    }

    mutating func docStringLine(_ m: GherkinMatch) {
        step?.docLines.append(m.text)
    }

    mutating func docStringClose(_ m: GherkinMatch) {
        guard let opening = step?.docOpening, let lines = step?.docLines else { return }
        step?.docString = Gherkin.DocString(
            location: opening.location,
            content: lines.joined(separator: "\n"),
            mediaType: opening.text.isEmpty ? nil : opening.text,
            delimiter: opening.keyword
        )
        step?.docOpening = nil
    }

    /// End of file: closes everything and builds the feature.
    mutating func end() {
        closeRule()
        let tags = makeTags(featureTags)
        if let line = featureLine {
            feature = Gherkin.Feature(
                location: line.location, tags: tags, language: line.dialect, keyword: line.keyword,
                name: line.text, description: featureDescription.text, children: featureChildren
            )
        }
    }

    // MARK: Closing

    private mutating func makeTags(_ lines: [GherkinMatch]) -> [Gherkin.Tag] {
        var tags: [Gherkin.Tag] = []
        for line in lines {
            for item in line.items {
                tags.append(Gherkin.Tag(
                    id: newID(), location: Gherkin.Location(line: line.lineNumber, column: item.column), name: item.text
                ))
            }
        }
        return tags
    }

    /// Rows with ids, checked to all have the header's width.
    private mutating func makeRows(_ lines: [GherkinMatch]) -> [Gherkin.TableRow] {
        let rows = lines.map { line in
            Gherkin.TableRow(id: newID(), location: line.location, cells: line.items.map {
                Gherkin.TableCell(location: Gherkin.Location(line: line.lineNumber, column: $0.column), value: $0.text)
            })
        }
        if let width = rows.first?.cells.count,
           let bad = rows.first(where: { $0.cells.count != width }) {
            errors.append(GherkinError(
                line: bad.location.line, column: bad.location.column,
                reason: "inconsistent cell count within the table"
            ))
        }
        return rows
    }

    private mutating func closeTable() {
        guard let lines = step?.tableRows else { return }
        let rows = makeRows(lines)
        step?.tableRows = nil
        if let first = rows.first {
            step?.dataTable = Gherkin.DataTable(location: first.location, rows: rows)
        }
    }

    private mutating func closeStep() {
        closeTable()
        guard let open = step else { return }
        step = nil
        let built = Gherkin.Step(
            id: newID(), location: open.line.location, keyword: open.line.keyword,
            keywordType: open.line.keywordType, text: open.line.text,
            dataTable: open.dataTable, docString: open.docString
        )
        if scenario != nil {
            scenario?.steps.append(built)
        } else {
            background?.steps.append(built)
        }
    }

    private mutating func closeExamples() {
        guard let open = examples else { return }
        examples = nil
        let rows = makeRows(open.rows)
        let tags = makeTags(open.tags)
        guard let line = open.line else { return }
        let built = Gherkin.Examples(
            id: newID(), location: line.location, tags: tags, keyword: line.keyword, name: line.text,
            description: open.description.text, tableHeader: rows.first, tableBody: Array(rows.dropFirst())
        )
        scenario?.examples.append(built)
    }

    private mutating func addChild(background built: Gherkin.Background) {
        if rule != nil { rule?.children.append(.background(built)) } else { featureChildren.append(.background(built)) }
    }

    private mutating func addChild(scenario built: Gherkin.Scenario) {
        if rule != nil { rule?.children.append(.scenario(built)) } else { featureChildren.append(.scenario(built)) }
    }

    /// Closes the open background or scenario (with its steps and examples).
    private mutating func closeScenarioLevel() {
        if background != nil {
            closeStep()
            guard let open = background else { return }
            background = nil
            addChild(background: Gherkin.Background(
                id: newID(), location: open.line.location, keyword: open.line.keyword, name: open.line.text,
                description: open.description.text, steps: open.steps
            ))
        }
        if scenario != nil {
            closeStep()
            closeExamples()
            guard let open = scenario else { return }
            scenario = nil
            let tags = makeTags(open.tags)
            guard let line = open.line else { return }
            addChild(scenario: Gherkin.Scenario(
                id: newID(), location: line.location, tags: tags, keyword: line.keyword, name: line.text,
                description: open.description.text, steps: open.steps, examples: open.examples
            ))
        }
    }

    private mutating func closeRule() {
        closeScenarioLevel()
        guard let open = rule else { return }
        rule = nil
        let tags = makeTags(open.tags)
        guard let line = open.line else { return }
        featureChildren.append(.rule(Gherkin.Rule(
            id: newID(), location: line.location, tags: tags, keyword: line.keyword, name: line.text,
            description: open.description.text, children: open.children
        )))
    }
}
