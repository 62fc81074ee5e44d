import Foundation
import Testing
@testable import TroubleshootKB

/// The library's layers do not call into the command line: no file outside
/// Sources/TroubleshootKB/CLI names a type the CLI folder declares (`LintCommand.knownIDs` was
/// one; it is `EntryLocator.knownIDs` now).
@Suite struct LayeringTests {
    static let library = TestSupport.repositoryRoot + "/Sources/TroubleshootKB"

    static func swiftFiles(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(folder + "/" + path) }
        }
        return files.sorted()
    }

    /// Names of the top-level types declared in the CLI folder (nested ones, like
    /// `ShellCompletions.Shell`, are reached through them).
    static var commandLineTypes: Set<String> {
        let declaration = try! NSRegularExpression(pattern: #"^(?:public |internal |fileprivate |private )?(?:final )?(?:struct|enum|class|protocol|actor) ([A-Z][A-Za-z0-9]*)"#,
                                                   options: .anchorsMatchLines)
        var names: Set<String> = []
        for file in swiftFiles(under: library + "/CLI") {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    @Test func theCommandLineDeclaresTypes() {
        // The scan below only means something if it finds the commands.
        #expect(Self.commandLineTypes.isSuperset(of: ["LintCommand", "CheckCommand", "KBCommandLine", "ParsedArguments"]))
    }

    @Test func noLibraryFileNamesACommandLineType() throws {
        let names = Self.commandLineTypes
        let word = try NSRegularExpression(pattern: #"\b[A-Z][A-Za-z0-9]*\b"#)
        for file in Self.swiftFiles(under: Self.library) where !file.contains("/CLI/") && !file.hasSuffix("BuiltInTheme+Files.swift") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let used = Set(word.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) })
            let crossing = used.intersection(names).sorted()
            #expect(crossing.isEmpty, "\(file.dropFirst(Self.library.count + 1)) names \(crossing.joined(separator: ", ")) of the CLI")
        }
    }
}
