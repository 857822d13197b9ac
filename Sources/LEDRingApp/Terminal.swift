import Glibc
import LEDSystem
import Synchronization

/// Set by SIGINT/SIGTERM; the frame loops poll it between frames and while sleeping.
let stopRequested = Atomic<Bool>(false)

/// The handler for SIGINT and SIGTERM: one atomic store, async-signal-safe.
private let requestStop: @convention(c) (Int32) -> Void = { _ in stopRequested.store(true, ordering: .relaxed) }

/// The process's terminal and signals: the only place the one-shot command touches them.
enum Terminal {
    /// Output and signals go through the seam.
    static let system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())

    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether colour and cursor escapes may be written by default: not when `NO_COLOR` is set
    /// to anything (no-color.org: present and not empty), nor on a terminal that says it can do
    /// none (`TERM=dumb`: Emacs' shell buffers, some CI logs). A `--format` given on the command
    /// line still wins, as no-color.org asks.
    static func allowsEscapes(_ environment: [String: String]) -> Bool {
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Routes SIGINT and SIGTERM to `stopRequested`, and turns SIGPIPE into a write error.
    static func installStopHandlers() {
        // Without these a Ctrl-C still ends the program, only less tidily: nothing to report.
        try? system.setSignalAction(SIGPIPE, .ignore)
        // No SA_RESTART: a signal must cut a sleep short so Ctrl-C acts at once.
        try? system.setSignalAction(SIGINT, .handler(requestStop, restart: false))
        try? system.setSignalAction(SIGTERM, .handler(requestStop, restart: false))
        // A parent may start us with these signals blocked (a blocked mask is inherited across
        // exec: test runners and some supervisors do this); then Ctrl-C would never arrive.
        try? system.unblockSignals([SIGINT, SIGTERM])
    }

    /// Sleeps until the monotonic clock reads `deadline` or a stop is requested.
    static func sleep(until deadline: Double) {
        while !stopRequested.load(ordering: .relaxed) {
            let left = deadline - MonotonicClock.seconds()
            if left <= 0 { return }
            var ts = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
            _ = nanosleep(&ts, nil)
        }
    }

    /// Sleeps until a stop is requested.
    static func waitForStop() {
        while !stopRequested.load(ordering: .relaxed) {
            _ = pause()
        }
    }

    /// Writes all of `text` to standard output; false once the reader has gone (EPIPE) or
    /// writing fails.
    @discardableResult
    static func write(_ text: String) -> Bool {
        (try? system.writeAll(STDOUT_FILENO, text)) != nil
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        _ = try? system.writeAll(STDERR_FILENO, line + "\n")
    }
}
