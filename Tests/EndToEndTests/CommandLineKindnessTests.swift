import Foundation
import LEDRingNetTesting
@testable import LEDRingApp
import Testing

/// The small things a new user hit (issue 13), through the built binary.
@Suite struct CommandLineKindnessTests {
    /// Every verb of the table answers `--help` (and `-h`, and `ledring help VERB`) with its own
    /// help, not the general one, naming every option it takes.
    @Test(arguments: VerbLine.verbs)
    func everyVerbHasItsOwnHelp(verb: String) throws {
        let general = try LedringProcess.run(["--help"]).stdout
        for asked in [[verb, "--help"], [verb, "-h"], ["help", verb]] {
            let result = try LedringProcess.run(asked)
            #expect(result.status == 0, "\(asked): \(result.stderr)")
            #expect(result.stdout.hasPrefix("usage: ledring \(verb)"), "\(asked): \(result.stdout.prefix(200))")
            #expect(result.stdout != general && !result.stdout.contains("ledring — progress values"), "\(asked) printed the general help")
            #expect(result.stderr.isEmpty)
            for option in CommandLineTable.options(of: verb) {
                #expect(result.stdout.contains(option.name), "\(asked) does not list \(option.name)")
            }
        }
    }

    /// What timer takes beyond a duration: the time of day it runs to and its end's notification.
    @Test func timerHelpListsUntilAndNotify() throws {
        let help = try LedringProcess.run(["timer", "--help"]).stdout
        #expect(help.contains("--until HH:MM"))
        #expect(help.contains("--notify "))
        #expect(help.contains("--for DURATION"))
    }

    @Test func versionHasThreeSpellings() throws {
        let long = try LedringProcess.run(["--version"])
        #expect(long.status == 0 && long.stdout.hasPrefix("ledring ") && long.stdout.hasSuffix("\n"))
        for spelling in [["version"], ["-V"]] {
            let result = try LedringProcess.run(spelling)
            #expect(result.status == 0, "\(spelling): \(result.stderr)")
            #expect(result.stdout == long.stdout, "\(spelling)")
            #expect(result.stderr.isEmpty)
        }
        let extra = try LedringProcess.run(["version", "now"])
        #expect(extra.status == 64 && extra.stderr.contains("version: unexpected \"now\""))
    }

    @Test func helpForNoSuchVerbIsAUsageError() throws {
        let result = try LedringProcess.run(["help", "sett"])
        #expect(result.status == 64)
        #expect(result.stderr == "ledring: help: no verb \"sett\"; did you mean `set`? (`ledring --help` lists them)\n")
    }

    @Test func aMistypedVerbGetsASuggestion() throws {
        let result = try LedringProcess.run(["sett", "move=0.5"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean `set`?"))
        #expect(try LedringProcess.run(["stauts"]).stderr.contains("did you mean `status`?"))
    }

    /// An option one or two letters off is named, for the one-shot command and for each verb,
    /// from the same table the parser refused it by.
    @Test(arguments: [
        (["--simulat"], "ledring: unknown option \"--simulat\"; did you mean --simulate?\n"),
        (["--simulate", "--frmes", "1"], "ledring: unknown option \"--frmes\"; did you mean --frames?\n"),
        (["set", "--duraton", "2", "move=1"], "ledring: set: unknown option \"--duraton\"; did you mean --duration?\n"),
        (["run", "--simulate", "--stdn"], "ledring: run: unknown option \"--stdn\"; did you mean --stdin?\n"),
        (["notify", "--colr", "#ff0000", "--for", "1m"], "ledring: notify: unknown option \"--colr\"; did you mean --color?\n"),
        (["feed", "move", "--rnage", "0:100"], "ledring: feed: unknown option \"--rnage\"; did you mean --range?\n"),
        (["doctor", "--lesd", "3"], "ledring: doctor: unknown option \"--lesd\"; did you mean --leds?\n"),
        (["--set=move=1", "--simulate", "--realtme"], "ledring: unknown option \"--realtme\"; did you mean --realtime?\n"),
    ])
    func aMistypedOptionGetsASuggestion(arguments: [String], said: String) throws {
        let result = try LedringProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == said)
        #expect(result.stdout.isEmpty)
    }

    @Test func globalOptionsMayComeBeforeTheVerb() throws {
        let socket = NSTemporaryDirectory() + "ledring-none-\(getpid()).sock"
        let result = try LedringProcess.run(["--socket", socket, "set", "move", "50%"])
        // Parsed as `set --socket … move=50%`: it reaches the (absent) daemon on that socket.
        #expect(result.status == 69)
        #expect(result.stderr.contains("no ledring daemon is listening on \(socket)"))
    }

    @Test func manyLapsWithoutAPercentSignAreExplainedButDone() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--frames", "1", "--rings", "move:4", "--set", "move=50"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("move=50 means 50 laps = 5000 %; write 50% for half a ring"))
        let frame = try #require(try LedringProcess.jsonLines(result.stdout).first)
        let rings = try #require(frame["rings"] as? [[String: Any]])
        #expect(rings.first?["progress"] as? Double == 50)
        // The percentage as people write it, not as binary floating point has it.
        let laps = try LedringProcess.run(["--simulate", "--frames", "1", "--format", "text", "--set", "move=2.3"])
        #expect(laps.stderr.contains("move=2.3 means 2.3 laps = 230 %; write 2.3% for 2.3 % of a ring"), "\(laps.stderr)")
        // A percentage or a lap and a bit says nothing.
        #expect(try LedringProcess.run(["--simulate", "--frames", "1", "--format", "text", "--set", "move=1.3"]).stderr.isEmpty)
    }

