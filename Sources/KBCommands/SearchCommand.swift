import Foundation
import KBCore
import KBSearch
import KBScenarios
import KBSite

/// `kb search`: entries ranked by how well they match a symptom.
public struct SearchCommand: KBCommand {
    public static let limitOption = CommandOption(["--limit"], value: "n", help: "At most this many results (default: 10).")
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: text or json (default: text).", choices: ["text", "json"])
    public static let explainOption = CommandOption(["--explain"], help: "Show, per result, how each query token (and glossary concept, prefix or typo expansion) contributes to the score.")
    public static let benchOption = CommandOption(["--bench"], value: "n", help: "Measure in-process query latency over n repetitions and print JSON (for make bench).")

    public static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Search entries by symptom, in any language.",
        discussion: """
        Words may be Chinese, Korean, Japanese or English, mixed with API names \
        ("toolbarColorScheme 不生效"). The index in .kb/index is built on first use and rebuilt \
        when an entry changes. 'kb analyze TEXT' shows the tokens a text becomes.
        """,
        arguments: [.init("query", help: "The symptom to look for.", arity: .oneOrMore)],
        options: EntryFilter.options + [limitOption, formatOption, explainOption, benchOption]
    )

    public let query: String
    public let filter: EntryFilter
    public let limit: Int
    public let format: String
    public let benchRepetitions: Int?
    public let explain: Bool

    public init(_ arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing query") }
        query = arguments.positionals.joined(separator: " ")
        guard query.contains(where: { !$0.isWhitespace }) else { throw UsageError("the query is empty") }
        filter = try EntryFilter(arguments)
        limit = try arguments.int(Self.limitOption, default: 10, range: 1...1000)
        format = try arguments.choice(Self.formatOption, default: "text")
        benchRepetitions = try arguments.int(Self.benchOption)
        explain = arguments.flag(Self.explainOption)
    }

    /// The search a client sent to a search server.
    init(_ request: SearchServerRequest.Search) throws {
        query = request.query
        filter = EntryFilter(lang: request.lang, tag: request.tag, status: try request.status.map { status in
            guard let value = EntryMetadata.Status(rawValue: status) else { throw UsageError("unknown status '\(status)'") }
            return value
        })
        limit = request.limit
        format = request.format
        benchRepetitions = nil
        explain = request.explain
    }

    /// This search as a request to a search server, with how the client prints.
    func request(_ context: CommandContext) -> SearchServerRequest.Search {
        SearchServerRequest.Search(query: query, lang: filter.lang, tag: filter.tag, status: filter.status?.rawValue, limit: limit,
                                   format: format, explain: explain, workingDirectory: context.workingDirectory,
                                   stdoutIsTerminal: context.isCapableTerminal(context.stdout), stderrIsTerminal: context.isCapableTerminal(context.stderr),
                                   noColor: context.environment["NO_COLOR"], verbose: context.verbose)
    }

    var filters: SearchFilters {
        SearchFilters(langs: filter.lang.map { [$0] } ?? [], tags: filter.tag.map { [$0] } ?? [],
                      statuses: filter.status.map { [$0.rawValue] } ?? [])
    }

    /// Asks the knowledge base's search server when one runs (docs/search.md §12.1), else opens
    /// the index itself and may start a server for the next searches.
    public func run(_ context: CommandContext) throws -> Int32 {
        let server = benchRepetitions == nil ? SearchServerClient(context: context) : nil
        if let server, let reply = server.ask(.search, search: request(context)), reply.status == .answered {
            if context.verbose { context.stderr.print(context.errorStyle.dim("answered by the search server (pid \(reply.pid))")) }
            context.stdout.write(reply.stdout)
            context.stderr.write(reply.stderr)
            return reply.exitCode
        }
        let store = SearchIndexStore(entriesDirectory: context.entriesDirectory, cacheDirectory: context.cacheDirectory + "/index",
                                     workingDirectory: context.workingDirectory, linter: .standard)
        var documentCount = 0
        let code = try search(context) { forceRebuild, reason in
            let opened = try store.open(forceRebuild: forceRebuild, reason: reason)
            documentCount = opened.index.documentCount
            return opened
        }
        server?.startIfWorthwhile(documentCount: documentCount)
        return code
    }

    /// Searches the index `open` gives (`open(forceRebuild, reason)`, as `SearchIndexStore.open`
    /// takes them) and prints the results.
    func search(_ context: CommandContext, opening open: (Bool, SearchIndexStore.Freshness?) throws
                -> (index: SearchIndex, freshness: SearchIndexStore.Freshness, diagnostics: [Diagnostic])) throws -> Int32 {
        var (index, freshness, problems) = try open(false, nil)
        var results: [SearchResult] = []
        if benchRepetitions == nil {
            results = index.search(query: query, filters: filters, limit: limit)
            // Postings are checked when first read, and the texts of the results shown against the
            // entries they were indexed from; a damaged index (or one whose entries changed since
            // the check) is rebuilt, not trusted. (An index this command built is not built again.)
            if index.isDamaged && freshness == .reused {
                (index, freshness, problems) = try open(true, index.entriesChanged ? .rebuiltChanged : .rebuiltInvalid)
                results = index.search(query: query, filters: filters, limit: limit)
            }
        }
        if freshness != .reused {
            context.stderr.print(context.errorStyle.dim("search index \(freshness.rawValue): \(index.documentCount) entries"))
        }
        for problem in problems { context.stderr.print(problem.formatted) }
        if let repetitions = benchRepetitions {
            return try bench(index, repetitions: repetitions, context: context)
        }
        if format == "json" {
            context.stdout.print(try JSONOutput.string(results.enumerated().map { rank, result in
                SearchHit(rank: rank + 1, result: result, index: index)
            }))
            return results.isEmpty ? ExitCode.failure : ExitCode.success
        }
        guard !results.isEmpty else {
            context.stderr.print("No entry matches '\(query)'. Try other words, 'kb analyze \(query)' to see its tokens, or 'kb list' to browse.")
            return ExitCode.failure
        }
        let style = context.style
        if explain {
            for known in index.knownIdentifiers(in: query) {
                context.stdout.print(style.dim("\(known.name) is searched as itself (the index has it): \(known.leftOut.joined(separator: ", ")) left out"))
            }
        }
        for (rank, result) in results.enumerated() {
            let doc = result.docIndex
            let title = index.title(ofDocument: doc)
            context.stdout.print("\(rank + 1). \(style.bold(result.id))  \(style.dim("[\(index.lang(ofDocument: doc))]"))  \(title)")
            if let snippet = result.snippet {
                let where_ = result.field == .symptoms ? "symptom" : result.field.name
                context.stdout.print("   \(style.dim(where_ + ":")) \(Self.highlight(snippet, style: style))")
            }
            var location = EntryLocator.displayPath(context.entriesDirectory + "/\(result.id)/entry.md", workingDirectory: context.workingDirectory)
            if let anchor = result.anchor { location += "#\(anchor)" }
            let matched = result.label.map { "  (matched in \($0))" } ?? ""
            context.stdout.print("   \(style.cyan("→ " + location))\(style.dim(matched))")
            if !result.viaGlossary.isEmpty {
                context.stdout.print("   \(style.dim("via glossary: " + Self.conceptNames(result.viaGlossary, index: index).joined(separator: ", ")))")
            }
            for line in Self.expansionLines(result.viaExpansions) {
                context.stdout.print("   \(style.dim(line))")
            }
            if explain {
                let e = index.explain(query: query, doc: doc)
                context.stdout.print(style.dim(String(format: "   score %.4f = bm25 %.4f × coverage %.3f × adjacency %.3f", result.score, e.bm25, e.coverage, e.adjacency)))
                for t in e.terms {
                    let fields = t.fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    var line = String(format: "     %@  idf %.3f  literal +%.4f", t.token, t.idf, t.literal)
                    if let concept = t.concept { line += String(format: "  via %@ idf %.3f +%.4f", concept, t.conceptIdf, t.viaConcept) }
                    if let e = t.expansion {
                        line += String(format: "  via %@ %@ +%.4f", e.kind == .prefix ? "prefix" : "typo", e.token, t.viaExpansion)
                    }
                    line += t.covered ? "" : "  (missing)"
                    if !fields.isEmpty { line += "  [\(fields)]" }
                    context.stdout.print(style.dim(line))
                }
            }
        }
        return ExitCode.success
    }

    /// `via prefix: configur → configuration, configure` and `via typo: appearence → appearance`,
    /// one line per kind and query word, in query order.
    static func expansionLines(_ expansions: [SearchExpansion]) -> [String] {
        var lines: [(key: String, tokens: [String])] = []
        for e in expansions {
            let key = "via \(e.kind.rawValue): \(e.query) → "
            if let i = lines.firstIndex(where: { $0.key == key }) { lines[i].tokens.append(e.token) } else { lines.append((key, [e.token])) }
        }
        return lines.map { $0.key + $0.tokens.joined(separator: ", ") }
    }

    /// Display names of concepts (`large title`), by id.
    static func conceptNames(_ ids: [String], index: SearchIndex) -> [String] {
        ids.map { id in index.glossary.concepts.first { $0.id == id }?.name ?? id }
    }

    /// The snippet with matches in bold on a terminal (plain text otherwise), on one line.
    static func highlight(_ snippet: SearchSnippet, style: TerminalStyle) -> String {
        var out = snippet.truncatedStart ? "…" : ""
        var cursor = snippet.text.startIndex
        for range in snippet.highlightRanges {
            out += snippet.text[cursor..<range.lowerBound]
            out += style.bold(String(snippet.text[range]))
            cursor = range.upperBound
        }
        out += snippet.text[cursor...]
        if snippet.truncatedEnd { out += "…" }
        return out.replacingOccurrences(of: "\n", with: " ")
    }

    struct SearchHit: Encodable {
        let rank: Int
        let id: String
        let title: String
        let lang: String
        let score: Double
        let field: String
        let anchor: String?
        let label: String?
        let snippet: String?
        let highlights: [[Int]]
        /// Concepts through which the entry matched words of the query it does not contain.
        let viaGlossary: [Concept]
        /// Prefix and typo expansions through which the entry matched words of the query it does not contain.
        let viaExpansions: [Expansion]

        struct Concept: Encodable {
            let id: String
            let name: String
        }

        struct Expansion: Encodable {
            let query: String
            let token: String
            let kind: String
        }

        init(rank: Int, result: SearchResult, index: SearchIndex) {
            self.rank = rank
            id = result.id
            title = index.title(ofDocument: result.docIndex)
            lang = index.lang(ofDocument: result.docIndex)
            score = result.score
            field = result.field.name
            anchor = result.anchor
            label = result.label
            snippet = result.snippet?.text
            highlights = result.snippet?.highlights.map { [$0.lowerBound, $0.upperBound] } ?? []
            viaGlossary = zip(result.viaGlossary, SearchCommand.conceptNames(result.viaGlossary, index: index)).map { Concept(id: $0, name: $1) }
            viaExpansions = result.viaExpansions.map { Expansion(query: $0.query, token: $0.token, kind: $0.kind.rawValue) }
        }
    }

    func bench(_ index: SearchIndex, repetitions: Int, context: CommandContext) throws -> Int32 {
        let queries = query.split(separator: "|").map(String.init)
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        for i in 0..<repetitions {
            let q = queries[i % queries.count]
            let start = DispatchTime.now().uptimeNanoseconds
            _ = index.search(query: q, filters: filters, limit: limit)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int(Double(samples.count) * p))] }
        context.stdout.print(try JSONOutput.string(["queries": Double(queries.count), "repetitions": Double(repetitions),
                                                    "p50_ms": percentile(0.5), "p99_ms": percentile(0.99)], pretty: false))
        return ExitCode.success
    }
}

