import Glibc

/// The seam between ledring and the kernel: one thin method per syscall the transports, the
/// daemon and the client use.
///
/// Each method makes exactly one attempt and reports failure as a typed `Errno`; retrying
/// `EINTR` is done once, in `RetryingSystemCalls`, so fakes can script an interrupted call.
///
/// Class-bound because Embedded Swift (the static Pi binaries) has existentials only of class
/// protocols, and the seam is passed around as `any SystemCalls`.
public protocol SystemCalls: AnyObject, Sendable {
    /// `open(2)`; returns the file descriptor.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32
    /// `close(2)`.
    func close(_ fd: Int32) throws(Errno)
    /// `write(2)`; returns how many bytes the kernel took (may be fewer than asked).
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `pwrite(2)`: writes at `offset` without using or moving the file position.
    func pwrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64) throws(Errno) -> Int
    /// `ioctl(fd, GPIO_GET_CHIPINFO_IOCTL)` on a GPIO character device: its name, label and
    /// line count (what libgpiod and `gpiodetect` read).
    func gpioChipInfo(_ fd: Int32) throws(Errno) -> GPIOChipIdentity
    /// `ioctl(2)` for one spidev request; `tx` is the buffer for `.message`.
    /// Returns the value read for `.read*` requests, the byte count for `.message`, else 0.
    func spiIoctl(_ fd: Int32, _ request: SPIRequest, tx: UnsafeRawBufferPointer?) throws(Errno) -> UInt32
    /// Reads a whole small file (sysfs, procfs, config.txt).
    func readFile(_ path: String) throws(Errno) -> [UInt8]
    /// `access(2)` with `R_OK`/`W_OK`/`F_OK` bits.
    func access(_ path: String, _ mode: Int32) throws(Errno)
    /// `stat(2)`, reduced to what the doctor needs.
    func stat(_ path: String) throws(Errno) -> FileStatus
    /// The entry names of a directory, without "." and "..", sorted.
    func listDirectory(_ path: String) throws(Errno) -> [String]
    /// `fsync(2)`: the file's data (or a directory's entries) on disk.
    func fsync(_ fd: Int32) throws(Errno)
    /// `rename(2)`: atomically replaces `to` with `from`.
    func rename(_ from: String, _ to: String) throws(Errno)
    /// `unlink(2)`: removes a name (a symbolic link itself, never its target).
    func unlink(_ path: String) throws(Errno)

    /// `read(2)` into `buffer`: how many bytes came; 0 is end of file (for a socket or pipe: the
    /// other end closed). A non-blocking descriptor with nothing to read throws `EAGAIN`.
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    /// `send(2)` with `MSG_NOSIGNAL`: a peer that has gone is `EPIPE`, never a `SIGPIPE`.
    func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0)`; `flags` may add `SOCK_NONBLOCK`.
    func unixSocket(flags: Int32) throws(Errno) -> Int32
    /// `bind(2)` of a Unix socket to `path`; a path too long for `sun_path` is `ENAMETOOLONG`.
    func bind(_ fd: Int32, path: String) throws(Errno)
    /// `listen(2)`.
    func listen(_ fd: Int32, backlog: Int32) throws(Errno)
    /// `accept4(2)` with `flags` (`SOCK_CLOEXEC | SOCK_NONBLOCK`); the new connection's descriptor.
    func accept(_ fd: Int32, flags: Int32) throws(Errno) -> Int32
    /// `connect(2)` of a Unix socket to `path`.
    func connect(_ fd: Int32, path: String) throws(Errno)
    /// `socket(AF_INET or AF_INET6, SOCK_STREAM or SOCK_DGRAM | SOCK_CLOEXEC | flags, 0)`;
    /// `flags` may add `SOCK_NONBLOCK`.
    func ipSocket(family: Int32, kind: IPSocketKind, flags: Int32) throws(Errno) -> Int32
    /// `bind(2)` of an IP socket to `endpoint` (port 0: any free port, see `localEndpoint`).
    func bind(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno)
    /// `connect(2)` of an IP socket. On a non-blocking TCP socket it throws `EINPROGRESS` and
    /// the connection completes later: `poll` reports `POLLOUT`, then `socketError` says how it
    /// went (connect(2)).
    func connect(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno)
    /// `sendto(2)` of one datagram on a UDP socket (bound to a free port on its first send,
    /// udp(7)); how many bytes went, all of them or an error.
    func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to endpoint: IPEndpoint) throws(Errno) -> Int
    /// `recvfrom(2)` of one datagram on a UDP socket: its length as received (a datagram longer
    /// than `buffer` is cut to it and the rest discarded, recv(2)) and who sent it. `EAGAIN` on a
    /// non-blocking socket with none waiting.
    func receiveDatagram(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> (count: Int, from: IPEndpoint)
    /// `getsockopt(SO_ERROR)`: the socket's pending error, cleared by reading it; nil for none.
    func socketError(_ fd: Int32) throws(Errno) -> Errno?
    /// `getsockname(2)` of an IP socket: the address and port it is bound to.
    func localEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint
    /// `getpeername(2)` of a connected IP socket.
    func peerEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint
    /// `setsockopt(2)` of an on/off option.
    func setSocketOption(_ fd: Int32, _ option: SocketOption, _ on: Bool) throws(Errno)
    /// `poll(2)`: fills each entry's `revents`; how many entries have any. `timeout` in
    /// milliseconds, -1 waits for ever.
    func poll(_ fds: inout [pollfd], timeout: Int32) throws(Errno) -> Int
    /// `pipe2(2)` with `flags` (`O_CLOEXEC | O_NONBLOCK`).
    func pipe(flags: Int32) throws(Errno) -> (read: Int32, write: Int32)
    /// `fstat(2)`, reduced like `stat`.
    func fstat(_ fd: Int32) throws(Errno) -> FileStatus
    /// `lstat(2)`: like `stat`, but a symbolic link is described, not followed.
    func lstat(_ path: String) throws(Errno) -> FileStatus
    /// `chmod(2)`.
    func chmod(_ path: String, mode: UInt32) throws(Errno)
    /// `mkdir(2)` of one directory.
    func mkdir(_ path: String, mode: UInt32) throws(Errno)
    /// `sigaction(2)` for `signal`.
    func setSignalAction(_ signal: Int32, _ action: SignalAction) throws(Errno)
    /// `sigprocmask(SIG_UNBLOCK, signals)`.
    func unblockSignals(_ signals: [Int32]) throws(Errno)
    /// `umask(2)`: sets the mask, returns the previous one (it cannot fail).
    func setFileCreationMask(_ mask: UInt32) -> UInt32
    /// `posix_spawnp(3)` of `argv` (the program found on `PATH` unless it has a `/`; no shell) in
    /// a process group of its own, with standard input from `/dev/null`, standard output and
    /// error onto `stdout` and `stderr`, every signal's action default and none blocked; returns
    /// its process id. A program that cannot be run fails here (glibc reports the child's `exec`
    /// error as the call's result).
    func spawn(_ argv: [String], stdout: Int32, stderr: Int32) throws(Errno) -> Int32
    /// `waitpid(pid, WNOHANG)`: nil while the child runs, else how it ended (it is then reaped).
    func reap(_ pid: Int32) throws(Errno) -> ChildStatus?
    /// `kill(-group, signal)`: signals every process of a process group `spawn` made.
    func signalGroup(_ group: Int32, _ signal: Int32) throws(Errno)

    // Helpers built on the calls above, each implemented once in an extension and never by a
    // conformer. They are requirements, not only extension methods, because Embedded Swift (6.3)
    // compiles a call from another module to an extension method of a class existential into a
    // trap; a requirement is called through the witness table instead. For the same reason they
    // have no default arguments.

    /// `mkdir -p` (see the extension).
    func makeDirectories(_ path: String, mode: UInt32)
    /// Writes all of `bytes` to a blocking descriptor (see the extension).
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno)
    /// Writes all of `text` to a blocking descriptor (see the extension).
    func writeAll(_ fd: Int32, _ text: String) throws(Errno)
    /// One read, classified (see the extension).
    func readAvailable(_ fd: Int32, into buffer: inout [UInt8]) -> ReadOutcome
    /// One send or write, classified (see the extension).
    func sendAvailable(_ fd: Int32, _ bytes: ArraySlice<UInt8>, socket: Bool) -> SendOutcome
    /// Sends all of `bytes`, waiting in `poll` while the socket is full (see the extension).
    func sendAll(_ fd: Int32, _ bytes: [UInt8], timeout: Int32) throws(Errno)
    /// A connected Unix stream socket (see the extension).
    func connectUnix(_ path: String) throws(Errno) -> Int32
}

/// How a child process ended, from `waitpid`'s status.
public enum ChildStatus: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
}

/// What a signal does, for `setSignalAction`.
public enum SignalAction: Sendable {
    /// The default action (`SIG_DFL`).
    case standard
    /// Ignored (`SIG_IGN`).
    case ignore
    /// Runs `handler`, which must be async-signal-safe; `restart` sets `SA_RESTART`.
    case handler(@convention(c) (Int32) -> Void, restart: Bool)
}

extension SystemCalls {
    /// Creates `path`'s directories that are missing, like `mkdir -p`; failures are left for the
    /// caller's next call (open or bind) to report with its own words.
    public func makeDirectories(_ path: String, mode: UInt32) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += part
            try? mkdir(prefix, mode: mode)
            prefix += "/"
        }
    }

    /// Writes all of `bytes` to a blocking descriptor (a short write continues where it stopped).
    public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            guard n > 0 else { throw Errno(rawValue: EIO) }
            offset += n
        }
    }
}
