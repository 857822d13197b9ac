import Glibc
import LEDSystem

/// Thin wrappers over the few system calls the daemon and client make, with EINTR retried here
/// once rather than at every call site.
enum Posix {
    /// Reads up to `buffer.count` bytes; nil on EAGAIN, 0 at end of file.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int? {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            return 0  // a read error ends the stream like end of file
        }
    }

    /// Writes as much of `bytes` as the descriptor takes now; returns how many went, or nil when
    /// the other side has gone. Sockets use MSG_NOSIGNAL so a vanished client is no SIGPIPE.
    static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>, socket: Bool) -> Int? {
        while true {
            let n = bytes.withUnsafeBytes { raw in
                socket ? Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                       : Glibc.write(fd, raw.baseAddress, raw.count)
            }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    /// Writes all of `bytes`, waiting when the descriptor is blocking; false on failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let n = write(fd, bytes[offset...], socket: socket) else { return false }
            if n == 0 {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 1000)
            }
            offset += n
        }
        return true
    }

    /// A non-blocking, close-on-exec pipe for waking the poll loop; `purpose` names it in errors.
    static func wakePipe(_ purpose: String) throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .current("creating", path: purpose) }
        for fd in fds {
            setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Calls `body` with `path` as a `sockaddr_un`; false when the path is too long.
    static func withSocketAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new Unix stream socket, close-on-exec.
    static func unixSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// Connects to the Unix socket at `path`; the connected descriptor, or the errno.
    static func connect(to path: String) -> Result<Int32, SystemError> {
        let fd = unixSocket()
        guard fd >= 0 else { return .failure(.current("creating a socket for", path: path)) }
        let status = withSocketAddress(path) { Glibc.connect(fd, $0, $1) }
        guard let status else {
            close(fd)
            return .failure(SystemError(operation: "connecting to", path: path, code: ENAMETOOLONG))
        }
        if status != 0 {
            let failure = SystemError.current("connecting to", path: path)
            close(fd)
            return .failure(failure)
        }
        return .success(fd)
    }

    /// Creates `path`'s directories that are missing, like `mkdir -p`, with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += part
            _ = mkdir(prefix, mode)
            prefix += "/"
        }
    }

    /// The directory holding `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Seconds on the monotonic clock (never jumps with the wall clock).
    static func monotonicNow() -> Double { MonotonicClock.seconds() }
}