/// `kb analyze`: the tokens a text becomes, like Elasticsearch's `_analyze`.
public struct AnalyzeCommand: KBCommand {
    public static let queryOption = CommandOption(["--query"], help: "Analyse as a query (no unigrams where bigrams cover the text) instead of as a document.")
    public static let noGlossaryOption = CommandOption(["--no-glossary"], help: "Do not add glossary concept tokens.")
    public static let formatOption = CommandOption(["--format"], value: "format", help: "Output format: text or json (default: text).", choices: ["text", "json"])

    public static let configuration = CommandConfiguration(
        name: "analyze",
        abstract: "Show the search tokens of a text (to see why a query does or does not match).",
        discussion: """
        Prints one token per line: position, token, kind (bigram, unigram, word, identifier, part, \
        concept). Concept tokens (~c:<id>) come from entries/glossary.yaml: they follow the literal \
        tokens, with the glossary term they were found through. The tokens are the text's alone: \
        kb search then leaves out the parts of an identifier the index has (toolbarColorScheme is \
        searched as toolbarcolorscheme when an entry names it), which kb search --explain shows.
        """,
        arguments: [.init("text", help: "The text to analyse.", arity: .oneOrMore)],
        options: [queryOption, noGlossaryOption, formatOption]
    )

    public let text: String
    public let asQuery: Bool
    public let useGlossary: Bool
    public let format: String

