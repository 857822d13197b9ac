import Glibc

/// What one `read(2)` on a socket, pipe or terminal gave, told apart so that no caller can take
/// a failure for the end of the stream.
public enum ReadOutcome: Equatable, Sendable {
    /// `count` bytes arrived.
    case data(count: Int)
    /// The other side closed (read(2) returned 0).
    case endOfFile
    /// Nothing to read now on a non-blocking descriptor (`EAGAIN`).
    case wouldBlock
    /// A real error (`ECONNRESET`, `EIO`, …): the stream is broken.
    case failed(Errno)
}

/// What one non-blocking `send(2)` or `write(2)` did.
public enum SendOutcome: Equatable, Sendable {
    /// `count` bytes were taken (0 when the buffer is full: `EAGAIN`, try again on POLLOUT).
    case sent(count: Int)
    /// The other side has gone (`EPIPE`, `ECONNRESET`) or another error.
    case failed(Errno)
}

extension SystemCalls {
    /// One read into `buffer`, classified.
    public func readAvailable(_ fd: Int32, into buffer: inout [UInt8]) -> ReadOutcome {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> Int in try read(fd, into: raw) }
        }
        switch result {
        case .success(0): return .endOfFile
        case .success(let count): return .data(count: count)
        case .failure(let error) where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK: return .wouldBlock
        case .failure(let error): return .failed(error)
        }
    }

    /// One send of `bytes` on a non-blocking socket (`socket: true`) or write to another
    /// descriptor, classified.
    public func sendAvailable(_ fd: Int32, _ bytes: ArraySlice<UInt8>, socket: Bool) -> SendOutcome {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) -> Int in socket ? try send(fd, raw) : try write(fd, raw) }
        }
        switch result {
        case .success(let count): return .sent(count: count)
        case .failure(let error) where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK: return .sent(count: 0)
        case .failure(let error): return .failed(error)
        }
    }

    /// Sends all of `bytes` on a blocking or non-blocking socket, waiting in `poll` while it is
    /// full (at most `timeout` milliseconds each time).
    public func sendAll(_ fd: Int32, _ bytes: [UInt8], timeout: Int32) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            switch sendAvailable(fd, bytes[offset...], socket: true) {
            case .failed(let error): throw error
            case .sent(count: 0):
                var entry = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                guard try poll(&entry, timeout: timeout) > 0 else { throw Errno(rawValue: ETIMEDOUT) }
            case .sent(let count): offset += count
            }
        }
    }

    /// A Unix stream socket connected to `path` (blocking, close-on-exec); closed again on failure.
    public func connectUnix(_ path: String) throws(Errno) -> Int32 {
        let fd = try unixSocket(flags: 0)
        do {
            try connect(fd, path: path)
        } catch {
            try? close(fd)
            throw error
        }
        return fd
    }

    /// Writes all of `text` to a blocking descriptor (standard output or error).
    public func writeAll(_ fd: Int32, _ text: String) throws(Errno) {
        var text = text
        try text.withUTF8 { bytes in
            Result { () throws(Errno) in try writeAll(fd, UnsafeRawBufferPointer(bytes)) }
        }.get()
    }
}
