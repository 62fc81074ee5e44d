import KBCore
import KBSearch
import KBScenarios
import KBSite
/// kb(1) in roff: every subcommand's overview, usage, arguments and options, from the same
/// declarations as `kb help`.
public struct ManualPage: Sendable {
    let commands: [CommandConfiguration]

    public init(commands: [CommandConfiguration]) {
        self.commands = commands
    }

    public var roff: String {
        var out = [
            ".TH KB 1 \"\" \"kb \(Self.escape(TroubleshootKBVersion.string))\" \"User Commands\"",
            // No hyphenation: identifiers (toolbarColorScheme, --base-url) must not be broken.
            ".nh",
            ".SH NAME",
            "kb \\- a multilingual troubleshooting knowledge base: entries, search, checks and a static site",
            ".SH SYNOPSIS",
            ".B kb",
            "[\\fB\\-\\-root\\fR \\fIdir\\fR] [\\fB\\-\\-verbose\\fR] \\fIsubcommand\\fR [\\fIoptions\\fR]",
            ".SH DESCRIPTION",
            Self.escape("kb keeps a team's troubleshooting knowledge: Markdown entries in any language (the symptom, each attempt and why it failed, the fix), executable check scenarios in Gherkin that say whether each record still reproduces, search by symptom from the terminal, and a static HTML site."),
            ".PP",
            Self.escape("Every command works on the knowledge base found from the working directory: the first folder here or above with a kb.yaml file (or an entries folder). --root DIR and KB_ROOT name one explicitly; default_root in the user's configuration is the last resort."),
            ".SH COMMANDS",
        ]
        for command in commands {
            out.append(".SS \"kb \(Self.escape(command.name))\"")
            out.append(Self.escape(command.abstract))
            if !command.discussion.isEmpty {
                out.append(".PP")
                out.append(Self.escape(command.discussion.split(separator: "\n").joined(separator: " ")))
            }
            out.append(".PP")
            out.append("Usage: \\fB" + Self.escape(command.usage) + "\\fR")
            for argument in command.arguments {
                out.append(".TP")
                out.append("\\fI" + Self.escape(argument.name) + "\\fR")
                out.append(Self.escape(argument.help))
            }
            for option in command.ownOptions {
                out.append(".TP")
                let names = option.names.map { "\\fB" + Self.escape($0) + "\\fR" }.joined(separator: ", ")
                out.append(names + (option.valueName.map { " \\fI" + Self.escape($0) + "\\fR" } ?? ""))
                out.append(Self.escape(option.help))
            }
        }
        out += [
            ".SH OPTIONS",
            "Every subcommand takes these:",
        ]
        for option in CommandConfiguration.commonOptions {
            out.append(".TP")
            out.append(option.names.map { "\\fB" + Self.escape($0) + "\\fR" }.joined(separator: ", ") + (option.valueName.map { " \\fI" + Self.escape($0) + "\\fR" } ?? ""))
            out.append(Self.escape(option.help))
        }
        out += [".SH KB.YAML", Self.escape("The knowledge base's settings, at its root; every key is optional and paths are relative to the root.")]
        for (key, help) in KnowledgeBaseConfiguration.keys {
            out += [".TP", "\\fB" + Self.escape(key) + "\\fR", Self.escape(help)]
        }
        out += [".TP", "\\fBcheck.jobs\\fR, \\fBcheck.timeout\\fR", Self.escape("Defaults of kb check --jobs and --timeout.")]
        out += [
            ".SH ENVIRONMENT",
            ".TP", "\\fBKB_ROOT\\fR", "The knowledge base to use when --root is not given.",
            ".TP", "\\fBKB_ENTRIES\\fR", "The entries folder, relative to the working directory (overrides kb.yaml).",
            ".TP", "\\fBKB_SITE\\fR", "A theme folder whose files replace the built-in theme's (overrides kb.yaml).",
            ".TP", "\\fBKB_CACHE\\fR", "Where derived data goes (default: .kb under the root).",
            ".TP", "\\fBKB_BINARY\\fR", "The kb that scenarios' kb steps run (default: the running one).",
            ".TP", "\\fBNO_COLOR\\fR", "When set and not empty, no colour.",
            ".TP", "\\fBXDG_CONFIG_HOME\\fR", "Where the user configuration kb/config.yaml is (default: ~/.config).",
            ".SH FILES",
            ".TP", "\\fIkb.yaml\\fR", "The knowledge base's settings, at its root.",
            ".TP", "\\fI$XDG_CONFIG_HOME/kb/config.yaml\\fR", Self.escape("The user's settings: default_root, the knowledge base used when none is found from the working directory."),
            ".SH EXIT STATUS",
            "0 on success, 1 on failure (an error, a lint error, a stale check), 64 on a usage error.",
            "",
        ]
        return out.joined(separator: "\n")
    }

    /// Text for roff: backslashes, hyphens, and a leading dot or quote made literal.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
