import Foundation
import KBCore

/// How one step ended.
public enum StepStatus: String, Sendable, Codable, CaseIterable {
    case passed, failed, undefined, ambiguous, skipped, pending
}

/// How one scenario (pickle) ended: its steps, the status of the first step that did not pass
/// (or `passed`), and that step's message.
public struct ScenarioResult: Sendable {
    public let pickle: Pickle
    public var status: StepStatus
    public var message: String?
    public var steps: [StepReport]
    public var rules: [String]
    /// The model's decisions, one line each (model worlds only).
    public var trace: [String] = []

    public var tags: [String] { pickle.tags.map(\.name) }
    /// Whether a step is undefined or ambiguous anywhere in the scenario.
    public var hasDefinitionProblem: Bool { steps.contains { $0.status == .undefined || $0.status == .ambiguous } }
}

/// Runs pickles step by step against a fresh world.
public enum ScenarioRunner {
    /// What the pickle does not carry about a step: its keyword and line in the feature file.
    public struct StepInfo: Sendable {
        public let keyword: String
        public let line: Int
        public let column: Int
    }

    /// Keywords and lines of every step in a document, by step id.
    public static func stepInfo(_ document: GherkinDocument) -> [String: StepInfo] {
        var info: [String: StepInfo] = [:]
        func add(_ steps: [Gherkin.Step]) {
            for step in steps { info[step.id] = StepInfo(keyword: step.keyword, line: step.location.line, column: step.location.column) }
        }
        func scenario(_ s: Gherkin.Scenario) { add(s.steps) }
        for child in document.feature?.children ?? [] {
            switch child {
            case .background(let b): add(b.steps)
            case .scenario(let s): scenario(s)
            case .rule(let rule):
                for child in rule.children {
                    switch child {
                    case .background(let b): add(b.steps)
                    case .scenario(let s): scenario(s)
                    }
                }
            }
        }
        return info
    }

    /// Runs `pickle` in a fresh `W`. Steps after a failure are skipped (but still looked up, so
    /// every undefined step is reported at once). A missing requirement skips all steps.
    public static func run<W: World>(_ pickle: Pickle, in world: W.Type, stepInfo: [String: StepInfo] = [:],
                                     settings: WorldSettings) -> ScenarioResult {
        let tags = pickle.tags.map(\.name)
        func report(_ step: Pickle.Step, _ status: StepStatus, _ message: String?) -> StepReport {
            let info = step.astNodeIds.first.flatMap { stepInfo[$0] }
            return StepReport(keyword: info?.keyword.trimmingCharacters(in: .whitespaces), text: step.text, status: status,
                              message: message, line: info?.line)
        }
        if let reason = W.missingRequirement(tags: tags, settings: settings) {
            return ScenarioResult(pickle: pickle, status: .skipped, message: reason,
                                  steps: pickle.steps.map { report($0, .skipped, reason) }, rules: [])
        }
        let instance: W
        do {
            instance = try W(settings: settings)
        } catch {
            return ScenarioResult(pickle: pickle, status: .failed, message: "the \(W.worldName) world could not be set up: \(error)",
                                  steps: pickle.steps.map { report($0, .skipped, nil) }, rules: [])
        }
        defer { instance.tearDown() }
        var steps: [StepReport] = []
        var stopped: (StepStatus, String?)? = nil
        for step in pickle.steps {
            let match = W.library.match(step.text)
            switch match {
            case .undefined(let snippet):
                steps.append(report(step, .undefined, "no step definition matches; a definition to start from:\n" + snippet))
                if stopped == nil { stopped = (.undefined, "undefined step: \(step.text)") }
                continue
            case .ambiguous(let phrases):
                steps.append(report(step, .ambiguous, "several step definitions match: " + phrases.joined(separator: ", ")))
                if stopped == nil { stopped = (.ambiguous, "ambiguous step: \(step.text)") }
                continue
            case .invalidArgument(let message):
                steps.append(report(step, stopped == nil ? .failed : .skipped, stopped == nil ? message : nil))
                if stopped == nil { stopped = (.failed, message) }
                continue
            case .matched(let definition, let values):
                guard stopped == nil else {
                    steps.append(report(step, .skipped, "not run: an earlier step did not pass"))
                    continue
                }
                let arguments = StepArguments(values: values, docString: step.docString?.content, dataTable: step.dataTable?.rows,
                                              text: step.text)
                do {
                    try definition.handler(instance, arguments)
                    steps.append(report(step, .passed, nil))
                } catch let failure as StepFailure {
                    steps.append(report(step, .failed, failure.message))
                    stopped = (.failed, failure.message)
                } catch let pending as StepPending {
                    steps.append(report(step, .pending, pending.message))
                    stopped = (.pending, pending.message)
                } catch let undefined as StepUndefined {
                    steps.append(report(step, .undefined, undefined.message))
                    stopped = (.undefined, undefined.message)
                } catch {
                    steps.append(report(step, .failed, "\(error)"))
                    stopped = (.failed, "\(error)")
                }
            }
        }
        return ScenarioResult(pickle: pickle, status: stopped?.0 ?? .passed, message: stopped?.1, steps: steps,
                              rules: instance.exercisedRules, trace: instance.ruleTrace)
    }
}
