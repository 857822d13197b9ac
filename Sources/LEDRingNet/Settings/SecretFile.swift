import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads the first line of a small file holding a secret (`tokenFile`, `passwordFile`): only a
/// regular file, at most `maxBytes`, so `/dev/zero` or a huge file is refused, never read forever.
public enum SecretFile {
    /// Why the file cannot be used ("is empty", "is not a regular file; …").
    public struct Problem: Error, Sendable {
        /// The reason, to follow the path in a message.
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Longest secret file read, bytes.
    public static let maxBytes = 4096

    /// The file's first line (without surrounding spaces when `trimming`); throws a reason a
    /// person can act on.
    public static func firstLine(_ path: String, trimming: Bool = true) throws(Problem) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Problem("cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Problem("is not a regular file; give a file whose first line is the secret")
        }
        guard Int(info.st_size) <= maxBytes else {
            throw Problem("is \(info.st_size) bytes; a secret file may be at most \(maxBytes) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        guard let text = String(validating: bytes[0..<min(count, maxBytes)], as: UTF8.self) else {
            throw Problem("is not UTF-8 text")
        }
        let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let line = trimming ? first.trimmingCharacters(in: .whitespaces) : first
        guard !line.isEmpty else { throw Problem("is empty") }
        return line
    }
}
