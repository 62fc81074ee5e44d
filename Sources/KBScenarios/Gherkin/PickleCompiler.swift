import Foundation
import KBCore

/// Compiles a `GherkinDocument` into pickles, as cucumber does: outlines are
/// expanded once per examples row with `<placeholder>`s replaced in the name,
/// step text, table cells and doc strings; feature and rule background steps
/// are put in front of each scenario that has steps; tags are inherited
/// feature → rule → scenario → examples.
public struct PickleCompiler: Sendable {
    public init() {}

    public func compile(_ document: GherkinDocument) -> [Pickle] {
        var run = Run(uri: document.uri, nextID: document.idCount)
        guard let feature = document.feature else { return [] }
        run.language = feature.language
        var backgroundSteps: [Gherkin.Step] = []
        for child in feature.children {
            switch child {
            case let .background(background):
                backgroundSteps = background.steps
            case let .scenario(scenario):
                run.compile(scenario, inheritedTags: feature.tags, backgroundSteps: backgroundSteps)
            case let .rule(rule):
                var ruleBackgroundSteps = backgroundSteps
                let tags = feature.tags + rule.tags
                for ruleChild in rule.children {
                    switch ruleChild {
                    case let .background(background):
                        ruleBackgroundSteps += background.steps
                    case let .scenario(scenario):
                        run.compile(scenario, inheritedTags: tags, backgroundSteps: ruleBackgroundSteps)
                    }
                }
            }
        }
        return run.pickles
    }

    private struct Run {
        let uri: String
        var nextID: Int
        var language = ""
        var pickles: [Pickle] = []

        init(uri: String, nextID: Int) {
            self.uri = uri
            self.nextID = nextID
        }

        mutating func newID() -> String {
            defer { nextID += 1 }
            return String(nextID)
        }

        mutating func compile(_ scenario: Gherkin.Scenario, inheritedTags: [Gherkin.Tag], backgroundSteps: [Gherkin.Step]) {
            guard scenario.isOutline else {
                var steps = StepTyper()
                var pickleSteps: [Pickle.Step] = []
                if !scenario.steps.isEmpty {
                    for step in backgroundSteps {
                        pickleSteps.append(pickleStep(step, type: steps.type(of: step), header: [], row: nil))
                    }
                }
                for step in scenario.steps {
                    pickleSteps.append(pickleStep(step, type: steps.type(of: step), header: [], row: nil))
                }
                pickles.append(Pickle(
                    id: newID(), uri: uri, name: scenario.name, language: language, location: scenario.location,
                    astNodeIds: [scenario.id], tags: pickleTags(inheritedTags + scenario.tags), steps: pickleSteps
                ))
                return
            }
            for examples in scenario.examples {
                guard let header = examples.tableHeader else { continue }
                let names = header.cells.map(\.value)
                for row in examples.tableBody {
                    var steps = StepTyper()
                    var pickleSteps: [Pickle.Step] = []
                    if !scenario.steps.isEmpty {
                        for step in backgroundSteps {
                            pickleSteps.append(pickleStep(step, type: steps.type(of: step), header: [], row: nil))
                        }
                    }
                    for step in scenario.steps {
                        pickleSteps.append(pickleStep(step, type: steps.type(of: step), header: names, row: row))
                    }
                    let values = row.cells.map(\.value)
                    pickles.append(Pickle(
                        id: newID(), uri: uri, name: interpolate(scenario.name, names, values), language: language,
                        location: row.location, astNodeIds: [scenario.id, row.id],
                        tags: pickleTags(inheritedTags + scenario.tags + examples.tags), steps: pickleSteps
                    ))
                }
            }
        }

        private mutating func pickleStep(
            _ step: Gherkin.Step, type: Pickle.StepType, header: [String], row: Gherkin.TableRow?
        ) -> Pickle.Step {
            let values = row?.cells.map(\.value) ?? []
            var table: Pickle.Table?
            var docString: Pickle.DocString?
            if let dataTable = step.dataTable {
                table = Pickle.Table(rows: dataTable.rows.map { row in
                    row.cells.map { interpolate($0.value, header, values) }
                })
            }
            if let doc = step.docString {
                docString = Pickle.DocString(
                    content: interpolate(doc.content, header, values),
                    mediaType: doc.mediaType.map { interpolate($0, header, values) }
                )
            }
            if let dataTable = step.dataTable, let doc = step.docString {
                let tableFirst = dataTable.location < doc.location
                table?.argumentIndex = tableFirst ? 1 : 2
                docString?.argumentIndex = tableFirst ? 2 : 1
            }
            return Pickle.Step(
                id: newID(), text: interpolate(step.text, header, values), type: type,
                dataTable: table, docString: docString, astNodeIds: [step.id] + (row.map { [$0.id] } ?? [])
            )
        }

        private func pickleTags(_ tags: [Gherkin.Tag]) -> [Pickle.Tag] {
            tags.map { Pickle.Tag(name: $0.name, astNodeId: $0.id) }
        }

        /// Replaces each `<name>` of the header with the row's value, header cell by header cell.
        private func interpolate(_ text: String, _ names: [String], _ values: [String]) -> String {
            var result = text
            for (index, name) in names.enumerated() where index < values.count {
                result = result.replacingOccurrences(of: "<\(name)>", with: values[index], options: .literal)
            }
            return result
        }
    }

    /// Gives conjunction steps (`And`, `But`) the type of the step before them.
    private struct StepTyper {
        var last = Pickle.StepType.unknown

        mutating func type(of step: Gherkin.Step) -> Pickle.StepType {
            switch step.keywordType {
            case .context: last = .context
            case .action: last = .action
            case .outcome: last = .outcome
            case .unknown: last = .unknown
            case .conjunction: break
            }
            return last
        }
    }
}
