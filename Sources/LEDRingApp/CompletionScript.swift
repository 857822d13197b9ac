/// `ledring completion bash|zsh|fish`: completion scripts made from `CommandLineTable`, the
/// table the parsers read, so a shell offers exactly the verbs and options ledring takes, and
/// the fixed words their values may be (`--format ansi|json|…`, `--driver` kinds, `power on|off`).
enum CompletionScript {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, nil for a shell there is none for.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    /// A command the scripts complete: the one-shot command (verb "") or a verb.
    struct Command {
        let verb: String
        let summary: String
        let options: [OptionSpec]
        let words: [String]
        let takesFiles: Bool
    }

    static var commands: [Command] {
        [Command(verb: "", summary: "", options: CommandLineTable.options(of: nil), words: [], takesFiles: false)]
            + CommandLineTable.verbs.map { spec in
                Command(verb: spec.name, summary: spec.summary, options: spec.allOptions,
                        words: spec.name == "help" ? VerbLine.verbs : spec.words, takesFiles: spec.takesFiles)
            }
    }

    /// Options written before the verb whose value is the next word, so the scripts do not take
    /// that value for the verb (`ledring --socket stop set …`).
    static var valueOptionsBeforeVerb: [String] {
        var names = CommandLineTable.options(of: nil).filter { $0.takesValue }.flatMap { $0.names }
        for (name, takesValue) in CommandLineTable.beforeVerb.sorted(by: { $0.key < $1.key }) where takesValue && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// How a value is completed.
    enum ValueCompletion: Equatable {
        case words([String]), files, directories, nothing

        init(_ option: OptionSpec) {
            switch option.value {
            case .file: self = .files
            case .directory: self = .directories
            case .choice, .named, .board: self = .words(option.choices)
            case .flag, .text: self = .nothing
            }
        }
    }

    /// Each way of completing a value, with the `verb option` pairs it is for, in table order.
    static func valueCases() -> [(ValueCompletion, [String])] {
        var cases: [(ValueCompletion, [String])] = []
        for command in commands {
            for option in command.options where option.takesValue {
                let completion = ValueCompletion(option)
                let pairs = option.names.filter { $0.hasPrefix("--") }.map { command.verb + " " + $0 }
                if let i = cases.firstIndex(where: { $0.0 == completion }) {
                    cases[i].1 += pairs
                } else {
                    cases.append((completion, pairs))
                }
            }
        }
        return cases
    }

    static func header(_ shell: String) -> String {
        "made by `ledring completion \(shell)` from the table ledring's command line is parsed by"
    }

    static func single(_ text: String) -> String {
        "'" + text.flatMap { $0 == "'" ? Array("'\\''") : [$0] } + "'"
    }

    // MARK: bash

    static func bash() -> String {
        let verbs = VerbLine.verbs.joined(separator: " ")
        var out = """
        # bash completion for ledring, \(header("bash")).
        #   ledring completion bash > ~/.local/share/bash-completion/completions/ledring
        # or, for this shell only: source <(ledring completion bash)
        _ledring() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb= word i
            # bash splits --name=value at "=": complete the value of --name.
            if [[ $cur == = ]]; then cur=; elif [[ $prev == = && $COMP_CWORD -gt 1 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                case $word in
                    \(valueOptionsBeforeVerb.joined(separator: "|"))) ((i++)) ;;
                    \(VerbLine.verbs.joined(separator: "|"))) verb=$word; break ;;
                esac
            done
            case "$verb $prev" in

        """
        for (completion, pairs) in valueCases() {
            out += "        " + pairs.map(single).joined(separator: "|") + ")\n            "
            switch completion {
            case .words(let words): out += "COMPREPLY=($(compgen -W \(single(words.joined(separator: " "))) -- \"$cur\"))"
            case .files: out += "COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null"
            case .directories: out += "COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null"
            case .nothing: out += "COMPREPLY=()"
            }
            out += "\n            return ;;\n"
        }
        out += """
            esac
            if [[ $cur == -* ]]; then
                case $verb in

        """
        for command in commands {
            let names = command.options.flatMap { $0.names }.joined(separator: " ")
            out += "            \(single(command.verb))) COMPREPLY=($(compgen -W \(single(names)) -- \"$cur\")) ;;\n"
        }
        out += """
                esac
            elif [[ -z $verb ]]; then
                COMPREPLY=($(compgen -W \(single(verbs)) -- "$cur"))
            else
                case $verb in

        """
        for command in commands where !command.verb.isEmpty && (!command.words.isEmpty || command.takesFiles) {
            out += "            \(command.verb)) COMPREPLY=("
            out += command.takesFiles ? "$(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null ;;\n"
                                      : "$(compgen -W \(single(command.words.joined(separator: " "))) -- \"$cur\")) ;;\n"
        }
        out += """
                esac
            fi
        }
        complete -F _ledring ledring

        """
        return out
    }

    // MARK: zsh

    /// `name:what it does` for _describe, in a single-quoted word.
    static func described(_ name: String, _ summary: String) -> String {
        single(name.flatMap { $0 == ":" ? Array("\\:") : [$0] } + ":" + summary)
    }

    static func zsh() -> String {
        var out = """
        #compdef ledring
        # zsh completion for ledring, \(header("zsh")).
        #   ledring completion zsh > ~/.zfunc/_ledring   (with fpath+=(~/.zfunc) before compinit)
        # or, for this shell only (after compinit): source <(ledring completion zsh)
        _ledring() {
          local cur=${words[CURRENT]} prev=${words[CURRENT-1]} verb= i
          local -a described
          # --name=value: complete the value of --name.
          if [[ $cur == --*=* ]]; then
            prev=${cur%%=*}
            compset -P '*='
          fi
          for (( i = 2; i < CURRENT; i++ )); do
            case ${words[i]} in
              (\(valueOptionsBeforeVerb.joined(separator: "|"))) (( i++ )) ;;
              (\(VerbLine.verbs.joined(separator: "|"))) verb=${words[i]}; break ;;
            esac
          done
          case "$verb $prev" in

        """
        for (completion, pairs) in valueCases() {
            out += "    (" + pairs.map(single).joined(separator: "|") + ")\n      "
            switch completion {
            case .words(let words): out += "compadd -- " + words.map(single).joined(separator: " ")
            case .files: out += "_files"
            case .directories: out += "_files -/"
            case .nothing: out += "_message 'a value'"
            }
            out += "\n      return ;;\n"
        }
        out += """
          esac
          if [[ $cur == -* ]]; then
            case $verb in

        """
        for command in commands {
            out += "      (\(single(command.verb))) described=(\n"
            for option in command.options {
                for name in option.names {
                    out += "        " + described(name, option.summary) + "\n"
                }
            }
            out += "      ) ;;\n"
        }
        out += """
            esac
            _describe -t options 'ledring option' described
          elif [[ -z $verb ]]; then
            described=(

        """
        for command in commands where !command.verb.isEmpty {
            out += "      " + described(command.verb, command.summary) + "\n"
        }
        out += """
            )
            _describe -t commands 'ledring verb' described
          else
            case $verb in

        """
        for command in commands where !command.verb.isEmpty && (!command.words.isEmpty || command.takesFiles) {
            out += "      (\(command.verb)) "
            out += command.takesFiles ? "_files ;;\n" : "compadd -- " + command.words.map(single).joined(separator: " ") + " ;;\n"
        }
        out += """
            esac
          fi
        }
        if [[ $funcstack[1] == _ledring ]]; then
          _ledring "$@"
        else
          compdef _ledring ledring
        fi

        """
        return out
    }

    // MARK: fish

    static func fishQuoted(_ text: String) -> String {
        "'" + text.flatMap { $0 == "'" || $0 == "\\" ? ["\\", $0] : [$0] } + "'"
    }

    static func fish() -> String {
        var out = """
        # fish completion for ledring, \(header("fish")).
        #   ledring completion fish > ~/.config/fish/completions/ledring.fish
        # The verb on the command line being completed ("" before one).
        function __ledring_verb
            set -l words (commandline -opc)
            set -e words[1]
            set -l skip 0
            for word in $words
                if test $skip = 1
                    set skip 0
                    continue
                end
                switch $word
                    case \(valueOptionsBeforeVerb.joined(separator: " "))
                        set skip 1
                    case \(VerbLine.verbs.joined(separator: " "))
                        echo $word
                        return
                end
            end
        end
        function __ledring_is
            set -l verb (__ledring_verb)
            test "$verb" = "$argv[1]"
        end
        complete -c ledring -f

        """
        for command in commands {
            let condition = "-n " + fishQuoted("__ledring_is " + (command.verb.isEmpty ? "''" : command.verb))
            for option in command.options {
                var line = "complete -c ledring " + condition
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l " + String(name.dropFirst(2)) : " -s " + String(name.dropFirst())
                }
                if option.takesValue {
                    switch ValueCompletion(option) {
                    case .words(let words): line += " -x -a " + fishQuoted(words.joined(separator: " "))
                    case .files: line += " -r -F"
                    case .directories: line += " -x -a '(__fish_complete_directories (commandline -ct))'"
                    case .nothing: line += " -x"
                    }
                }
                out += line + " -d " + fishQuoted(option.summary) + "\n"
            }
            if command.verb.isEmpty {
                for verb in CommandLineTable.verbs {
                    out += "complete -c ledring \(condition) -a \(verb.name) -d \(fishQuoted(verb.summary))\n"
                }
            } else if command.takesFiles {
                out += "complete -c ledring \(condition) -F\n"
            } else if !command.words.isEmpty {
                out += "complete -c ledring \(condition) -a \(fishQuoted(command.words.joined(separator: " ")))\n"
            }
        }
        return out
    }
}