    /// The one-shot command on a terminal (util-linux `script` gives it one): the picture in
    /// 24-bit colour by default, the text format and no escape at all under NO_COLOR (any
    /// value) or TERM=dumb; --format ansi asked for on the command line still draws.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || inCI, "needs script (util-linux)"),
          arguments: [
            (["NO_COLOR": "", "TERM": "xterm-256color"], [String](), true),
            (["NO_COLOR": "1", "TERM": "xterm-256color"], [String](), false),
            (["NO_COLOR": "0", "TERM": "xterm-256color"], [String](), false),
            (["NO_COLOR": "", "TERM": "dumb"], [String](), false),
            (["NO_COLOR": "1", "TERM": "xterm-256color"], ["--format", "ansi"], true),
          ])
    func noColorAndDumbTerminalsGetPlainText(environment: [String: String], extra: [String], escapes: Bool) throws {
        let command = (["'\(LedringProcess.executable.path)'", "--simulate", "--frames", "1", "--rings", "a:3", "--set", "a=0.5"] + extra)
            .joined(separator: " ")
        let result = try LedringProcess.run(["-q", "-e", "-c", command, "/dev/null"], environment: environment,
                                            executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\u{1b}") == escapes, "\(environment) \(extra): \(result.stdout.debugDescription)")
        if escapes {
            #expect(result.stdout.contains("\u{1b}[38;2;"))
        } else {
            #expect(result.stdout.contains("frame 0 t=0.000"), "\(result.stdout.debugDescription)")
        }
    }

    /// `feed` says, as `set` does, when a bare number means laps (`3` is 300 %), once for the
    /// stream, and still shows it; with --range, or written as a percentage, nothing is said.
    @Test func feedSaysWhenABareNumberMeansLaps() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        func feed(_ input: String, _ options: [String] = []) throws -> ChildProcess.Result {
            let feed = try ChildProcess(LedringProcess.executable.path, ["feed", "move", "--socket", daemon.socket] + options, stdin: .pipe)
            feed.write(input)
            return try feed.finish(timeout: 30)
        }
        let bare = try feed("0.5\n3\n5\n")
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stderr == "ledring feed: move=3 means 3 laps = 300 %; write 3% for 3 % of a ring, "
                + "or give --range 0:100 if the numbers are percentages\n", "\(bare.stderr)")
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.target) == 5 })
        let ranged = try feed("3\n50\n", ["--range", "0:100"])
        #expect(ranged.status == 0 && ranged.stderr.isEmpty, "\(ranged.stderr)")
        let percent = try feed("3%\n50%\n1.3\n")
        #expect(percent.status == 0 && percent.stderr.isEmpty, "\(percent.stderr)")
    }

    @Test func svgNeedsOneFrameOrADirectory() throws {
        let many = try LedringProcess.run(["--simulate", "--format", "svg", "--set", "move=0.5"])
        #expect(many.status == 64 && many.stderr.contains("--frames 1"))
        let one = try LedringProcess.run(["--simulate", "--format", "svg", "--frames", "1", "--set", "move=1.3"])
        #expect(one.status == 0)
        #expect(one.stdout.hasPrefix("<svg ") && one.stdout.hasSuffix("</svg>\n"))
        #expect(one.stdout.components(separatedBy: "<svg ").count == 2)
        let directory = NSTemporaryDirectory() + "ledring-svg-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try LedringProcess.run(["--simulate", "--svg-dir", directory, "--frames", "3", "--set", "move=1"])
        #expect(files.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["frame-00000.svg", "frame-00001.svg", "frame-00002.svg"])
    }
}
