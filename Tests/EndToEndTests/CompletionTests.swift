import Foundation
@testable import LEDRingApp
import Testing

/// `ledring completion bash|zsh|fish`: each script, run by its shell, completes what the option
/// table (the parsers' own) says.
@Suite struct CompletionTests {
    static let zsh = "/usr/bin/zsh"
    static let fish = "/usr/bin/fish"

    func script(_ shell: String) throws -> String {
        let result = try LedringProcess.run(["completion", shell])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The script in a file, for the shells to source.
    func scriptFile(_ shell: String) throws -> String {
        let path = NSTemporaryDirectory() + "ledring-completion-\(getpid())-\(UUID().uuidString).\(shell)"
        try script(shell).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func shell(_ path: String, _ arguments: [String]) throws -> LedringProcess.Result {
        try LedringProcess.run(arguments, executable: URL(fileURLWithPath: path))
    }

    static func choices(_ option: String, of verb: String? = nil) -> [String] {
        CommandLineTable.find(option, in: CommandLineTable.options(of: verb))?.choices ?? []
    }

    /// Command lines being completed (the last word is the one under the cursor, as bash splits
    /// them: `--format=` is three words) and what must be offered.
    static let cases: [([String], [String])] = [
        (["ledring", "se"], ["set"]),
        (["ledring", ""], VerbLine.verbs),
        (["ledring", "set", "--dur"], ["--duration"]),
        (["ledring", "--simulat"], ["--simulate"]),
        (["ledring", "--format", ""], choices("--format")),
        (["ledring", "--format", "=", ""], choices("--format")),
        (["ledring", "--format", "=", "j"], ["json"]),
        (["ledring", "run", "--format", ""], choices("--format", of: "run")),
        (["ledring", "--shape", ""], ["ring", "pie", "bar"]),
        (["ledring", "--driver", "ws"], ["ws2812-spi", "ws2813-spi"]),
        (["ledring", "--curve", "ease"], ["easeIn", "easeOut", "easeInOut"]),
        (["ledring", "power", ""], ["on", "off"]),
        (["ledring", "--socket", "/tmp/x", "set", "--c"], ["--curve"]),
        (["ledring", "--simulate", "--set", "move=1", "--fr"], ["--frames"]),
        (["ledring", "timer", "focus", "25m", "--un"], ["--until"]),
        (["ledring", "completion", ""], ["bash", "zsh", "fish"]),
        (["ledring", "help", "fe"], ["feed"]),
    ]

    @Test func bashCompletesFromTheTable() throws {
        let file = try scriptFile("bash")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var all = Self.cases
        // Every verb's options, and nothing else.
        for verb in CommandLineTable.verbs {
            all.append((["ledring", verb.name, "-"], verb.allOptions.flatMap { $0.names }))
        }
        all.append((["ledring", "-"], CommandLineTable.options(of: nil).flatMap { $0.names }))
        for (words, expected) in all {
            let result = try shell("/bin/bash", ["-c", """
                source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _ledring; printf '%s\\n' "${COMPREPLY[@]}"
                """, "bash", file] + words)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
            let offered = result.stdout.split(separator: "\n").map(String.init)
            #expect(offered == expected, "\(words)")
        }
        // The way the brief and the help put it: straight from the program.
        let direct = try shell("/bin/bash", ["-c", """
            source <("$1" completion bash); COMP_WORDS=(ledring se); COMP_CWORD=1; _ledring; echo "${COMPREPLY[@]}"; complete -p ledring
            """, "bash", LedringProcess.executable.path])
        #expect(direct.stdout == "set\ncomplete -F _ledring ledring\n", "\(direct.stdout) \(direct.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: zsh) || inCI, "needs zsh (apt install zsh)"))
    func zshParsesRegistersAndCompletesFromTheTable() throws {
        let file = try scriptFile("zsh")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parsed = try shell(Self.zsh, ["-n", file])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed.stderr)")
        let registered = try shell(Self.zsh, ["-f", "-c", "autoload -Uz compinit; compinit -u -D; source \"$1\"; print -r -- ${_comps[ledring]}",
                                              "zsh", file])
        #expect(registered.stdout == "_ledring\n", "\(registered.stdout) \(registered.stderr)")
        // The function with the completion system's builtins standing in: what it would offer
        // (zsh itself then keeps the candidates that match the word under the cursor).
        let stubs = """
            compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
            _describe() { local -a items; items=("${(@P)${@[-1]}}"); print -rl -- "${items[@]%%:*}" }
            _files() { print -r -- FILES }
            _message() { print -r -- MESSAGE }
            compset() { return 0 }
            compdef() { return 0 }
            """
        var all = Self.cases.filter { !$0.0.contains("=") }
        for verb in CommandLineTable.verbs {
            all.append((["ledring", verb.name, "-"], verb.allOptions.flatMap { $0.names }))
        }
        for (words, expected) in all {
            let result = try shell(Self.zsh, ["-f", "-c", stubs + "\nsource \"$1\"; shift; words=(\"$@\"); CURRENT=$#; _ledring",
                                              "zsh", file] + words)
            #expect(result.stderr.isEmpty, "\(words): \(result.stderr)")
            let prefix = words[words.count - 1]
            let offered = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
            #expect(offered == expected, "\(words)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: fish) || inCI, "needs fish (apt install fish)"))
    func fishParsesAndCompletesFromTheTable() throws {
        let file = try scriptFile("fish")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parsed = try shell(Self.fish, ["--no-execute", file])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "\(parsed.stderr)")
        var all = Self.cases.filter { !$0.0.contains("=") }
        for verb in CommandLineTable.verbs {
            all.append((["ledring", verb.name, "--"], verb.allOptions.flatMap { $0.names }.filter { $0.hasPrefix("--") }))
        }
        for (words, expected) in all {
            let line = words.joined(separator: " ")
            let result = try shell(Self.fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", file, line])
            #expect(result.stderr.isEmpty, "\(line): \(result.stderr)")
            // `complete -C` prints "candidate<TAB>description", sorted.
            let offered = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
            #expect(offered.sorted() == expected.sorted(), "\(line)")
        }
    }

    /// Every verb and every option of the table is in each script.
    @Test(arguments: CompletionScript.shells)
    func everyVerbAndOptionIsInTheScript(shell: String) throws {
        let text = try script(shell)
        for verb in VerbLine.verbs {
            #expect(text.contains(verb), "\(shell): \(verb)")
        }
        for option in CompletionScript.commands.flatMap({ $0.options }) {
            for name in option.names {
                let written = shell == "fish" ? (name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())") : name
                #expect(text.contains(written), "\(shell): \(name)")
            }
        }
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try LedringProcess.run(["completion", "tcsh"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("ledring: completion: \"tcsh\": no completion for that shell; name bash, zsh or fish"))
        #expect(try LedringProcess.run(["completion"]).status == 64)
    }
}
