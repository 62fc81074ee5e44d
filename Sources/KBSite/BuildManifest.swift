import Foundation
import KBCore
import KBSearch
import KBScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the last build of a site was made from, kept in the output folder (`.kb-build`) so the
/// next `kb build` can rebuild only what a change touches (docs/site.md, "Incremental builds"):
/// a fingerprint of everything every page depends on (options, settings, theme, glossary, check
/// report, kb's version), and per entry file the stamps of the files it was made from (size,
/// modification time, inode: taken before the file was read, so a change while it was read is
/// seen by the next build), its listing (what other pages show of it), its lint diagnostics, and
/// the search export's state.
///
/// The file is a private cache: any doubt about it (another version, a damaged or truncated
/// file) means a clean build, never a wrong page.
struct BuildManifest: Equatable {
    static let fileName = ".kb-build"
    static let magic = "kb-build-manifest"
    /// Bumped whenever the layout of the file or what a listing holds changes (2: checksums are
    /// `ContentChecksum`, over 64-bit words; 3: each symptom keeps its script; 4: each block
    /// starts with its strings and the lengths of its records).
    static let version = 4

    /// `BuildFingerprint`: the inputs every page depends on.
    var fingerprint: String
    /// The entries folder (its modification time changes when an entry folder is added, removed or renamed).
    var entriesFolder: FileStamp
    /// The ids lint knew (`EntryLocator.knownIDs`): the entry folders.
    var knownIDs: [String]
    /// Sorted by `file`.
    var entries: [EntryRecord]
    /// `SearchWebPatch.State` as JSON, or empty when the export cannot be patched.
    var searchState: [UInt8]

    /// One entry file and what the last build made of it.
    struct EntryRecord: Equatable {
        /// The entry file, relative to the entries folder.
        var file: String
        /// The entry's folder (its modification time changes when a file is added, removed or renamed in it).
        var folder: FileStamp
        var entry: FileStamp
        /// The scenario file read for the entry, relative to the entries folder, and its stamp.
        var scenario: String?
        var scenarioStamp: FileStamp
        var listing: SiteListing
        /// The entry's own lint diagnostics (warnings: a build with errors writes no manifest).
        var diagnostics: [Diagnostic]

        /// What `decode` makes of a record it cannot read: no file (which every record has).
        static let unreadable = EntryRecord(file: "", folder: .missing, entry: .missing, scenario: nil, scenarioStamp: .missing,
                                            listing: SiteListing(id: "", title: "", lang: "", updated: "", status: nil, tags: [],
                                                                 summary: "", related: [], symptoms: [], usesModelWorld: false,
                                                                 attempts: []),
                                            diagnostics: [])
    }

    /// Size, modification time (nanoseconds) and inode of a file or folder; all zero when it is missing.
    struct FileStamp: Equatable {
        var size: Int64 = 0
        var modified: Int64 = 0
        var inode: UInt64 = 0

        static let missing = FileStamp()

        /// The stamp of `path` (not following a last symbolic link), or `.missing`.
        init(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { self = .missing; return }
            self.init(info)
        }

        /// The stamp as the manifest keeps it: a file modified within two seconds of `time` (the
        /// start of the build, nanoseconds since 1970) could change again within the same tick of
        /// the file system's clock without its stamp changing ("racy" in git's words), so its time
        /// is kept as -1 and the next build reads it again.
        func settled(before time: Int64) -> FileStamp {
            guard self != .missing, modified > time - 2_000_000_000 else { return self }
            return FileStamp(size: size, modified: -1, inode: inode)
        }

        /// Now, in nanoseconds since 1970 (the clock of file modification times).
        static var now: Int64 {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }

        /// The stamp of `relative` inside the open folder `folder` (`openat` descriptor).
        init(in folder: Int32, _ relative: String) {
            var info = stat()
            guard fstatat(folder, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 else { self = .missing; return }
            self.init(info)
        }

        private init(_ info: stat) {
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
        }

        init(size: Int64 = 0, modified: Int64 = 0, inode: UInt64 = 0) {
            self.size = size
            self.modified = modified
            self.inode = inode
        }
    }

    // MARK: Encoding

    /// Entry records per block: blocks are encoded and checked on all cores, and a build writes
    /// again only the blocks whose records changed.
    static let blockSize = 1024

