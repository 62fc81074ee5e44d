import Foundation
import KBCore
import KBSearch
import KBScenarios

/// Everything every page of the site depends on, kept in the build manifest as a hash (the
/// manifest is in the published folder: no paths or settings in clear): kb's version and
/// executable, the build options and folders, the site settings, the theme's files, the glossary
/// and the check report. When any of them differs from the last build's, the next build is a
/// clean one.
enum BuildFingerprint {
    static func make(options: SiteBuilder.Options, assets: [ThemeFile], glossaryPath: String) -> String {
        var lines: [String] = []
        lines.append("kb \(TroubleshootKBVersion.string)")
        // A kb built again from changed sources renders differently under the same version.
        if let executable = Bundle.main.executablePath {
            let stamp = BuildManifest.FileStamp(path: (executable as NSString).resolvingSymlinksInPath)
            lines.append("executable \(stamp.size) \(stamp.modified) \(stamp.inode)")
        }
        lines.append("entries \(options.entriesDirectory)")
        lines.append("working-directory \(options.workingDirectory)")
        lines.append("base-url \(options.baseURL ?? "-")")
        lines.append("unsafe-html \(options.unsafeHTML)")
        lines.append("title \(options.settings.title)")
        lines.append("description \(options.settings.description)")
        lines.append("languages \(options.settings.languageOrder.joined(separator: " "))")
        for asset in assets {
            let bytes: [UInt8]
            if let file = asset.override {
                bytes = LimitedFileRead.bytes(file, limit: 256 << 20) ?? []
                lines.append("theme \(asset.path) \(file) \(bytes.count) \(ContentChecksum.of(bytes[...]))")
            } else {
                bytes = BuiltInTheme.files[asset.path] ?? []
                lines.append("theme \(asset.path) built-in \(bytes.count) \(ContentChecksum.of(bytes[...]))")
            }
        }
        lines.append(fileLine("glossary", glossaryPath))
        lines.append(fileLine("check-report", options.checkReportPath))
        let hash = ContentChecksum.of(Array(lines.joined(separator: "\n").utf8)[...])
        return "kb \(TroubleshootKBVersion.string) " + String(hash, radix: 16)
    }

    private static func fileLine(_ name: String, _ path: String) -> String {
        guard let bytes = LimitedFileRead.bytes(path, limit: 1 << 30) else { return "\(name) missing" }
        return "\(name) \(bytes.count) \(ContentChecksum.of(bytes[...]))"
    }
}