    public init(_ arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing text") }
        text = arguments.positionals.joined(separator: " ")
        asQuery = arguments.flag(Self.queryOption)
        useGlossary = !arguments.flag(Self.noGlossaryOption)
        format = try arguments.choice(Self.formatOption, default: "text")
    }

    /// The glossary of the knowledge base when there is one; any text can be analysed.
    public var knowledgeBase: KnowledgeBaseRequirement { .optional }

    public func run(_ context: CommandContext) throws -> Int32 {
        var glossary = SearchGlossary.empty
        if useGlossary {
            let (loaded, problems) = Glossary.load(entriesDirectory: context.entriesDirectory)
            for problem in problems where problem.severity == .error { context.stderr.print(problem.formatted) }
            glossary = SearchGlossary(loaded)
        }
        let tokens = SearchAnalyzer.analyze(text, mode: asQuery ? .query : .document, glossary: glossary)
        if format == "json" {
            context.stdout.print(try JSONOutput.string(tokens))
            return ExitCode.success
        }
        let scalars = Array(text.unicodeScalars)
        for token in tokens {
            var line = "\(token.position)\t\(token.text)\t\(token.kind.rawValue)"
            if token.kind == .concept, let id = SearchGlossary.conceptID(ofToken: token.text) {
                let term = String(String.UnicodeScalarView(scalars[token.start..<token.end]))
                let name = glossary.concepts.first { $0.id == id }?.name ?? id
                line += "\t\(name) ← \(term)"
            }
            context.stdout.print(line)
        }
        return ExitCode.success
    }
}

