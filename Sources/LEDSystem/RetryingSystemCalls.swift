import Glibc

/// Wraps any `SystemCalls` and retries `EINTR`: the one place that does, as in swift-system.
///
/// `close` is deliberately not retried: Linux releases the descriptor even when `close`
/// reports `EINTR`, so a retry could close a descriptor another thread has just opened.
public final class RetryingSystemCalls: SystemCalls {
    /// The calls being wrapped.
    public let base: any SystemCalls
    /// The monotonic clock in nanoseconds, for the time an interrupted `poll` has left.
    let clock: @Sendable () -> UInt64

    /// Wraps `base`; wrapping an already retrying seam returns it unchanged in effect. `clock`
    /// is replaced only by tests.
    public init(_ base: any SystemCalls, clock: @escaping @Sendable () -> UInt64 = MonotonicClock.nanoseconds) {
        if let already = base as? RetryingSystemCalls {
            self.base = already.base
        } else {
            self.base = base
        }
        self.clock = clock
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
    /// `read(2)`, retried on `EINTR` (which means nothing was read).
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { () throws(Errno) in try base.read(fd, into: buffer) }
    }
    /// `send(2)`, retried on `EINTR` (which means nothing was sent).
    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { () throws(Errno) in try base.send(fd, bytes) }
    }
    /// `socket(2)`, retried on `EINTR`.
    public func unixSocket(flags: Int32) throws(Errno) -> Int32 {
        try retrying { () throws(Errno) in try base.unixSocket(flags: flags) }
    }
    /// `bind(2)`, retried on `EINTR`.
    public func bind(_ fd: Int32, path: String) throws(Errno) {
        try retrying { () throws(Errno) in try base.bind(fd, path: path) }
    }
    /// `listen(2)`, retried on `EINTR`.
    public func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        try retrying { () throws(Errno) in try base.listen(fd, backlog: backlog) }
    }
    /// `accept4(2)`, retried on `EINTR` (accept(2): no connection was taken).
    public func accept(_ fd: Int32, flags: Int32) throws(Errno) -> Int32 {
        try retrying { () throws(Errno) in try base.accept(fd, flags: flags) }
    }
    /// `socket(2)` of an IP family, retried on `EINTR` like every call that does not go on in
    /// the kernel after a signal.
    public func ipSocket(family: Int32, kind: IPSocketKind, flags: Int32) throws(Errno) -> Int32 {
        try retrying { () throws(Errno) in try base.ipSocket(family: family, kind: kind, flags: flags) }
    }
    /// `bind(2)` to an IP endpoint, retried on `EINTR`.
    public func bind(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno) {
        try retrying { () throws(Errno) in try base.bind(fd, to: endpoint) }
    }
    /// `connect(2)` to an IP endpoint, never retried: an interrupted TCP connect goes on in the
    /// kernel (__inet_stream_connect in net/ipv4/af_inet.c leaves the socket in SYN_SENT and
    /// returns the signal's error), and connecting again would be `EALREADY`. So `EINTR` becomes
    /// `EINPROGRESS`: wait for `POLLOUT`, then read `socketError`, as for a non-blocking connect.
    public func connect(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno) {
        do {
            try base.connect(fd, to: endpoint)
        } catch where error == .interrupted {
            throw Errno(rawValue: EINPROGRESS)
        }
    }
    /// `sendto(2)`, retried on `EINTR` (nothing was sent).
    public func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to endpoint: IPEndpoint) throws(Errno) -> Int {
        try retrying { () throws(Errno) in try base.sendDatagram(fd, bytes, to: endpoint) }
    }
    /// `recvfrom(2)`, retried on `EINTR` (nothing was taken).
    public func receiveDatagram(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> (count: Int, from: IPEndpoint) {
        try retrying { () throws(Errno) in try base.receiveDatagram(fd, into: buffer) }
    }
    /// `getsockopt(SO_ERROR)`, retried on `EINTR`.
    public func socketError(_ fd: Int32) throws(Errno) -> Errno? {
        try retrying { () throws(Errno) in try base.socketError(fd) }
    }
    /// `getsockname(2)`, retried on `EINTR`.
    public func localEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try retrying { () throws(Errno) in try base.localEndpoint(fd) }
    }
    /// `getpeername(2)`, retried on `EINTR`.
    public func peerEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try retrying { () throws(Errno) in try base.peerEndpoint(fd) }
    }
    /// `setsockopt(2)`, retried on `EINTR`.
    public func setSocketOption(_ fd: Int32, _ option: SocketOption, _ on: Bool) throws(Errno) {
        try retrying { () throws(Errno) in try base.setSocketOption(fd, option, on) }
    }
    /// `connect(2)`, retried on `EINTR`. For a Unix stream socket an interrupted connect has not
    /// connected (unix_stream_connect in net/unix/af_unix.c returns before linking the peers when
    /// its wait for backlog room is interrupted), so connecting again is safe.
    public func connect(_ fd: Int32, path: String) throws(Errno) {
        try retrying { () throws(Errno) in try base.connect(fd, path: path) }
    }
    /// `poll(2)`, retried on `EINTR` with the time that is left, so signals cannot stretch a wait
    /// (poll(2): "EINTR A signal occurred before any requested event"; the timeout is not updated).
    public func poll(_ fds: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        let deadline: UInt64? = timeout < 0 ? nil : clock() &+ UInt64(timeout) * 1_000_000
        var left = timeout
        while true {
            do {
                return try base.poll(&fds, timeout: left)
            } catch where error == .interrupted {
                if let deadline {
                    let now = clock()
                    let nanoseconds = deadline > now ? deadline - now : 0
                    // Rounded up, so the wait never ends just before the deadline and spins.
                    left = Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
                }
            }
        }
    }
    /// `pipe2(2)`, retried on `EINTR`.
    public func pipe(flags: Int32) throws(Errno) -> (read: Int32, write: Int32) {
        try retrying { () throws(Errno) in try base.pipe(flags: flags) }
    }
    /// `fstat(2)`, retried on `EINTR`.
    public func fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        try retrying { () throws(Errno) in try base.fstat(fd) }
    }
    /// `lstat(2)`, retried on `EINTR`.
    public func lstat(_ path: String) throws(Errno) -> FileStatus {
        try retrying { () throws(Errno) in try base.lstat(path) }
    }
    /// `chmod(2)`, retried on `EINTR`.
    public func chmod(_ path: String, mode: UInt32) throws(Errno) {
        try retrying { () throws(Errno) in try base.chmod(path, mode: mode) }
    }
    /// `mkdir(2)`, retried on `EINTR`.
    public func mkdir(_ path: String, mode: UInt32) throws(Errno) {
        try retrying { () throws(Errno) in try base.mkdir(path, mode: mode) }
    }
    /// `sigaction(2)`, retried on `EINTR`.
    public func setSignalAction(_ signal: Int32, _ action: SignalAction) throws(Errno) {
        try retrying { () throws(Errno) in try base.setSignalAction(signal, action) }
    }
    /// `sigprocmask(2)`, retried on `EINTR`.
    public func unblockSignals(_ signals: [Int32]) throws(Errno) {
        try retrying { () throws(Errno) in try base.unblockSignals(signals) }
    }
    /// `umask(2)` (it cannot fail).
    public func setFileCreationMask(_ mask: UInt32) -> UInt32 {
        base.setFileCreationMask(mask)
    }
    /// `posix_spawnp(3)` (it does not fail with `EINTR`: glibc's clone and exec wait are not interrupted).
    public func spawn(_ argv: [String], stdout: Int32, stderr: Int32) throws(Errno) -> Int32 {
        try retrying { () throws(Errno) in try base.spawn(argv, stdout: stdout, stderr: stderr) }
    }
    /// `waitpid(2)` with `WNOHANG`, retried on `EINTR`.
    public func reap(_ pid: Int32) throws(Errno) -> ChildStatus? {
        try retrying { () throws(Errno) in try base.reap(pid) }
    }
    /// `kill(2)`, retried on `EINTR`.
    public func signalGroup(_ group: Int32, _ signal: Int32) throws(Errno) {
        try retrying { () throws(Errno) in try base.signalGroup(group, signal) }
    }
}
