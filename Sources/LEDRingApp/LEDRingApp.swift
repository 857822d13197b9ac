import LEDHardware
import LEDPresentation
import LEDWire
import Synchronization

/// The command-line program: parses arguments and runs the chosen command.
public enum LEDRingApp {
    /// The program's version.
    public static let version = "0.1.0"

    /// What `ledring version`, `-V` and `--version` print (tools/package.sh reads it).
    static var versionLine: String { "ledring \(version)\n" }

    /// The options `main` itself answers for every verb, before any parser sees them.
    static let answeredByMain = ["--help", "--man"]

    /// Runs ledring with `arguments` (without the program name) and returns its exit status.
    public static func main(_ given: [String]) -> Int32 {
        let arguments = VerbLine.normalised(given)
        do throws(CommandError) {
            if let verb = arguments.first, VerbLine.verbs.contains(verb), VerbLine.asksForHelp(arguments) {
                Terminal.write(VerbLine.help(verb))
                return ExitCode.ok.rawValue
            }
            if let word = arguments.first, let verb = VerbLine.suggestion(for: word) {
                throw CommandError.usage("unknown command \"\(word)\"; did you mean `\(verb)`? (`ledring --help` lists them)")
            }
            switch arguments.first {
            case "boards", "doctor":
                let rest = Array(arguments.dropFirst())
                let (code, text) = arguments.first == "boards"
                    ? try ToolCommands.boards(rest) : try ToolCommands.doctor(rest)
                Terminal.write(text)
                return code.rawValue
            case "check-config":
                let (code, text) = try CheckConfigCommand.run(Array(arguments.dropFirst()))
                Terminal.write(text)
                return code.rawValue
            case "run":
                return try Daemon.run(Array(arguments.dropFirst())).rawValue
            case let verb? where ClientCommand.verbs.contains(verb):
                return try ClientCommand.run(arguments).rawValue
            case "feed":
                return try FeedCommand.run(Array(arguments.dropFirst())).rawValue
            case "help":
                Terminal.write(try helpText(Array(arguments.dropFirst())))
                return ExitCode.ok.rawValue
            case "completion":
                let rest = Array(arguments.dropFirst())
                guard rest.count == 1, let script = CompletionScript.script(for: rest[0]) else {
                    let given = rest.first.map { "\"\($0)\": no completion for that shell; " } ?? ""
                    throw .usage("completion: \(given)name bash, zsh or fish, e.g. ledring completion bash > ~/.local/share/bash-completion/completions/ledring")
                }
                Terminal.write(script)
                return ExitCode.ok.rawValue
            case "version":
                if let word = arguments.dropFirst().first { throw .usage("version: unexpected \"\(word)\"; usage: ledring version") }
                Terminal.write(versionLine)
                return ExitCode.ok.rawValue
            default:
                return try runOneShot(arguments).rawValue
            }
        } catch {
            Terminal.error("ledring: \(error.message)")
            return error.code.rawValue
        }
    }

    /// `ledring help [VERB]`: the general help, or one verb's; `help --man` the manual page.
    static func helpText(_ arguments: [String]) throws(CommandError) -> String {
        guard let word = arguments.first else { return Usage.text }
        guard arguments.count == 1 else { throw .usage("help: name one verb, e.g. ledring help set, or give --man alone") }
        if word == "--man" {
            return ManPage.roff(date: ManPage.date(sourceDateEpoch: ProcessEnvironment.current()["SOURCE_DATE_EPOCH"]))
        }
        guard VerbLine.verbs.contains(word) else {
            let near = VerbLine.suggestion(for: word).map { "did you mean `\($0)`? " } ?? ""
            throw .usage("help: no verb \"\(word)\"; \(near)(`ledring --help` lists them)")
        }
        return VerbLine.help(word)
    }