    /// The manifest as bytes: a header line, the fields that concern every entry, then the entry
    /// records in blocks of `blockSize`; each of these parts is length-prefixed (`ManifestWriter`)
    /// and ends with its checksum (`ContentChecksum`, 8 bytes little-endian), because strings are
    /// read back without validating them again. A block holds the number of its records, its
    /// distinct strings (each record names its strings by their number: a message, a tag or a
    /// language shared by many entries is decoded once), the length of each record, then the
    /// records: they are decoded on all cores straight into one array.
    func encoded() -> [UInt8] { encoded(blocks: Self.encodedBlocks(entries)) }

    /// The entry records' blocks, each with its checksum (made on all cores); a block of
    /// `previous` (the blocks read) is kept as it is when none of its records is in `changed`.
    static func encodedBlocks(_ records: [EntryRecord], previous: [ArraySlice<UInt8>] = [], changed: Set<Int> = []) -> [ArraySlice<UInt8>] {
        let count = (records.count + blockSize - 1) / blockSize
        let kept = previous.count == count ? Set(0..<count).subtracting(changed.map { $0 / blockSize }) : []
        return Parallel.map(count) { b in
            if kept.contains(b) { return previous[b] }
            var body = ManifestWriter(interning: true), head = ManifestWriter()
            let range = (b * blockSize)..<min(records.count, (b + 1) * blockSize)
            var lengths: [Int] = []
            lengths.reserveCapacity(range.count)
            for record in records[range] {
                let before = body.output.count
                body.record(record)
                lengths.append(body.output.count - before)
            }
            head.int(range.count)
            head.strings(body.internedStrings)
            for length in lengths { head.int(length) }
            return ManifestWriter.checksummed(head.output + body.output)[...]
        }
    }

    /// The manifest with its entry records already encoded (`encodedBlocks(entries)`).
    func encoded(blocks: [ArraySlice<UInt8>]) -> [UInt8] { Array(encodedParts(blocks: blocks).joined()) }

    /// The same in parts to be written one after the other (the blocks as they are, not copied into one array).
    func encodedParts(blocks: [ArraySlice<UInt8>]) -> [ArraySlice<UInt8>] {
        var head = ManifestWriter()
        head.string(fingerprint)
        head.stamp(entriesFolder)
        head.strings(knownIDs)
        head.bytes(searchState)
        head.int(entries.count)
        var w = ManifestWriter()
        w.raw(Array("\(Self.magic) \(Self.version)\n".utf8))
        w.bytes(ManifestWriter.checksummed(head.output))
        var parts = [w.output[...]]
        for block in blocks {
            var length = ManifestWriter()
            length.int(block.count)
            parts += [length.output[...], block]
        }
        return parts
    }

    /// Reads a manifest; nil when the bytes are not a complete manifest of this version.
    init?(decoding bytes: [UInt8]) {
        guard let (manifest, _) = Self.decode(bytes) else { return nil }
        self = manifest
    }

