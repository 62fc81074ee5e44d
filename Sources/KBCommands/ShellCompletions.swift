import KBCore
import KBSearch
import KBScenarios
import KBSite
/// Completion scripts for bash, zsh and fish, made from the commands' declarations: subcommand
/// names with their abstracts, each command's options (with their fixed choices, folders or
/// files as values) and what its positional arguments take.
public struct ShellCompletions: Sendable {
    public enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish
    }

    let commands: [CommandConfiguration]

    public init(commands: [CommandConfiguration]) {
        self.commands = commands
    }

    public func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    /// What a value of an option is: fixed words, a folder, a file, or free text.
    enum ValueKind: Equatable {
        case words([String])
        case directories
        case files
        /// The knowledge base's entry ids, asked of kb when completing.
        case entryIDs
        case text
    }

    static func valueKind(_ option: CommandConfiguration.Option) -> ValueKind {
        if !option.choices.isEmpty { return .words(option.choices) }
        switch option.valueName {
        case "id": return .entryIDs
        case "dir": return .directories
        case "file", "reports", "table": return .files
        default: return .text
        }
    }

    /// What each positional argument takes, in order; the last also applies to any further
    /// arguments when it repeats (`<paths> ...`).
    static func positions(_ configuration: CommandConfiguration, commandNames: [String]) -> (kinds: [ValueKind?], repeats: Bool) {
        let kinds = configuration.arguments.map { argument -> ValueKind? in
            switch argument.completion {
            case .none: return nil
            case .files: return .files
            case .directories: return .directories
            case .words(let words): return .words(words)
            case .subcommands: return .words(commandNames)
            case .entryIDs: return .entryIDs
            }
        }
        let repeats = configuration.arguments.last?.repeats ?? false
        return (kinds, repeats)
    }

    /// Every option name that takes a value, so the scripts can skip its value when counting arguments.
    var valueOptions: [String] {
        Array(Set((commands.flatMap(\.options) + CommandConfiguration.commonOptions).filter { $0.valueName != nil }.flatMap(\.names))).sorted()
    }

    var names: [String] { commands.map(\.name) }

    // MARK: bash

    var bash: String {
        let topLevel = (names + ["help"] + KBCommandLine.topLevelOptions.map(\.key)).joined(separator: " ")
        var out = """
        # bash completion for kb (made by `kb completions bash`).
        # The index, among the subcommand's arguments, of the word being completed (option values skipped).
        _kb_position() {
            local j position=0 skip=0
            for ((j = $1 + 1; j < COMP_CWORD; j++)); do
                if ((skip)); then skip=0; continue; fi
                case "${COMP_WORDS[j]}" in
                    \(valueOptions.joined(separator: "|"))) skip=1 ;;
                    -*) ;;
                    *) ((position++)) ;;
                esac
            done
            echo "$position"
        }
        _kb() {
            local cur prev cmd i
            cur="${COMP_WORDS[COMP_CWORD]}"
            prev="${COMP_WORDS[COMP_CWORD-1]}"
            cmd=""
            for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --root) ((i++)) ;;
                    -*) ;;
                    *) cmd="${COMP_WORDS[i]}"; break ;;
                esac
            done
            if [[ -z "$cmd" ]]; then
                if [[ "$prev" == --root ]]; then
                    COMPREPLY=($(compgen -d -- "$cur"))
                    return
                fi
                COMPREPLY=($(compgen -W "\(topLevel)" -- "$cur"))
                return
            fi
            case "$cmd" in

        """
        for command in commands + [helpConfiguration] {
            out += "        \(command.name))\n            case \"$prev\" in\n"
            for option in command.options where option.valueName != nil {
                let pattern = option.names.joined(separator: "|")
                out += "                \(pattern)) \(Self.bashReply(Self.valueKind(option))); return ;;\n"
            }
            out += "            esac\n"
            let optionWords = command.options.flatMap(\.names).joined(separator: " ")
            out += "            if [[ \"$cur\" == -* ]]; then\n"
            out += "                COMPREPLY=($(compgen -W \"\(optionWords)\" -- \"$cur\"))\n"
            out += "            else\n"
            let (kinds, repeats) = Self.positions(command, commandNames: names)
            out += "                case $(_kb_position \"$i\") in\n"
            for (k, kind) in kinds.enumerated() {
                let pattern = k == kinds.count - 1 && repeats ? "*" : String(k)
                out += "                    \(pattern)) \(kind.map(Self.bashReply) ?? "COMPREPLY=()") ;;\n"
            }
            if !(repeats && !kinds.isEmpty) { out += "                    *) COMPREPLY=() ;;\n" }
            out += "                esac\n"
            out += "            fi\n            ;;\n"
        }
        out += """
            esac
        }
        complete -F _kb kb

        """
        return out
    }

    /// `kb help <subcommand>`, which is not a command type of its own.
    var helpConfiguration: CommandConfiguration {
        CommandConfiguration(name: "help", abstract: "Show help for a subcommand.",
                             arguments: [.init("subcommand", help: "The subcommand.", completion: .subcommands)])
    }

    static func bashReply(_ kind: ValueKind) -> String {
        switch kind {
        case .words(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        case .directories: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
        case .files: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .entryIDs: return "COMPREPLY=($(compgen -W \"$(kb list --format ids 2>/dev/null)\" -- \"$cur\"))"
        case .text: return "COMPREPLY=()"
        }
    }

    // MARK: zsh

    var zsh: String {
        var out = """
        #compdef kb
        # zsh completion for kb (made by `kb completions zsh`).
        _kb() {
          local -a subcommands
          subcommands=(

        """
        for command in commands + [helpConfiguration] {
            out += "    \(Self.zshQuote(command.name + ":" + command.abstract.replacingOccurrences(of: ":", with: "\\:")))\n"
        }
        out += """
          )
          # Common options may come before the subcommand (kb --root DIR search …).
          local i=2
          while (( i < CURRENT )) && [[ $words[i] == -* ]]; do
            [[ $words[i] == --root ]] && (( i++ ))
            (( i++ ))
          done
          if (( CURRENT == i )); then
            if [[ $words[i-1] == --root ]]; then _files -/; return; fi
            if [[ $PREFIX == -* ]]; then compadd -- \(KBCommandLine.topLevelOptions.map(\.key).joined(separator: " ")); return; fi
            _describe -t commands 'kb subcommand' subcommands
            return
          fi
          local cmd=$words[i]
          words=(${words[i,-1]})
          (( CURRENT -= i - 1 ))
          case $cmd in

        """
        for command in commands + [helpConfiguration] {
            var specs: [String] = []
            for option in command.options {
                for name in option.names {
                    var spec = name + "[" + Self.zshBracket(option.help) + "]"
                    if let value = option.valueName {
                        switch Self.valueKind(option) {
                        case .words(let words): spec += ":\(value):(\(words.joined(separator: " ")))"
                        case .directories: spec += ":\(value):_files -/"
                        case .files: spec += ":\(value):_files"
                        case .entryIDs: spec += ":\(value):\(Self.zshEntryIDs)"
                        case .text: spec += ":\(value): "
                        }
                    }
                    specs.append(Self.zshQuote(spec))
                }
            }
            let (kinds, repeats) = Self.positions(command, commandNames: names)
            for (k, (argument, kind)) in zip(command.arguments, kinds).enumerated() {
                let position = k == kinds.count - 1 && repeats ? "*" : String(k + 1)
                let action: String
                switch kind {
                case .files?: action = "_files"
                case .directories?: action = "_files -/"
                case .words(let words)?: action = "(\(words.joined(separator: " ")))"
                case .entryIDs?: action = Self.zshEntryIDs
                case .text?, nil: action = " "
                }
                specs.append(Self.zshQuote("\(position):\(argument.name):\(action)"))
            }
            out += "    \(command.name))\n      _arguments -s \\\n"
            out += specs.map { "        \($0)" }.joined(separator: " \\\n") + "\n      ;;\n"
        }
        out += """
          esac
        }
        _kb "$@"

        """
        return out
    }

    /// A zsh action offering the entry ids kb lists.
    static let zshEntryIDs = "{compadd -- ${(f)\"$(kb list --format ids 2>/dev/null)\"}}"

    /// A single-quoted zsh word.
    static func zshQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Help text inside `_arguments`' brackets.
    static func zshBracket(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
            .replacingOccurrences(of: ":", with: "\\:")
    }

    // MARK: fish

    var fish: String {
        var lines = [
            "# fish completion for kb (made by `kb completions fish`).",
            "complete -c kb -f",
            "complete -c kb -n __fish_use_subcommand -l root -x -a '(__fish_complete_directories)' -d \(Self.fishQuote("The knowledge base to use."))",
            "complete -c kb -n __fish_use_subcommand -l verbose -d \(Self.fishQuote("Say which knowledge base and settings are used."))",
            "complete -c kb -n __fish_use_subcommand -l version -d \(Self.fishQuote("Show the version."))",
        ]
        for command in commands + [helpConfiguration] {
            lines.append("complete -c kb -n __fish_use_subcommand -a \(command.name) -d \(Self.fishQuote(command.abstract))")
        }
        for command in commands + [helpConfiguration] {
            let condition = "-n " + Self.fishQuote("__fish_seen_subcommand_from \(command.name)")
            for option in command.options {
                var line = "complete -c kb \(condition)"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
                }
                if option.valueName != nil {
                    switch Self.valueKind(option) {
                    case .words(let words): line += " -x -a " + Self.fishQuote(words.joined(separator: " "))
                    case .directories: line += " -x -a '(__fish_complete_directories)'"
                    case .files: line += " -r -F"
                    case .entryIDs: line += " -x -a '(kb list --format ids 2>/dev/null)'"
                    case .text: line += " -x"
                    }
                }
                lines.append(line + " -d " + Self.fishQuote(option.help))
            }
            // The first argument after the subcommand; a later one after the words of the one before
            // it (kb theme eject <dir>).
            let (kinds, _) = Self.positions(command, commandNames: names)
            for (k, kind) in kinds.enumerated() {
                var when = condition
                if k > 0 {
                    guard case .words(let previous)? = kinds[k - 1] else { continue }
                    when = "-n " + Self.fishQuote("__fish_seen_subcommand_from \(command.name); and __fish_seen_subcommand_from \(previous.joined(separator: " "))")
                } else if kinds.count > 1, case .words(let own)? = kind {
                    when = "-n " + Self.fishQuote("__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from \(own.joined(separator: " "))")
                }
                switch kind {
                case .files?: lines.append("complete -c kb \(when) -F")
                case .directories?: lines.append("complete -c kb \(when) -x -a '(__fish_complete_directories)'")
                case .words(let words)?: lines.append("complete -c kb \(when) -x -a " + Self.fishQuote(words.joined(separator: " ")))
                case .entryIDs?: lines.append("complete -c kb \(when) -x -a '(kb list --format ids 2>/dev/null)'")
                case .text?, nil: break
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A single-quoted fish word.
    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