    static func runOneShot(_ arguments: [String]) throws(CommandError) -> ExitCode {
        let options = try OneShotOptions(arguments)
        if options.help {
            Terminal.write(Usage.text)
            return .ok
        }
        if options.version {
            Terminal.write(versionLine)
            return .ok
        }
        try options.validate()
        let onTerminal = Terminal.stdoutIsTerminal
        let command = try OneShotCommand(options: options, stdoutIsTerminal: onTerminal,
                                         escapesAllowed: Terminal.allowsEscapes(ProcessEnvironment.current()))
        if let warning = command.session.darkBudgetWarning { Terminal.error("ledring: \(warning)") }
        Terminal.installStopHandlers()
        if let kind = options.driver {
            return try driveLEDs(command, kind: kind, options: options)
        }
        if let directory = options.svgDirectory {
            return try writePictures(command, to: directory)
        }
        let drawsInPlace = command.format == .ansi && onTerminal
        let paced = onTerminal || options.realtime
        if drawsInPlace { Terminal.write("\u{1b}[2J\u{1b}[?25l") }
        defer { if drawsInPlace { Terminal.write("\u{1b}[0m\u{1b}[?25h") } }
        let start = MonotonicClock.seconds()
        command.run(
            holdOpen: onTerminal,
            emit: { frame, rendered in Terminal.write(command.text(frame, pixels: rendered.pixels)) },
            pace: { k in if paced { Terminal.sleep(until: start + Double(k) / options.fps) } },
            shouldStop: { stopRequested.load(ordering: .relaxed) },
            hold: { Terminal.waitForStop() })
        return .ok
    }

    /// `--svg-dir`: every frame as an SVG file, as fast as they are computed.
    static func writePictures(_ command: OneShotCommand, to directory: String) throws(CommandError) -> ExitCode {
        let files = try PictureFiles(directory: directory)
        let picture = SVGPicture(layout: command.layout)
        var failure: CommandError?
        var written = 0
        command.run(
            holdOpen: false,
            emit: { frame, rendered in
                do throws(CommandError) {
                    try files.write(picture.render(frame, pixels: rendered.pixels), frame: frame.index)
                    written += 1
                    return true
                } catch {
                    failure = error
                    return false
                }
            },
            pace: { _ in }, shouldStop: { stopRequested.load(ordering: .relaxed) }, hold: {})
        if let failure { throw failure }
        Terminal.error("ledring: wrote \(written) picture\(written == 1 ? "" : "s") to \(directory)")
        return .ok
    }

    /// Sends the frames to LEDs (or, with `--dump-wire`, to a file): paced in real time on a
    /// device so animations look right, as fast as possible into a dump file.
    static func driveLEDs(_ command: OneShotCommand, kind: DriverKind, options: OneShotOptions) throws(CommandError) -> ExitCode {
        let settings = command.session.driverSettings(
            options.output.driverSettings(kind: kind, ledCount: command.layout.ledCount, board: try resolveBoard(options.output.board)))
        let driver: LEDDriver
        do {
            driver = try settings.makeDriver()
        } catch {
            throw CommandError(error)
        }
        defer { try? driver.close() }
        let paced = options.output.dumpWire == nil || options.realtime
        // Never faster than the wire (and, for /dev/ledsN, the kernel's latch) allows.
        let interval = max(1 / options.fps, driver.encoder.wireTimeMicroseconds(ledCount: driver.ledCount) / 1e6)
        let start = MonotonicClock.seconds()
        var failure: HardwareError?
        command.run(
            holdOpen: false,
            emit: { _, rendered in
                do throws(HardwareError) {
                    try driver.show(rendered)
                    return true
                } catch {
                    failure = error
                    return false
                }
            },
            pace: { k in if paced { Terminal.sleep(until: start + Double(k) * interval) } },
            shouldStop: { stopRequested.load(ordering: .relaxed) },
            hold: {})
        if let failure {
            throw CommandError(failure)
        }
        return .ok
    }

    /// The board named by `--board`: an id from `ledring boards`, or `auto` (the default) to
    /// detect it; detection finding nothing is fine (a desktop, an unknown board).
    static func resolveBoard(_ name: String?) throws(CommandError) -> Board? {
        let catalog: BoardCatalog
        do {
            catalog = try BoardCatalog.builtIn()
        } catch {
            throw CommandError(error.description, code: .software)
        }
        guard let name, name != "auto" else { return BoardDetector(catalog: catalog).detect()?.board }
        guard let board = catalog.board(id: name) else {
            let ids = catalog.boards.map { $0.id }.joined(separator: ", ")
            throw .usage("--board \"\(name)\": unknown board; use auto or one of \(ids)")
        }
        return board
    }
}