    /// A manifest and its blocks as read (`encodedBlocks(previous:)` keeps those that do not
    /// change; they share `bytes`' storage).
    static func decode(_ bytes: [UInt8]) -> (BuildManifest, blocks: [ArraySlice<UInt8>])? {
        let header = Array("\(Self.magic) \(Self.version)\n".utf8)
        guard bytes.starts(with: header) else { return nil }
        var r = ManifestReader(bytes[header.count...])
        guard let headBytes = r.slice(), let head = ManifestReader.checked(headBytes) else { return nil }
        var h = ManifestReader(head)
        guard let fingerprint = h.string(), let entriesFolder = h.stamp(), let knownIDs = h.strings(),
              let searchState = h.bytes(), let count = h.int(), h.isAtEnd else { return nil }
        var blocks: [ArraySlice<UInt8>] = []
        while !r.isAtEnd {
            guard let block = r.slice() else { return nil }
            blocks.append(block)
        }
        guard blocks.count == (count + Self.blockSize - 1) / Self.blockSize else { return nil }
        // Where each record is: checked and read from the blocks' tables on all cores.
        let tables = Parallel.map(blocks.count) { b -> (strings: [String], ranges: [Range<Int>])? in
            guard let body = ManifestReader.checked(blocks[b]) else { return nil }
            var reader = ManifestReader(body)
            guard let records = reader.int(), records == min(Self.blockSize, count - b * Self.blockSize),
                  let strings = reader.strings() else { return nil }
            var lengths: [Int] = []
            lengths.reserveCapacity(records)
            for _ in 0..<records {
                guard let length = reader.int() else { return nil }
                lengths.append(length)
            }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(records)
            var start = reader.offset
            for length in lengths {
                guard length <= body.endIndex - start else { return nil }
                ranges.append(start..<start + length)
                start += length
            }
            return start == body.endIndex ? (strings, ranges) : nil
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        var blockStrings: [[String]] = []
        for table in tables {
            guard let table else { return nil }
            ranges += table.ranges
            blockStrings.append(table.strings)
        }
        // A record that cannot be read (which its block's checksum rules out, short of another
        // writer of the same version) comes out as `unreadable`: the manifest is then refused.
        let entries = Parallel.map(count, slices: 4 * ProcessInfo.processInfo.activeProcessorCount) { k in
            var reader = ManifestReader(bytes[ranges[k]], strings: blockStrings[k / Self.blockSize])
            guard let record = reader.record(), reader.isAtEnd else { return EntryRecord.unreadable }
            return record
        }
        guard !entries.contains(where: { $0.file.isEmpty }) else { return nil }
        return (BuildManifest(fingerprint: fingerprint, entriesFolder: entriesFolder, knownIDs: knownIDs, entries: entries,
                              searchState: searchState), blocks)
    }

    init(fingerprint: String, entriesFolder: FileStamp, knownIDs: [String], entries: [EntryRecord], searchState: [UInt8]) {
        self.fingerprint = fingerprint
        self.entriesFolder = entriesFolder
        self.knownIDs = knownIDs
        self.entries = entries
        self.searchState = searchState
    }

    /// The manifest of the site at `output` and its blocks as read, or nil when there is none or it cannot be used.
    static func read(output: String) -> (BuildManifest, blocks: [ArraySlice<UInt8>])? {
        guard let bytes = LimitedFileRead.bytes((output as NSString).appendingPathComponent(fileName), limit: 1 << 30) else { return nil }
        return decode(bytes)
    }
}

/// Writes the manifest's fields: unsigned LEB128 numbers, and byte strings as their length then
/// their bytes, or (`interning`) as their number among the distinct strings written so far
/// (`internedStrings`, to be written before them).
struct ManifestWriter {
    private(set) var output: [UInt8] = []
    private let interning: Bool
    private var numbers: [UTF8Key: Int] = [:]
    /// The distinct strings an interning writer has met, in the order of their numbers.
    private(set) var internedStrings: [String] = []

    init(interning: Bool = false) { self.interning = interning }

    mutating func uint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            output.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        output.append(UInt8(v))
    }

    mutating func int(_ value: Int) { uint(UInt64(max(0, value))) }
    mutating func raw(_ value: [UInt8]) { output += value }

    /// `bytes` followed by their checksum.
    static func checksummed(_ bytes: [UInt8]) -> [UInt8] {
        let checksum = ContentChecksum.of(bytes[...])
        return bytes + (0..<8).map { UInt8(truncatingIfNeeded: checksum >> (8 * $0)) }
    }

    mutating func record(_ record: BuildManifest.EntryRecord) {
        string(record.file)
        stamp(record.folder)
        stamp(record.entry)
        string(record.scenario ?? "")
        stamp(record.scenarioStamp)
        let l = record.listing
        string(l.id); string(l.title); string(l.lang); string(l.updated)
        string(l.status?.rawValue ?? "")
        strings(l.tags); string(l.summary); strings(l.related)
        int(l.symptoms.count)
        for symptom in l.symptoms { string(symptom.phrase); string(symptom.language.rawValue); string(symptom.fragment) }
        int(l.usesModelWorld ? 1 : 0)
        int(l.attempts.count)
        for attempt in l.attempts { string(attempt.number); string(attempt.outcome.rawValue) }
        int(record.diagnostics.count)
        for d in record.diagnostics {
            string(d.path)
            int(d.location?.line ?? 0); int(d.location?.column ?? 0)
            string(d.severity.rawValue); string(d.message); string(d.rule.id)
        }
    }
    mutating func bytes(_ value: [UInt8]) { int(value.count); output += value }
    mutating func string(_ value: String) {
        guard interning else {
            int(value.utf8.count)
            output.append(contentsOf: value.utf8)
            return
        }
        let key = UTF8Key(value)
        if let number = numbers[key] {
            int(number)
        } else {
            numbers[key] = internedStrings.count
            int(internedStrings.count)
            internedStrings.append(value)
        }
    }
    mutating func strings(_ values: [String]) { int(values.count); for value in values { string(value) } }
    mutating func stamp(_ s: BuildManifest.FileStamp) {
        uint(UInt64(bitPattern: s.size)); uint(UInt64(bitPattern: s.modified)); uint(s.inode)
    }
}

/// Reads what `ManifestWriter` wrote; every read returns nil past the end or on a malformed number.
struct ManifestReader {
    private let input: ArraySlice<UInt8>
    private var position: Int
    /// The strings an interning writer numbered (`ManifestWriter(interning:)`), or nil.
    private let interned: [String]?

