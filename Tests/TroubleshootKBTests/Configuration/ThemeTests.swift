import Foundation
import Testing
@testable import KBCore
@testable import KBSearch
@testable import KBScenarios
@testable import KBSite
@testable import KBCommands

/// The theme inside the binary: the same bytes as site/, used when no theme folder is named,
/// overridden file by file by one that is, and written out by `kb theme eject`.
@Suite struct ThemeTests {
    /// Fails when site/ changed and `make theme` was not run (or the embedded file was edited).
    @Test func builtInFilesAreSiteFolder() throws {
        let site = TestSupport.repositoryRoot + "/site"
        let onDisk = SiteTestSupport.snapshot(site)
        #expect(Set(onDisk.keys) == Set(BuiltInTheme.paths), "files differ; run make theme")
        for (path, data) in onDisk {
            #expect(BuiltInTheme.files[path] == [UInt8](data), "\(path) differs from site/\(path); run make theme")
        }
    }

    /// The scripts the JavaScript parity tests run (site/assets/search-core.js) are the ones embedded.
    @Test func embeddedSearchCoreIsTheTestedOne() throws {
        let tested = try #require(FileManager.default.contents(atPath: TestSupport.repositoryRoot + "/site/assets/search-core.js"))
        #expect(BuiltInTheme.files["assets/search-core.js"] == [UInt8](tested))
    }

    @Test func buildWithoutAThemeFolder() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "ja"], in: "/").code == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/site"))
        let result = TestSupport.kb(["build"], in: directory)
        #expect(result.code == 0, "\(result.stderr)")
        let built = SiteTestSupport.snapshot(directory + "/_site")
        for path in BuiltInTheme.paths {
            #expect(built[path] != nil, "\(path) missing from the site")
        }
        #expect(built["assets/style.css"].map { [UInt8]($0) } == BuiltInTheme.files["assets/style.css"])
        #expect(SiteTestSupport.brokenLinks(in: directory + "/_site").isEmpty)
    }

    @Test func themeFolderOverridesFileByFile() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "en"], in: "/").code == 0)
        TestSupport.write("body { color: rebeccapurple }\n", to: directory + "/theme/assets/style.css")
        TestSupport.write("team logo\n", to: directory + "/theme/assets/logo.txt")
        var configuration = try String(contentsOfFile: directory + "/kb.yaml", encoding: .utf8)
        configuration = configuration.replacingOccurrences(of: "# theme: theme", with: "theme: theme")
        try configuration.write(toFile: directory + "/kb.yaml", atomically: true, encoding: .utf8)
        let result = TestSupport.kb(["build"], in: directory)
        #expect(result.code == 0, "\(result.stderr)")
        let built = SiteTestSupport.snapshot(directory + "/_site")
        #expect(SiteTestSupport.text(built["assets/style.css"]) == "body { color: rebeccapurple }\n")
        #expect(SiteTestSupport.text(built["assets/logo.txt"]) == "team logo\n")
        // Files the folder does not have come from the built-in theme.
        #expect(built["assets/app.js"] != nil && built["assets/search-core.js"] != nil)
        // `kb theme list` says which are overridden.
        let list = TestSupport.kb(["theme", "list"], in: directory)
        #expect(list.stdout.contains("assets/style.css  (overridden by theme/assets/style.css)"), "\(list.stdout)")
    }

    @Test func missingThemeFolderIsAnError() {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "en"], in: "/").code == 0)
        // Named in kb.yaml: reported at the value before anything runs.
        TestSupport.write("theme: my-theme\n", to: directory + "/kb.yaml")
        let result = TestSupport.kb(["build"], in: directory)
        #expect(result.code == 1)
        #expect(result.stderr.contains("kb.yaml:1:8: error: 'theme' names my-theme, which is not a folder"), "\(result.stderr)")
        // Named by KB_SITE: the build's load step says so.
        TestSupport.write("title: T\n", to: directory + "/kb.yaml")
        let fromEnvironment = TestSupport.kb(["build"], in: directory, environment: ["KB_SITE": directory + "/nope"])
        #expect(fromEnvironment.code == 1)
        #expect(fromEnvironment.stderr.contains("the theme folder is missing (it is named by kb.yaml's 'theme' or by KB_SITE"), "\(fromEnvironment.stderr)")
    }

    @Test func ejectWritesTheBuiltInFilesOnce() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let first = TestSupport.kb(["theme", "eject", "custom"], in: directory)
        #expect(first.code == 0, "\(first.stderr)")
        for path in BuiltInTheme.paths {
            let data = FileManager.default.contents(atPath: directory + "/custom/" + path)
            #expect(data.map { [UInt8]($0) } == BuiltInTheme.files[path], "\(path)")
        }
        // Never overwrites: an edited file stays as it is.
        TestSupport.write("edited\n", to: directory + "/custom/assets/style.css")
        let second = TestSupport.kb(["theme", "eject", "custom"], in: directory)
        #expect(second.code == 1)
        #expect(second.stderr.contains("already has assets/"), "\(second.stderr)")
        #expect(try String(contentsOfFile: directory + "/custom/assets/style.css", encoding: .utf8) == "edited\n")
    }
}

/// A knowledge base whose entries are not checked against the navigation-bar model has no page about it.
@Suite struct ModelPagePresenceTests {
    @Test func onlyWhenAnEntryUsesTheModel() throws {
        let directory = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(TestSupport.kb(["init", directory, "--lang", "en"], in: "/").code == 0)
        #expect(TestSupport.kb(["build"], in: directory).code == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/_site/model/navigation-bar/index.html"))
        let sitemap = try String(contentsOfFile: directory + "/_site/sitemap.xml", encoding: .utf8)
        #expect(!sitemap.contains("model/navigation-bar"))
        #expect(SiteTestSupport.brokenLinks(in: directory + "/_site").isEmpty)
        // This repository's iOS entries are checked against it: the page is there.
        let site = TestSupport.temporaryDirectory()
        defer { TestSupport.remove(site) }
        #expect(TestSupport.kb(["build", "--out", site + "/out"], in: TestSupport.repositoryRoot, environment: ["KB_CACHE": site + "/cache"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: site + "/out/model/navigation-bar/index.html"))
    }
}
