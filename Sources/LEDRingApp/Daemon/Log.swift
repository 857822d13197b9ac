import Glibc
import LEDRingControl
import LEDRingNet

/// One line per event on standard error (systemd's journal adds the time and the unit).
enum Log {
    /// Logs `message`. Control characters are escaped, and a message of several lines goes out
    /// as indented continuation lines, so no text inside a message can pass for a line of its
    /// own (a forged "ledring: stopping on SIGTERM").
    static func info(_ message: String) {
        var line = "ledring: " + Log.lines(message).joined(separator: "\nledring:   ") + "\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(STDERR_FILENO, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// The message's lines, each with its control characters escaped.
    static func lines(_ message: String) -> [String] {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { LogText.escaped(String($0), limit: 4096, escapingBackslash: false) }
    }
}
