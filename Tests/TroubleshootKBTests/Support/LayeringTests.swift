import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The library's layers are SwiftPM targets (Package.swift), so the compiler already rejects a
/// wrong-way dependency. These tests keep the two descriptions of the layers in step: every file
/// of a layer imports only the layers below it (ARCHITECTURE.md), and Package.swift declares
/// exactly those dependencies, so a new upward edge needs a deliberate change to both.
@Suite struct LayeringTests {
    /// Each layer and the layers it may import.
    static let allowed: [(layer: String, below: Set<String>)] = [
        ("KBCore", []),
        ("KBSearch", ["KBCore"]),
        ("KBScenarios", ["KBCore"]),
        ("KBSite", ["KBCore", "KBSearch", "KBScenarios"]),
        ("KBCommands", ["KBCore", "KBSearch", "KBScenarios", "KBSite"]),
    ]

    static func swiftFiles(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(folder + "/" + path) }
        }
        return files.sorted()
    }

    static func importedLayers(in text: String) -> Set<String> {
        var layers: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            // `import X`, `@testable import X`, `@_exported import X`
            if let at = words.firstIndex(of: "import"), at + 1 < words.count, words[at + 1].hasPrefix("KB") {
                layers.insert(String(words[at + 1]))
            }
        }
        return layers
    }

    @Test(arguments: allowed.map(\.layer))
    func aLayerImportsOnlyTheLayersBelowIt(layer: String) throws {
        let below = Self.allowed.first { $0.layer == layer }!.below
        let files = Self.swiftFiles(under: TestSupport.repositoryRoot + "/Sources/" + layer)
        #expect(!files.isEmpty, "no sources in Sources/\(layer)")
        for file in files {
            let imported = Self.importedLayers(in: try String(contentsOfFile: file, encoding: .utf8))
            let upward = imported.subtracting(below).sorted()
            #expect(upward.isEmpty, "\(file.dropFirst(TestSupport.repositoryRoot.count + 1)) imports \(upward.joined(separator: ", "))")
        }
    }

    /// Package.swift's target dependencies among the layers are the table above.
    @Test(arguments: allowed.map(\.layer))
    func thePackageDeclaresTheSameLayers(layer: String) throws {
        let manifest = try String(contentsOfFile: TestSupport.repositoryRoot + "/Package.swift", encoding: .utf8)
        let declaration = try #require(manifest.range(of: "name: \"\(layer)\""), "Package.swift declares no target \(layer)")
        let rest = manifest[declaration.upperBound...]
        let end = rest.range(of: ")")?.lowerBound ?? rest.endIndex
        let dependencies = Set(rest[..<end].split(whereSeparator: { !$0.isLetter }).map(String.init).filter { $0.hasPrefix("KB") })
        #expect(dependencies == Self.allowed.first { $0.layer == layer }!.below)
    }

    /// The test above must be able to fail: an upward import is found.
    @Test func anUpwardImportIsSeen() {
        #expect(Self.importedLayers(in: "import Foundation\n@testable import KBSite\nimport KBCore\n") == ["KBSite", "KBCore"])
    }
}
