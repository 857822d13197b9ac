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
    public static func read(_ path: String, limit: Int) throws(Problem) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(.current) }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .readFailed(.current) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notRegular(kind: "a directory")
        case S_IFCHR: throw .notRegular(kind: "a character device")
        case S_IFIFO: throw .notRegular(kind: "a pipe")
        default: throw .notRegular(kind: "not a plain file")
        }
        guard Int(info.st_size) <= limit else { throw .tooLarge(bytes: Int(info.st_size)) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress.map { $0 + count }, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .readFailed(.current) }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(bytes: nil) }
        return Array(bytes[0..<count])
    }
}
