import Foundation
import KBCore

/// Settings every world receives: where the `kb` under test is, limits for what it runs.
public struct WorldSettings: Sendable {
    /// The `kb` binary steps run when a command starts with `kb`.
    public var kbBinary: String?
    /// How long one command may run before its whole process group is killed.
    public var timeout: TimeInterval
    /// Bytes kept per output stream of a command; the rest is discarded (and noted).
    public var outputLimit: Int
    /// The environment of the checker itself. Worlds take from it only what their sandbox
    /// rules allow (the shell world: nothing but toolchain folders of PATH).
    public var hostEnvironment: [String: String]
    /// The folder of the entry being checked.
    public var entryDirectory: String?
    /// Ids of model rules switched off (tests use this to see which records depend on a rule).
    public var disabledModelRules: Set<String> = []

    public init(kbBinary: String? = nil, timeout: TimeInterval = 60, outputLimit: Int = 1 << 20,
                hostEnvironment: [String: String] = [:], entryDirectory: String? = nil) {
        self.kbBinary = kbBinary
        self.timeout = timeout
        self.outputLimit = outputLimit
        self.hostEnvironment = hostEnvironment
        self.entryDirectory = entryDirectory
    }
}

/// The state a scenario's steps act on, with the library of steps that drive it. A fresh
/// world is made for every scenario and torn down after it, so scenarios never share state.
///
/// The shell world (`ShellWorld`) runs real programs; model worlds (the navigation-bar model)
/// plug in with their own step library and report the model rules a scenario exercised.
/// A feature picks its world with a `@world:<name>` tag; the default is `shell`.
public protocol World: AnyObject {
    /// The name used in `@world:<name>` tags.
    static var worldName: String { get }
    /// The steps this world understands.
    static var library: StepLibrary<Self> { get }
    /// Why a scenario with these tags cannot run here (a required program is missing), or nil.
    static func missingRequirement(tags: [String], settings: WorldSettings) -> String?
    init(settings: WorldSettings) throws
    /// Ids of model rules the scenario exercised; empty for worlds without a model.
    var exercisedRules: [String] { get }
    /// What the model decided, one line per rule consultation (`NB-4: …`); empty without a model.
    var ruleTrace: [String] { get }
    /// Called after the last step, whatever happened.
    func tearDown()
}

extension World {
    public static func missingRequirement(tags: [String], settings: WorldSettings) -> String? { nil }
    public var exercisedRules: [String] { [] }
    public var ruleTrace: [String] { [] }
    public func tearDown() {}
}

/// A world type with its type erased, so the checker can choose a world by name.
public struct WorldType: Sendable {
    public let name: String
    let runner: @Sendable (Pickle, [String: ScenarioRunner.StepInfo], WorldSettings) -> ScenarioResult
    let matcher: @Sendable (String) -> StepMatchSummary

    public static func of<W: World>(_ type: W.Type) -> WorldType {
        WorldType(name: W.worldName,
                  runner: { pickle, info, settings in ScenarioRunner.run(pickle, in: W.self, stepInfo: info, settings: settings) },
                  matcher: { text in StepMatchSummary(W.library.match(text)) })
    }

    /// Runs one pickle in a fresh world of this type.
    public func run(_ pickle: Pickle, stepInfo: [String: ScenarioRunner.StepInfo] = [:], settings: WorldSettings) -> ScenarioResult {
        runner(pickle, stepInfo, settings)
    }

    /// How a step text matches this world's library (for lint and `--explain`).
    public func match(_ text: String) -> StepMatchSummary { matcher(text) }
}

/// A step lookup without the definition: matched, undefined, ambiguous.
public enum StepMatchSummary: Sendable, Equatable {
    case matched
    case undefined(snippet: String)
    case ambiguous([String])
    case invalidArgument(String)

    init<W: World>(_ match: StepMatch<W>) {
        switch match {
        case .matched: self = .matched
        case .undefined(let snippet): self = .undefined(snippet: snippet)
        case .ambiguous(let phrases): self = .ambiguous(phrases)
        case .invalidArgument(let message): self = .invalidArgument(message)
        }
    }
}

/// The worlds scenarios may choose with `@world:<name>`. Register new worlds here.
public enum ScenarioWorlds {
    nonisolated(unsafe) public static var all: [WorldType] = [.of(ShellWorld.self), .of(NavigationBarWorld.self)]
    public static let defaultName = "shell"

    public static func named(_ name: String) -> WorldType? { all.first { $0.name == name } }

    /// The world a pickle asks for with `@world:<name>` (the last such tag wins), or the default.
    public static func name(for tags: [String]) -> String {
        tags.last { $0.hasPrefix("@world:") }.map { String($0.dropFirst("@world:".count)) } ?? defaultName
    }
}
