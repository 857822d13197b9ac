import Glibc

/// One line per event on standard error (systemd's journal adds the time and the unit).
enum Log {
    /// Logs `message`.
    static func info(_ message: String) {
        var line = "ledring: " + message + "\n"
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
}