/// `kb index`: builds or refreshes the search index (`kb search` does this on demand), or runs
/// the search server that keeps it in memory (`--watch`).
public struct IndexCommand: KBCommand {
    public static let rebuildOption = CommandOption(["--rebuild"], help: "Rebuild even if no entry changed.")
    public static let watchOption = CommandOption(["--watch"], help: "Keep the index in memory, follow changes to the entries (inotify) and answer kb search from it, until stopped.")
    public static let idleTimeoutOption = CommandOption(["--idle-timeout"], value: "seconds", help: "With --watch: stop after this many seconds without a search.")
    public static let stopOption = CommandOption(["--stop"], help: "Stop the search server of this knowledge base.")
    public static let statusOption = CommandOption(["--status"], help: "Say whether a search server runs for this knowledge base.")

    public static let configuration = CommandConfiguration(
        name: "index",
        abstract: "Build or refresh the search index in .kb/index, or keep it in memory for kb search.",
        discussion: """
        'kb search' checks every entry file before it searches. In a large knowledge base \
        (20,000 entries or more), run in a terminal, it starts a search server in the \
        background, which keeps the index in memory, learns of changes from the kernel \
        (inotify) and answers the next searches; the server stops after 15 minutes without a \
        search. 'kb index --watch' runs one in the foreground, 'kb index --stop' stops it; \
        KB_SEARCH_SERVER=off turns servers off, KB_SEARCH_SERVER=on starts one at any size and \
        from scripts too.
        """,
        options: [rebuildOption, watchOption, idleTimeoutOption, stopOption, statusOption]
    )

