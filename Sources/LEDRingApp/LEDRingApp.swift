import LEDHardware
import RingRender

/// The command-line program: parses arguments and runs the chosen command.
public enum LEDRingApp {
    /// The program's version.
    public static let version = "0.1.0"

    /// Runs ledring with `arguments` (without the program name) and returns its exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            return try runOneShot(arguments).rawValue
        } catch {
            Terminal.error("ledring: \(error.message)")
            return error.code.rawValue
        }
    }

    static func runOneShot(_ arguments: [String]) throws(CommandError) -> ExitCode {
        let options = try OneShotOptions(arguments)
        if options.help {
            Terminal.write(Usage.text)
            return .ok
        }
        if options.version {
            Terminal.write("ledring \(version)\n")
            return .ok
        }
        let onTerminal = Terminal.stdoutIsTerminal
        let command = try OneShotCommand(options: options, stdoutIsTerminal: onTerminal)
        Terminal.installStopHandlers()
        let drawsInPlace = command.format == .ansi && onTerminal
        let paced = onTerminal || options.realtime
        if drawsInPlace { Terminal.write("\u{1b}[2J\u{1b}[?25l") }
        defer { if drawsInPlace { Terminal.write("\u{1b}[0m\u{1b}[?25h") } }
        let start = Terminal.now()
        command.run(
            holdOpen: onTerminal,
            emit: { Terminal.write($0) },
            pace: { k in if paced { Terminal.sleep(until: start + Double(k) / options.fps) } },
            shouldStop: { stopRequested.load(ordering: .relaxed) },
            hold: { Terminal.waitForStop() })
        return .ok
    }
}
