import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

typealias SourceLocation = KBCore.SourceLocation

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The repository root (…/Tests/TroubleshootKBTests/Support/TestSupport.swift → three levels up).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let entriesDirectory = repositoryRoot + "/entries"
    /// The project's shared development data (queries, fact sheets, raw fixtures, conformance
    /// data): `KB_SHARED_DIR`, else `../shared` beside the checkout, else `/work/shared`.
    static let sharedDirectory: String = {
        var candidates = [repositoryRoot + "/../shared", "/work/shared"]
        if let env = ProcessInfo.processInfo.environment["KB_SHARED_DIR"] { candidates.insert(env, at: 0) }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/queries/dev.tsv") } ?? candidates[0]
    }()
    /// Whether the shared development data is there. Tests that need it are disabled without it
    /// (`.enabled(if: TestSupport.hasSharedData, TestSupport.sharedDataMissing)`), and CI, which
    /// sets `KB_REQUIRE_SHARED=1`, fails when it is missing (`SharedDataTests`).
    static let hasSharedData = FileManager.default.fileExists(atPath: sharedDirectory + "/queries/dev.tsv")
    static let sharedDataMissing: Comment = "needs the shared development data (../shared beside the checkout, or KB_SHARED_DIR), which is not present"
    static let goldenDirectory = repositoryRoot + "/Tests/TroubleshootKBTests/Golden"
    static var isRecording: Bool { ProcessInfo.processInfo.environment["KB_RECORD"] == "1" }

    /// Entry ids in `entries/`, sorted.
    static var entryIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: entriesDirectory)) ?? [])
            .filter { FileManager.default.fileExists(atPath: entriesDirectory + "/" + $0 + "/entry.md") }
            .sorted()
    }

    /// The comments (`<!-- … -->` blocks, which are in no record) under the heading of attempt
    /// `index`, up to the next heading of its level or above: where a draft asks its questions.
    static func comments(underAttempt index: Int, of entry: Entry) -> [String] {
        let heading = entry.attempts[index].headingBlock
        guard case .heading(let level) = heading.kind else { return [] }
        var out: [String] = []
        var inside = false
        for block in entry.body.blocks {
            if block.range == heading.range { inside = true; continue }
            guard inside else { continue }
            if case .heading(let other) = block.kind, other <= level { break }
            if block.isHTMLComment { out.append(block.literal) }
        }
        return out
    }

    /// Reads a running process's output from `pipe` until it holds `marker` (or the pipe ends);
    /// what was read.
    static func read(_ pipe: Pipe, until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text
    }

    static func parse(_ text: String, folder: String = "test-entry") -> EntryParser.Result {
        EntryParser().parse(bytes: Array(text.utf8), path: "\(folder)/entry.md", folderName: folder)
    }

    /// A fresh temporary directory; remove it with `defer { TestSupport.remove(dir) }`.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "kb-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static func write(_ text: String, to path: String) {
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Runs `kb` in-process with captured output.
    static func kb(_ arguments: [String], in directory: String, environment: [String: String] = [:],
                   stdin: String = "") -> (code: Int32, stdout: String, stderr: String) {
        let out = OutputStream(capturingAsTerminal: false)
        let err = OutputStream(capturingAsTerminal: false)
        let input = Array(stdin.utf8)
        let context = CommandContext(workingDirectory: directory, stdout: out, stderr: err, environment: environment,
                                     readStandardInput: { input })
        let code = KBCommandLine.main(arguments, context: context)
        return (code, out.text, err.text)
    }

    /// A minimal valid entry with the given body.
    static func entry(id: String = "test-entry", lang: String = "zh-Hans", status: String = "workaround", related: [String] = [], body: String) -> String {
        """
        ---
        id: \(id)
        title: 测试条目
        lang: \(lang)
        summary: 用于测试。
        symptoms:
          - 测试症状
        status: \(status)
        related: [\(related.joined(separator: ", "))]
        updated: 2026-11-29
        ---
        \(body)
        """
    }
}
