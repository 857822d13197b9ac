import LEDRingControl
import LEDJSON
/// The control socket: where it is and who may use it.
struct SocketConfig: Sendable, Equatable {
    /// The socket's path; nil uses the default (see `DaemonPaths`).
    var path: String?
    /// Permission bits; 0660 lets the owner and the socket's group send requests.
    var mode: UInt32 = 0o660

    /// Keys the `socket` object may have.
    static let keys = ["path", "mode"]

    /// Longest path a Unix socket address holds (`sun_path` is 108 bytes with the terminating NUL).
    static let maxPathBytes = 107

    /// Reads the `socket` section.
    static func read(_ value: JSONValue, at path: String, into reader: inout ConfigReader) -> SocketConfig {
        var out = SocketConfig()
        guard let members = reader.object(value, at: path, known: keys) else { return out }
        let pathKey = ConfigReader.join(path, "path"), modeKey = ConfigReader.join(path, "mode")
        if let socketPath = reader.string(members["path"], at: pathKey) {
            if let problem = SocketConfig.problem(withPath: socketPath) {
                reader.report(pathKey, problem)
            } else {
                out.path = socketPath
            }
        }
        if let mode = members["mode"] {
            // JSON has no octal numbers, and 660 read as decimal would be a surprising mode.
            if case .string(let text) = mode, !text.isEmpty, text.count <= 4,
               let bits = UInt32(text, radix: 8), bits <= 0o777 {
                out.mode = bits
            } else {
                reader.report(modeKey, "must be an octal mode as a string, like \"0660\", got \(mode.shown)")
            }
        }
        return out
    }

    /// Why `path` cannot be a socket path, or nil when it can.
    static func problem(withPath path: String) -> String? {
        if path.utf8.count > maxPathBytes {
            return "is \(path.utf8.count) bytes but a Unix socket path holds at most \(maxPathBytes); choose a shorter path"
        }
        if path.hasSuffix("/") { return "names a directory, got \"\(path)\"; give a file name like ledring.sock" }
        return nil
    }
}
