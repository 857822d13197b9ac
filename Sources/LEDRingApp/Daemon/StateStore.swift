import Foundation
import Glibc
import LEDHardware

/// Keeps the target values in a file across restarts, written so that a power cut at any moment
/// leaves either the old file or the new one: temp file, fsync, rename, fsync of the directory.
struct StateStore: Sendable {
    /// The state file.
    let path: String
    /// How the temp file is opened (a fake in tests).
    var system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())

    /// A store for the file at `path`.
    init(path: String, system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) {
        self.path = path
        self.system = system
    }

    /// What loading found.
    enum Loaded: Equatable, Sendable {
        /// No state file yet (first start).
        case none
        /// The saved values.
        case state(SavedState)
        /// The file was unreadable or corrupt and was moved to `movedTo`; start from zero.
        case corrupt(reason: String, movedTo: String?)
    }

    /// Reads the state; a corrupt or unreadable file is set aside (renamed) so it is kept for a
    /// look, never overwritten by the next save, and never stops the daemon from starting.
    func load() -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            var info = stat()
            guard lstat(path, &info) == 0 else { return .none }
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "cannot read it"
            return setAside(reason: kind)
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
        return setAside(reason: reason)
    }

    private func setAside(reason: String) -> Loaded {
        let aside = "\(path).corrupt-\(time(nil))"
        return .corrupt(reason: reason, movedTo: rename(path, aside) == 0 ? aside : nil)
    }

    /// Creates the temp file new: never through a link or over a file planted at its name (an
    /// old one of ours, left by a crash with the same pid, is removed first).
    private func createTemporary(_ temporary: String) throws(Errno) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        do {
            return try system.open(temporary, flags: flags, mode: 0o644)
        } catch where error == Errno(rawValue: EEXIST) {
            // unlink removes a link itself, never its target.
            unlink(temporary)
            return try system.open(temporary, flags: flags, mode: 0o644)
        }
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
        let fd: Int32
        do {
            fd = try createTemporary(temporary)
        } catch {
            throw SystemError(operation: "creating", path: temporary, code: error.rawValue,
                              fix: "make \(directory) writable for this user (and remove anything else at that name), or choose another --state")
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
