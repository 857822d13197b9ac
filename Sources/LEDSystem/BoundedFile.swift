import Glibc

/// Reads a whole small regular file (a config, a secret) with a bound: a directory, a device such
/// as `/dev/zero` or a pipe is refused before anything is read, and so is a file over the limit,
/// also one that grows past it while being read. One reader for every such file, so none of them
/// can be made to read for ever or fill the memory.
public enum BoundedFile {
    /// Why the file was not read.
    public enum Problem: Error, Sendable, Equatable {
        /// `open(2)` failed.
        case cannotOpen(Errno)
        /// Not a regular file: "a directory", "a character device", "a pipe" or "not a plain file".
        case notRegular(kind: String)
        /// Larger than the limit; `bytes` is its size, or nil when it grew past the limit while read.
        case tooLarge(bytes: Int?)
        /// `fstat(2)` or `read(2)` failed.
        case readFailed(Errno)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int,
                            system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(Problem) -> [UInt8] {
        let fd: Int32
        do {
            fd = try system.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0)
        } catch {
            throw .cannotOpen(error)
        }
        defer { try? system.close(fd) }
        let info: FileStatus
        do {
            info = try system.fstat(fd)
        } catch {
            throw .readFailed(error)
        }
        if info.isDirectory { throw .notRegular(kind: "a directory") }
        if info.isCharacterDevice { throw .notRegular(kind: "a character device") }
        if info.isFIFO { throw .notRegular(kind: "a pipe") }
        guard info.isRegularFile else { throw .notRegular(kind: "not a plain file") }
        guard info.size <= limit else { throw .tooLarge(bytes: info.size) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let n: Int
            do {
                n = try bytes.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in
                        try system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
                    }
                }.get()
            } catch {
                throw .readFailed(error)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(bytes: nil) }
        return Array(bytes[0..<count])
    }
}
