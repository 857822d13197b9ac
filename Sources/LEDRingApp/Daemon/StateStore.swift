import Glibc
import LEDHardware
import LEDRingControl
import LEDJSON

/// Keeps the target values in a file across restarts, written so that a power cut at any moment
/// leaves either the old file or the new one: temp file, fsync, rename, fsync of the directory.
struct StateStore: Sendable {
    /// The state file.
    let path: String
    /// The largest state file read (512 rings with long names fit many times over).
    static let maxBytes = 1 << 20
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
    /// look, never overwritten by the next save, and never stops the daemon from starting. A
    /// directory or device at the path is left alone (and `save` refuses to replace it).
    func load() -> Loaded {
        let status: FileStatus
        do {
            status = try system.stat(path)
        } catch {
            return error == .noSuchFileOrDirectory ? .none : setAside(reason: "cannot examine it (\(error))")
        }
        if status.isDirectory || status.isCharacterDevice {
            return .corrupt(reason: "is a \(status.isDirectory ? "directory" : "device"), not a state file; left alone; choose another --state",
                            movedTo: nil)
        }
        // A state is a few hundred bytes; a huge file is not ours, and is not read into memory.
        guard status.size <= StateStore.maxBytes else {
            return setAside(reason: "is \(status.size) bytes; a state file is at most \(StateStore.maxBytes)")
        }
        let bytes: [UInt8]
        do {
            bytes = try system.readFile(path)
        } catch {
            return setAside(reason: "cannot read it (\(error))")
        }
        let reason: String
        // Two typed steps, so each failure's text is known without a dynamic cast (Embedded Swift has none).
        do throws(JSONSyntaxError) {
            let document = try JSONValue.parse(bytes)
            do throws(JSONProblem) {
                let state = try SavedState(json: document)
                if let problem = state.problem {
                    reason = problem
                } else {
                    return .state(state)
                }
            } catch {
                reason = "not a ledring state file (\(error))"
            }
        } catch {
            reason = "not a ledring state file (\(error))"
        }
        return setAside(reason: reason)
    }

    private func setAside(reason: String) -> Loaded {
        let aside = "\(path).corrupt-\(time(nil))"
        return .corrupt(reason: reason, movedTo: (try? system.rename(path, aside)) != nil ? aside : nil)
    }

    /// Creates the temp file new: never through a link or over a file planted at its name (an
    /// old one of ours, left by a crash with the same pid, is removed first).
    private func createTemporary(_ temporary: String) throws(Errno) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        do {
            return try system.open(temporary, flags: flags, mode: 0o644)
        } catch where error == Errno(rawValue: EEXIST) {
            // unlink removes a link itself, never its target.
            try? system.unlink(temporary)
            return try system.open(temporary, flags: flags, mode: 0o644)
        }
    }

    /// Writes `state` atomically.
    func save(_ state: SavedState) throws(SystemError) {
        let directory = DaemonPaths.directory(of: path)
        if (try? system.access(directory, F_OK)) == nil { system.makeDirectories(directory, mode: 0o755) }
        if let existing = try? system.lstat(path), !existing.isRegularFile, !existing.isSymbolicLink {
            throw SystemError(operation: "saving the state to", path: path, code: EEXIST,
                              fix: "that is not a regular file and is left alone; choose another --state")
        }
        // What the reader would refuse is never written (a restart would then lose everything):
        // past the limit, the notifications are left out (they end anyway; values, looks, timers
        // and switched-off rings are what a restart must keep), and past it even so, nothing.
        var bytes = Array((state.json.jsonText + "\n").utf8)
        if bytes.count > StateStore.maxBytes {
            var lighter = state
            lighter.notices = []
            bytes = Array((lighter.json.jsonText + "\n").utf8)
            guard bytes.count <= StateStore.maxBytes else {
                throw SystemError(operation: "saving the state to", path: path, code: EFBIG,
                                  fix: "the state is over \(StateStore.maxBytes) bytes even without notifications, which the next start would refuse; the file there is kept")
            }
        }
        let temporary = "\(path).tmp-\(getpid())"
        let fd: Int32
        do {
            fd = try createTemporary(temporary)
        } catch {
            throw SystemError(operation: "creating", path: temporary, code: error.rawValue,
                              fix: "make \(directory) writable for this user (and remove anything else at that name), or choose another --state")
        }
        // Until the rename, the previous state file is untouched: any failure (ENOSPC, EIO, EROFS)
        // removes the temp file and leaves the old state in place for the next try.
        do throws(Errno) {
            do throws(Errno) {
                var offset = 0
                while offset < bytes.count {
                    let n = try bytes.withUnsafeBytes { raw in
                        Result { () throws(Errno) -> Int in
                            try system.write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
                        }
                    }.get()
                    guard n > 0 else { throw Errno(rawValue: ENOSPC) }
                    offset += n
                }
                try system.fsync(fd)
            } catch {
                try? system.close(fd)
                throw error
            }
            // close can report a write the disk refused late (NFS, some FUSE file systems).
            try system.close(fd)
        } catch {
            try? system.unlink(temporary)
            throw SystemError(operation: "writing", path: temporary, code: error.rawValue,
                              fix: "free space on the disk holding \(directory) or make it writable; the previous state is kept")
        }
        do {
            try system.rename(temporary, path)
        } catch {
            try? system.unlink(temporary)
            throw SystemError(operation: "renaming \(temporary) to", path: path, code: error.rawValue,
                              fix: "the previous state is kept")
        }
        // The rename is durable only once the directory entry is on disk.
        if let dirFD = try? system.open(directory, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0) {
            try? system.fsync(dirFD)
            try? system.close(dirFD)
        }
    }
}
