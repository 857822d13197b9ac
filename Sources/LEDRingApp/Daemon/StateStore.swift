import Foundation
import Glibc

/// Keeps the target values in a file across restarts, written so that a power cut at any moment
/// leaves either the old file or the new one: temp file, fsync, rename, fsync of the directory.
struct StateStore: Sendable {
    /// The state file.
    let path: String

    /// What loading found.
    enum Loaded: Equatable, Sendable {
        /// No state file yet (first start).
        case none
        /// The saved values.
        case state(SavedState)
        /// The file was unreadable or corrupt and was moved to `movedTo`; start from zero.
        case corrupt(reason: String, movedTo: String?)
    }

    /// Reads the state; a corrupt file is set aside (renamed) so it is kept for a look but never
    /// stops the daemon from starting.
    func load() -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            return access(path, F_OK) == 0
                ? .corrupt(reason: "cannot read it", movedTo: nil) : .none
        }
        let reason: String
        do {
            let state = try JSONDecoder().decode(SavedState.self, from: data)
            if let problem = state.problem {
                reason = problem
            } else {
                return .state(state)
            }
        } catch {
            reason = "not a ledring state file (\(StateStore.describe(error)))"
        }
        let aside = "\(path).corrupt-\(time(nil))"
        return .corrupt(reason: reason, movedTo: rename(path, aside) == 0 ? aside : nil)
    }

    /// Writes `state` atomically.
    func save(_ state: SavedState) throws(SystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state) else {
            throw SystemError(operation: "encoding the state for", path: path, code: EINVAL)
        }
        let directory = Posix.directory(of: path)
        if access(directory, F_OK) != 0 { Posix.makeDirectories(directory, mode: 0o755) }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .current("creating", path: temporary, fix: "make \(directory) writable for this user, or choose another --state")
        }
        let bytes = [UInt8](data) + [UInt8(ascii: "\n")]
        let written = Posix.writeAll(fd, bytes, socket: false)
        let synced = fsync(fd) == 0
        let failure = SystemError.current("writing", path: temporary)
        close(fd)
        guard written, synced else {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemError.current("renaming \(temporary) to", path: path)
            unlink(temporary)
            throw failure
        }
        // The rename is durable only once the directory entry is on disk.
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        if case DecodingError.keyNotFound(let key, _) = error { return "missing \(key.stringValue)" }
        if case DecodingError.typeMismatch(_, let context) = error {
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        }
        return "\(error)"
    }
}