    init(_ input: ArraySlice<UInt8>, strings: [String]? = nil) {
        self.input = input
        interned = strings
        position = input.startIndex
    }

    /// The bytes before the trailing checksum (`ContentChecksum`, 8 bytes little-endian), when it matches.
    static func checked(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard bytes.count >= 8 else { return nil }
        let body = bytes[..<(bytes.endIndex - 8)]
        let checksum = bytes[(bytes.endIndex - 8)...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return ContentChecksum.of(body) == checksum ? body : nil
    }

    var isAtEnd: Bool { position == input.endIndex }
    /// Where the next read starts, as an index of the input.
    var offset: Int { position }
    /// Bytes left: a bound on the number of items still to read (each takes at least one byte).
    var remaining: Int { input.endIndex - position }

    mutating func uint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < input.endIndex, shift < 64 {
            let byte = input[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func int() -> Int? {
        guard let v = uint(), v <= UInt64(Int.max) else { return nil }
        return Int(v)
    }

    mutating func bytes() -> [UInt8]? { slice().map(Array.init) }

    /// The next length-prefixed bytes, in place.
    mutating func slice() -> ArraySlice<UInt8>? {
        guard let count = int(), count <= input.endIndex - position else { return nil }
        defer { position += count }
        return input[position..<position + count]
    }

    /// A string; the manifest's checksum stands for its UTF-8 being what was written.
    mutating func string() -> String? {
        if let interned {
            guard let number = int(), number < interned.count else { return nil }
            return interned[number]
        }
        guard let count = int(), count <= input.endIndex - position else { return nil }
        defer { position += count }
        return String(decoding: input[position..<position + count], as: UTF8.self)
    }

    mutating func strings() -> [String]? {
        guard let count = int(), count <= input.endIndex - position else { return nil }
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = string() else { return nil }
            values.append(value)
        }
        return values
    }

    mutating func record() -> BuildManifest.EntryRecord? {
        guard let file = string(), let folder = stamp(), let entry = stamp(),
              let scenario = string(), let scenarioStamp = stamp(),
              let id = string(), let title = string(), let lang = string(), let updated = string(),
              let status = string(), let tags = strings(), let summary = string(), let related = strings(),
              let symptomCount = int() else { return nil }
        var symptoms: [SiteListing.Symptom] = []
        symptoms.reserveCapacity(min(symptomCount, remaining))
        for _ in 0..<symptomCount {
            guard let phrase = string(), let script = string(), let language = ScriptLanguage(rawValue: script),
                  let fragment = string() else { return nil }
            symptoms.append(.init(phrase: phrase, language: language, fragment: fragment))
        }
        guard let model = int(), let attemptCount = int() else { return nil }
        var attempts: [SiteListing.Attempt] = []
        attempts.reserveCapacity(min(attemptCount, remaining))
        for _ in 0..<attemptCount {
            guard let number = string(), let name = string(), let outcome = Outcome(rawValue: name) else { return nil }
            attempts.append(.init(number: number, outcome: outcome))
        }
        guard let diagnosticCount = int() else { return nil }
        var diagnostics: [Diagnostic] = []
        diagnostics.reserveCapacity(min(diagnosticCount, remaining))
        for _ in 0..<diagnosticCount {
            guard let path = string(), let lineNumber = int(), let column = int(), let severityName = string(),
                  let severity = Diagnostic.Severity(rawValue: severityName), let message = string(), let ruleID = string(), let rule = LintRule(id: ruleID)
            else { return nil }
            let location = lineNumber == 0 ? nil : SourceLocation(line: lineNumber, column: column)
            diagnostics.append(Diagnostic(path: path, location: location, severity: severity, message: message, rule: rule))
        }
        let listing = SiteListing(id: id, title: title, lang: lang, updated: updated,
                                  status: EntryMetadata.Status(rawValue: status), tags: tags, summary: summary,
                                  related: related, symptoms: symptoms, usesModelWorld: model == 1, attempts: attempts)
        return BuildManifest.EntryRecord(file: file, folder: folder, entry: entry, scenario: scenario.isEmpty ? nil : scenario,
                                         scenarioStamp: scenarioStamp, listing: listing, diagnostics: diagnostics)
    }

    mutating func stamp() -> BuildManifest.FileStamp? {
        guard let size = uint(), let modified = uint(), let inode = uint() else { return nil }
        return .init(size: Int64(bitPattern: size), modified: Int64(bitPattern: modified), inode: inode)
    }
}
