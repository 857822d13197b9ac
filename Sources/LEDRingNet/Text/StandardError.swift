import Glibc
import LEDSystem

/// Writes log lines to standard error whole (one `write` per line where the kernel allows, so
/// lines from several threads do not interleave), without Foundation's `FileHandle`.
public enum StandardError {
    /// Writes `text`, retrying short writes and EINTR; other errors drop the rest (nowhere to report them).
    public static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(2, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n > 0 { offset += n } else if n < 0 && Errno.current == .interrupted { continue } else { return }
        }
    }
}
