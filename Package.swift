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
        .target(
            name: "TroubleshootKB",
            dependencies: ["CCmark", "CYaml"]
        ),
        .executableTarget(
            name: "kb",
            dependencies: ["TroubleshootKB"]
        ),
        .testTarget(
            name: "TroubleshootKBTests",
            dependencies: ["TroubleshootKB"],
            exclude: ["Golden", "Gherkin/Fixtures", "Search/token-vectors.json", "Search/Fixtures", "Import/Fixtures", "Robustness/Corpus"]
        ),
    ]
)
