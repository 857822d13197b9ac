import Glibc
import LEDRingControl
import LEDSystem

/// One line per event on standard error (systemd's journal adds the time and the unit).
enum Log {
    /// Where log lines go through the seam.
    static let system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())

    /// Logs `message`. Control characters are escaped, and a message of several lines goes out
    /// as indented continuation lines, so no text inside a message can pass for a line of its
    /// own (a forged "ledring: stopping on SIGTERM").
    static func info(_ message: String) {
        // A log that cannot be written has nowhere to report that.
        try? system.writeAll(STDERR_FILENO, "ledring: " + Log.lines(message).joined(separator: "\nledring:   ") + "\n")
    }

    /// The message's lines, each with its control characters escaped.
    static func lines(_ message: String) -> [String] {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { LogText.escaped(String($0), limit: 4096, escapingBackslash: false) }
    }
}
