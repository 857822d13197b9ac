/// Wraps any `SystemCalls` and retries `EINTR`: the one place that does, as in swift-system.
///
/// `close` is deliberately not retried: Linux releases the descriptor even when `close`
/// reports `EINTR`, so a retry could close a descriptor another thread has just opened.
public struct RetryingSystemCalls: SystemCalls {
    /// The calls being wrapped.
    public let base: any SystemCalls

    /// Wraps `base`; wrapping an already retrying seam returns it unchanged in effect.
    public init(_ base: any SystemCalls) {
        if let already = base as? RetryingSystemCalls {
            self.base = already.base
        } else {
            self.base = base
        }
    }

    /// Runs `body` again while it fails with `EINTR`.
    @inline(__always)
    func retrying<T>(_ body: () throws(Errno) -> T) throws(Errno) -> T {
        while true {
            do {
                return try body()
            } catch where error == .interrupted {
                continue
            }
        }
    }

    /// `open(2)`, retried on `EINTR`.
    public func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32 {
        try retrying { () throws(Errno) in try base.open(path, flags: flags, mode: mode) }
    }
    /// `close(2)`, never retried (see the type's comment).
    public func close(_ fd: Int32) throws(Errno) {
        do {
            try base.close(fd)
        } catch where error == .interrupted {
            return
        }
    }
    /// `write(2)`, retried on `EINTR` (which means nothing was written).
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { () throws(Errno) in try base.write(fd, bytes) }
    }
    /// `pwrite(2)`, retried on `EINTR` (which means nothing was written).
    public func pwrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64) throws(Errno) -> Int {
        try retrying { () throws(Errno) in try base.pwrite(fd, bytes, offset: offset) }
    }
    /// The GPIO chip-info `ioctl(2)`, retried on `EINTR`.
    public func gpioChipInfo(_ fd: Int32) throws(Errno) -> GPIOChipIdentity {
        try retrying { () throws(Errno) in try base.gpioChipInfo(fd) }
    }
    /// A spidev `ioctl(2)`, retried on `EINTR`.
    public func spiIoctl(_ fd: Int32, _ request: SPIRequest, tx: UnsafeRawBufferPointer?) throws(Errno) -> UInt32 {
        try retrying { () throws(Errno) in try base.spiIoctl(fd, request, tx: tx) }
    }
    /// Reads a whole file, retried on `EINTR`.
    public func readFile(_ path: String) throws(Errno) -> [UInt8] {
        try retrying { () throws(Errno) in try base.readFile(path) }
    }
    /// `access(2)`, retried on `EINTR`.
    public func access(_ path: String, _ mode: Int32) throws(Errno) {
        try retrying { () throws(Errno) in try base.access(path, mode) }
    }
    /// `stat(2)`, retried on `EINTR`.
    public func stat(_ path: String) throws(Errno) -> FileStatus {
        try retrying { () throws(Errno) in try base.stat(path) }
    }
    /// Lists a directory, retried on `EINTR`.
    public func listDirectory(_ path: String) throws(Errno) -> [String] {
        try retrying { () throws(Errno) in try base.listDirectory(path) }
    }
    /// `fsync(2)`, retried on `EINTR`.
    public func fsync(_ fd: Int32) throws(Errno) {
        try retrying { () throws(Errno) in try base.fsync(fd) }
    }
    /// `rename(2)`, retried on `EINTR`.
    public func rename(_ from: String, _ to: String) throws(Errno) {
        try retrying { () throws(Errno) in try base.rename(from, to) }
    }
    /// `unlink(2)`, retried on `EINTR`.
    public func unlink(_ path: String) throws(Errno) {
        try retrying { () throws(Errno) in try base.unlink(path) }
    }
}
