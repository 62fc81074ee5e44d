import KBCore
import KBSearch
import KBScenarios
/// The rule catalogue of the navigation-bar model (`model/navigation-bar/index.html`), made from
/// the same rule table as the model and docs/model/navigation-bar.md, with the entries whose
/// check results exercised each rule.
struct ModelPageRenderer {
    let index: SiteIndex
    let base: BaseURL
    var settings = SiteSettings()

    func render(rules: [NavigationBarRule] = NavigationBarRules.catalogue) -> String {
        let layout = PageLayout(path: SitePaths.navigationBarModel, lang: "en", strings: .english, base: base, settings: settings)
        var usedBy: [String: [SiteListing]] = [:]
        for (position, entry) in index.entries.enumerated() {
            let exercised = Set(index.checks[position]?.attempts.flatMap(\.rules) ?? [])
            for rule in exercised { usedBy[rule, default: []].append(entry) }
        }
        var main = "<h1>The navigation-bar model</h1>\n"
        main += "<p>The iOS entries' scenarios run against this model, not a device: a small, deterministic simulation of how UIKit and SwiftUI navigation bars resolve their appearance, written from documented platform rules and labelled field observations. Each scenario's check result lists the rules it exercised; <code>kb check --explain ID</code> prints the trace. When a platform release changes a rule, that one rule changes here and the checks show which records no longer hold.</p>\n"
        // On a narrow screen each row shows as a block with its cells labelled (`data-label`,
        // style.css); the roles keep it a table for assistive technology.
        let columns = ["Rule", "Statement", "Source", "iOS", "Exercised by"]
        main += "<table class=\"rule-table\" role=\"table\">\n<thead role=\"rowgroup\"><tr role=\"row\">"
            + columns.map { "<th scope=\"col\" role=\"columnheader\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody role=\"rowgroup\">\n"
        func cell(_ column: Int, _ content: String) -> String {
            "<td role=\"cell\" \(HTML.attribute("data-label", columns[column]))>\(content)</td>"
        }
        for rule in rules {
            let sources = rule.source.split(separator: ";").map { part -> String in
                let text = part.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("http") { return "<a \(HTML.href(text))>\(HTML.escape(text))</a>" }
                if text.hasPrefix("field observation: ") {
                    let ids = text.dropFirst("field observation: ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    return "field observation: " + ids.map { id in
                        index.entry(id: id) != nil ? "<a \(HTML.href(layout.link(SitePaths.entry(id))))>\(HTML.escape(id))</a>" : HTML.escape(id)
                    }.joined(separator: ", ")
                }
                return HTML.escape(text)
            }.joined(separator: "; ")
            let entries = (usedBy[rule.id] ?? []).map { "<a \(HTML.href(layout.link($0.path) + "#checks"))>\(HTML.escape($0.id))</a>" }.joined(separator: ", ")
            main += "<tr role=\"row\" \(HTML.attribute("id", rule.id))><th scope=\"row\" role=\"rowheader\">\(HTML.escape(rule.id))</th>"
                + cell(1, HTML.escape(rule.statement)) + cell(2, sources)
                + cell(3, rule.osVersions.map(String.init).joined(separator: ", ")) + cell(4, entries) + "</tr>\n"
        }
        main += "</tbody>\n</table>\n"
        return layout.document(title: "The navigation-bar model — " + settings.title, siteTitle: false,
                               description: "The rules of the navigation-bar model the iOS entries' scenarios are checked against.",
                               main: main, bodyClass: "page-model")
    }
}
