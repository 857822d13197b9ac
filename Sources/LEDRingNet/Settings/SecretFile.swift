import LEDSystem
import RingModel
import Glibc

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
        let bytes: [UInt8]
        do throws(BoundedFile.Problem) {
            bytes = try BoundedFile.read(path, limit: maxBytes)
        } catch {
            switch error {
            case .cannotOpen(let errno), .readFailed(let errno): throw Problem("cannot be read (\(errno))")
            case .notRegular: throw Problem("is not a regular file; give a file whose first line is the secret")
            case .tooLarge(let size): throw Problem("is \(size.map { "\($0) bytes" } ?? "over \(maxBytes) bytes"); a secret file may be at most \(maxBytes) bytes")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem("is not UTF-8 text")
        }
        let first = text.split(whereSeparator: { $0.isNewline }).first.map(String.init) ?? ""
        let line = trimming ? first.trimmingWhitespace() : first
        guard !line.isEmpty else { throw Problem("is empty") }
        return line
    }
}
