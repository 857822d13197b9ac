import Foundation
import Testing
@testable import LEDRingApp

/// The option table is the parsers' own: every option in it is taken by its command's parser
/// (a switch where the table says switch, a value where it says value), and nothing else is.
@Suite struct CommandLineTableTests {
    /// Runs the parser of `verb` (nil: the one-shot command) over `arguments`.
    func parse(_ verb: String?, _ arguments: [String]) throws(CommandError) {
        switch verb {
        case nil: _ = try OneShotOptions(arguments)
        case "run"?: _ = try DaemonOptions(arguments)
        case "feed"?: _ = try FeedCommand.parse(arguments)
        case "boards"?: _ = try ToolCommands.boards(arguments)
        // The checks run against an empty root: quick, and nothing of this machine's is touched.
        case "doctor"?: _ = try ToolCommands.doctor(["--root", "/nonexistent-ledring-root"] + arguments)
        case let verb? where ClientCommand.verbs.contains(verb): _ = try ClientCommand.parse([verb] + arguments)
        case let verb?:
            // Verbs without a parser of their own take only what `LEDRingApp.main` answers.
            let options = CommandLineTable.options(of: verb).map { $0.name }
            #expect(options.allSatisfy { LEDRingApp.answeredByMain.contains($0) }, "\(verb): \(options)")
        }
    }

    /// What must come before an option for the parser to reach it.
    func lead(_ verb: String?, _ option: OptionSpec) -> [String] {
        let isNotice = CommandLineTable.notice.contains(option)
        return verb == "timer" && isNotice ? ["focus", "25m", "--notify"] : []
    }

    static let commands: [String?] = [nil] + CommandLineTable.verbs.map { $0.name }

    @Test(arguments: commands)
    func everyOptionInTheTableIsTakenByTheParser(verb: String?) throws {
        for option in CommandLineTable.options(of: verb) {
            for name in option.names {
                let lead = lead(verb, option)
                if option.takesValue {
                    // Asked for its value: the parser reads one.
                    var failure: CommandError?
                    do throws(CommandError) { try parse(verb, lead + [name]) } catch { failure = error }
                    #expect(failure?.code == .usage && failure?.message.contains("\(option.name) needs a value") == true,
                            "\(verb ?? "one-shot") \(name): \(failure?.message ?? "no error")")
                    let sample = option.choices.first ?? "1"
                    do throws(CommandError) { try parse(verb, lead + [name, sample]) } catch {
                        #expect(error.code != .software, "\(verb ?? "one-shot") \(name) \(sample): \(error.message)")
                    }
                } else {
                    do throws(CommandError) { try parse(verb, lead + [name]) } catch {
                        #expect(error.code != .software, "\(verb ?? "one-shot") \(name): \(error.message)")
                    }
                }
            }
        }
    }

    @Test func aMistypedOptionGetsTheNearestOne() {
        #expect(CommandLineTable.suggestion(for: "--simulat", among: CommandLineTable.options(of: nil)) == "--simulate")
        #expect(CommandLineTable.suggestion(for: "--duraton", among: CommandLineTable.options(of: "set")) == "--duration")
        #expect(CommandLineTable.suggestion(for: "--jsn", among: CommandLineTable.options(of: "get")) == "--json")
        #expect(CommandLineTable.suggestion(for: "--colr", among: CommandLineTable.options(of: "notify")) == "--color")
        // The only option it begins.
        #expect(CommandLineTable.suggestion(for: "--realt", among: CommandLineTable.options(of: nil)) == "--realtime")
        // Too far from anything, or too short to say.
        #expect(CommandLineTable.suggestion(for: "--bogus", among: CommandLineTable.options(of: nil)) == nil)
        #expect(CommandLineTable.suggestion(for: "--x", among: CommandLineTable.options(of: "timer")) == nil)
        // Only the command's own options are suggested.
        #expect(CommandLineTable.suggestion(for: "--simulat", among: CommandLineTable.options(of: "set")) == nil)
    }

    @Test func anOptionOfAnotherCommandSaysWhose() {
        let error = CommandLineTable.unknownOption("--range", verb: "set")
        #expect(error.code == .usage)
        #expect(error.message == "set: unknown option \"--range\" (an option of feed); " + (CommandLineTable.verb("set")?.usageLine ?? ""))
    }

    @Test func aSwitchTakesNoValue() {
        #expect(throws: CommandError.self) { try OneShotOptions(["--simulate", "--hdr=1"]) }
        do throws(CommandError) { _ = try ClientCommand.parse(["get", "--json=yes"]) } catch {
            #expect(error.message == "get: --json takes no value; write --json alone")
        }
    }

    /// `ledring --help` is written by hand: it names every option of the one-shot command, and
    /// no option that no command takes.
    @Test func theGeneralHelpNamesTheTablesOptions() {
        let text = Usage.text
        for option in CommandLineTable.options(of: nil) {
            #expect(text.contains(option.name), "ledring --help does not name \(option.name)")
        }
        let known = Set(CommandLineTable.options(of: nil).flatMap { $0.names }
                        + CommandLineTable.verbs.flatMap { $0.allOptions.flatMap { $0.names } })
        var tokens: [String] = []
        var current = ""
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "-" {
                current.append(character)
            } else {
                if current.hasPrefix("--"), current.count > 2 { tokens.append(current) }
                current = ""
            }
        }
        for token in tokens {
            #expect(known.contains(token), "ledring --help names \(token), which no command takes")
        }
    }
}