    public let rebuild: Bool
    public let watch: Bool
    public let idleTimeout: Int?
    public let stop: Bool
    public let status: Bool

    public init(_ arguments: ParsedArguments) throws {
        rebuild = arguments.flag(Self.rebuildOption)
        watch = arguments.flag(Self.watchOption)
        idleTimeout = try arguments.int(Self.idleTimeoutOption, range: 1...(7 * 86_400))
        stop = arguments.flag(Self.stopOption)
        status = arguments.flag(Self.statusOption)
        if [rebuild, watch, stop, status].filter({ $0 }).count > 1 {
            throw UsageError("choose one of --rebuild, --watch, --stop and --status")
        }
        if idleTimeout != nil && !watch { throw UsageError("--idle-timeout goes with --watch") }
    }

    public func run(_ context: CommandContext) throws -> Int32 {
        if watch { return try serve(context) }
        if stop || status {
            var quiet = context
            quiet.environment["KB_SEARCH_SERVER"] = "on"
            guard let client = SearchServerClient(context: quiet), let reply = client.ask(stop ? .stop : .status) else {
                context.stdout.print("no search server runs for this knowledge base")
                return status ? ExitCode.failure : ExitCode.success
            }
            if reply.status == .declined {
                // A server of another build or knowledge base: it stops when it meets another build.
                context.stdout.print("the search server (pid \(reply.pid)) declined: \(reply.reason ?? "")")
                return status ? ExitCode.failure : ExitCode.success
            }
            if stop {
                context.stdout.print("stopped the search server (pid \(reply.pid))")
            } else {
                context.stdout.print("search server (pid \(reply.pid)): \(reply.documentCount ?? 0) entries in memory, \(reply.watchCount ?? 0) folders watched, \(reply.searches ?? 0) searches answered")
            }
            return ExitCode.success
        }
        let start = Date()
        let store = SearchIndexStore(entriesDirectory: context.entriesDirectory, cacheDirectory: context.cacheDirectory + "/index",
                                     workingDirectory: context.workingDirectory, linter: .standard)
        let (index, freshness, problems) = try store.open(forceRebuild: rebuild)
        for problem in problems { context.stderr.print(problem.formatted) }
        context.stdout.print("search index \(freshness.rawValue): \(index.documentCount) entries, \(index.tokenCount) tokens, \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        if freshness == .notWritable { context.stderr.print("Error: cannot write the search index in \(store.cacheDirectory)") }
        return freshness == .notSaved || freshness == .notWritable ? ExitCode.failure : ExitCode.success
    }

    /// `--watch`: runs the search server until it stops.
    func serve(_ context: CommandContext) throws -> Int32 {
        let start = Date()
        let server = try SearchServer(context: context, idleTimeout: idleTimeout.map(Double.init))
        for problem in server.diagnostics { context.stderr.print(problem.formatted) }
        context.stdout.print("search index \(server.freshness.rawValue): \(server.documentCount) entries, \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        context.stdout.print("search server (pid \(getpid())) listening at \(server.paths.socket), watching \(server.watchCount) folders"
                             + (idleTimeout.map { "; stops after \($0) s without a search" } ?? "; 'kb index --stop' or Ctrl-C stops it"))
        context.stdout.flush()
        let reason = server.run()
        context.stdout.print("search server stopped: \(reason) (\(server.searches) searches answered)")
        return ExitCode.success
    }
}
