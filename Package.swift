// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TroubleshootKB",
    products: [
        .executable(name: "kb", targets: ["kb"]),
        .library(name: "TroubleshootKB", targets: ["TroubleshootKB"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Compression of the `.kb/index` file's large posting lists and of its eager part
        // (docs/search.md §7).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // The kb executable's memory allocator (malloc and free for the whole process, Swift's
        // included): parsing and rendering thousands of entries makes millions of small
        // allocations from several threads, which mimalloc serves faster than glibc's malloc.
        // Only the executable links it; the library and its tests use the system's malloc.
        .systemLibrary(
            name: "CMimalloc",
            providers: [.apt(["libmimalloc-dev"])]
        ),
        // The library's layers, each a target so that a dependency can only point down
        // (ARCHITECTURE.md): core ← search, scenarios ← site ← commands.
        .target(
            name: "KBCore",
            dependencies: ["CCmark", "CYaml"]
        ),
        .target(
            name: "KBSearch",
            dependencies: ["KBCore", "CZstd"]
        ),
        .target(
            name: "KBScenarios",
            dependencies: ["KBCore"]
        ),
        .target(
            name: "KBSite",
            dependencies: ["KBCore", "KBSearch", "KBScenarios"]
        ),
        .target(
            name: "KBCommands",
            dependencies: ["KBCore", "KBSearch", "KBScenarios", "KBSite"]
        ),
        // The library product: re-exports every layer.
        .target(
            name: "TroubleshootKB",
            dependencies: ["KBCore", "KBSearch", "KBScenarios", "KBSite", "KBCommands"]
        ),
        .executableTarget(
            name: "kb",
            dependencies: ["TroubleshootKB", "CMimalloc"]
        ),
        .testTarget(
            name: "TroubleshootKBTests",
            dependencies: ["KBCore", "KBSearch", "KBScenarios", "KBSite", "KBCommands", "TroubleshootKB"],
            exclude: ["Golden", "Gherkin/Fixtures", "Search/token-vectors.json", "Search/field-length-codes.json", "Search/Fixtures", "Search/Queries", "Import/Fixtures", "Robustness/Corpus"]
        ),
    ]
)
