import Glibc
import LEDHardware
import Synchronization

/// An in-memory kernel for tests: files, device nodes and spidev state, every call recorded,
/// and any call made to fail with any errno on its Nth use.
public final class FakeSystemCalls: SystemCalls {
    /// The syscalls the seam has, for scripting failures.
    public enum Syscall: String, Hashable, Sendable, CaseIterable {
        /// `open(2)`.
        case open
        /// `close(2)`.
        case close
        /// `write(2)`.
        case write
        /// `pwrite(2)`.
        case pwrite
        /// The GPIO chip-info `ioctl(2)`.
        case gpioChipInfo
        /// A spidev `ioctl(2)`.
        case spiIoctl
        /// Whole-file read.
        case readFile
        /// `access(2)`.
        case access
        /// `stat(2)`.
        case stat
        /// Directory listing.
        case listDirectory
        /// `fsync(2)`.
        case fsync
        /// `rename(2)`.
        case rename
        /// `unlink(2)`.
        case unlink
        /// `read(2)`.
        case read
        /// `send(2)` with `MSG_NOSIGNAL`.
        case send
        /// `socket(2)`.
        case unixSocket
        /// `socket(2)` of an IP family.
        case ipSocket
        /// `sendto(2)` of a datagram.
        case sendDatagram
        /// `recvfrom(2)` of a datagram.
        case receiveDatagram
        /// `getsockopt(SO_ERROR)`.
        case socketError
        /// `getsockname(2)`.
        case localEndpoint
        /// `getpeername(2)`.
        case peerEndpoint
        /// `setsockopt(2)`.
        case setSocketOption
        /// `bind(2)`.
        case bind
        /// `listen(2)`.
        case listen
        /// `accept4(2)`.
        case accept
        /// `connect(2)`.
        case connect
        /// `poll(2)`.
        case poll
        /// `pipe2(2)`.
        case pipe
        /// `fstat(2)`.
        case fstat
        /// `lstat(2)`.
        case lstat
        /// `chmod(2)`.
        case chmod
        /// `mkdir(2)`.
        case mkdir
        /// `sigaction(2)`.
        case setSignalAction
        /// `sigprocmask(2)`.
        case unblockSignals
        /// `posix_spawnp(3)`.
        case spawn
        /// `waitpid(2)`.
        case reap
        /// `kill(2)` of a process group.
        case signalGroup
    }

    /// One recorded call with its arguments.
    public enum Call: Hashable, Sendable {
        /// `open(path, flags)`.
        case open(path: String, flags: Int32)
        /// `close(fd)`.
        case close(fd: Int32)
        /// `write(fd, bytes)` with the bytes offered (not only those taken).
        case write(fd: Int32, bytes: [UInt8])
        /// `pwrite(fd, bytes, offset)` with the bytes offered.
        case pwrite(fd: Int32, bytes: [UInt8], offset: Int64)
        /// `ioctl(fd, GPIO_GET_CHIPINFO_IOCTL)`.
        case gpioChipInfo(fd: Int32)
        /// A spidev request, with the transmitted bytes for `.message`.
        case spiIoctl(fd: Int32, request: SPIRequest, tx: [UInt8])
        /// A whole-file read.
        case readFile(path: String)
        /// `access(path, mode)`.
        case access(path: String, mode: Int32)
        /// `stat(path)`.
        case stat(path: String)
        /// A directory listing.
        case listDirectory(path: String)
        /// `fsync(fd)`.
        case fsync(fd: Int32)
        /// `rename(from, to)`.
        case rename(from: String, to: String)
        /// `unlink(path)`.
        case unlink(path: String)
        /// `read(fd)` with the room offered.
        case read(fd: Int32, count: Int)
        /// `send(fd, bytes)` with the bytes offered.
        case send(fd: Int32, bytes: [UInt8])
        /// `socket(AF_UNIX, SOCK_STREAM | flags)`.
        case unixSocket(flags: Int32)
        /// `bind(fd, path)`.
        case bind(fd: Int32, path: String)
        /// `socket(family, kind | flags)`.
        case ipSocket(family: Int32, kind: IPSocketKind, flags: Int32)
        /// `bind(fd, endpoint)` of an IP socket (fails as `.bind`).
        case bindIP(fd: Int32, endpoint: IPEndpoint)
        /// `connect(fd, endpoint)` of an IP socket (fails as `.connect`).
        case connectIP(fd: Int32, endpoint: IPEndpoint)
        /// `sendto(fd, bytes, endpoint)` of a datagram.
        case sendDatagram(fd: Int32, bytes: [UInt8], to: IPEndpoint)
        /// `recvfrom(fd)` with the room offered.
        case receiveDatagram(fd: Int32, count: Int)
        /// `getsockopt(fd, SO_ERROR)`.
        case socketError(fd: Int32)
        /// `getsockname(fd)`.
        case localEndpoint(fd: Int32)
        /// `getpeername(fd)`.
        case peerEndpoint(fd: Int32)
        /// `setsockopt(fd, option, on)`.
        case setSocketOption(fd: Int32, option: SocketOption, on: Bool)
        /// `listen(fd)`.
        case listen(fd: Int32)
        /// `accept4(fd, flags)`.
        case accept(fd: Int32, flags: Int32)
        /// `connect(fd, path)`.
        case connect(fd: Int32, path: String)
        /// `poll` of these descriptors with this timeout (milliseconds).
        case poll(fds: [Int32], timeout: Int32)
        /// `pipe2(flags)`.
        case pipe(flags: Int32)
        /// `fstat(fd)`.
        case fstat(fd: Int32)
        /// `lstat(path)`.
        case lstat(path: String)
        /// `chmod(path, mode)`.
        case chmod(path: String, mode: UInt32)
        /// `mkdir(path, mode)`.
        case mkdir(path: String, mode: UInt32)
        /// `sigaction(signal)`.
        case setSignalAction(signal: Int32)
        /// `sigprocmask(SIG_UNBLOCK, signals)`.
        case unblockSignals(signals: [Int32])
        /// `posix_spawnp(argv)` with its output descriptors.
        case spawn(argv: [String], stdout: Int32, stderr: Int32)
        /// `waitpid(pid, WNOHANG)`.
        case reap(pid: Int32)
        /// `kill(-group, signal)`.
        case signalGroup(group: Int32, signal: Int32)

        /// Which syscall this was.
        public var syscall: Syscall {
            switch self {
            case .open: return .open
            case .close: return .close
            case .write: return .write
            case .pwrite: return .pwrite
            case .gpioChipInfo: return .gpioChipInfo
            case .spiIoctl: return .spiIoctl
            case .readFile: return .readFile
            case .access: return .access
            case .stat: return .stat
            case .listDirectory: return .listDirectory
            case .fsync: return .fsync
            case .rename: return .rename
            case .unlink: return .unlink
            case .read: return .read
            case .send: return .send
            case .unixSocket: return .unixSocket
            case .bind, .bindIP: return .bind
            case .ipSocket: return .ipSocket
            case .connectIP: return .connect
            case .sendDatagram: return .sendDatagram
            case .receiveDatagram: return .receiveDatagram
            case .socketError: return .socketError
            case .localEndpoint: return .localEndpoint
            case .peerEndpoint: return .peerEndpoint
            case .setSocketOption: return .setSocketOption
            case .listen: return .listen
            case .accept: return .accept
            case .connect: return .connect
            case .poll: return .poll
            case .pipe: return .pipe
            case .fstat: return .fstat
            case .lstat: return .lstat
            case .chmod: return .chmod
            case .mkdir: return .mkdir
            case .setSignalAction: return .setSignalAction
            case .unblockSignals: return .unblockSignals
            case .spawn: return .spawn
            case .reap: return .reap
            case .signalGroup: return .signalGroup
            }
        }
    }

    private struct Failure {
        var syscall: Syscall
        var firstCall: Int
        var times: Int
        var errno: Errno
        var path: String?
        var fd: Int32?
    }

    /// A socket or pipe end, modelled on net/unix/af_unix.c and fs/pipe.c.
    private struct Endpoint {
        enum Kind { case socket, pipeRead, pipeWrite }
        var kind: Kind
        var nonblocking: Bool
        /// Bytes sent to this end and not read yet.
        var incoming: [UInt8] = []
        /// The connected socket or the pipe's other end.
        var peer: Int32?
        /// The other end was closed: reads return what is left, then 0; writes fail with EPIPE.
        var peerGone = false
        /// Closed by the kernel without an orderly end (a listener closed before accepting it).
        var reset = false
        var boundPath: String?
        var listening = false
        /// Connections made to this listener and not accepted yet (their descriptors are only
        /// handed out by accept).
        var backlog: [Int32] = []
        /// `AF_UNIX`, or `AF_INET`/`AF_INET6` for an IP socket.
        var family: Int32 = AF_UNIX
        /// An IP socket's own address once bound (or connected), and its peer's.
        var local: IPEndpoint?
        var remote: IPEndpoint?
        /// The error `SO_ERROR` reports (a refused connect), cleared by reading it.
        var pendingError: Errno?
        /// A connect that failed: the socket is closed in TCP's sense (tcp_done).
        var refused = false
        /// A non-blocking connect answered `EINPROGRESS`: the socket is SS_CONNECTING until
        /// connect is called again (then 0) or `SO_ERROR` is read.
        var connecting = false
        /// The options set on it that are on.
        var options: Set<SocketOption> = []
        /// A UDP socket (`SOCK_DGRAM`), and the datagrams that reached it, oldest first.
        var datagram = false
        var datagrams: [FakeDatagram] = []
    }

    /// A datagram that reached a fake UDP socket.
    public struct FakeDatagram: Hashable, Sendable {
        public var bytes: [UInt8]
        public var from: IPEndpoint
    }

    private struct SPIState {
        var mode: UInt8 = 0
        var bitsPerWord: UInt8 = 8
        var speedHz: UInt32 = 500_000
    }

    private struct State {
        var calls: [Call] = []
        var failures: [Failure] = []
        var files: [String: [UInt8]] = [:]
        var devices: [String: FileStatus] = [:]
        var directories: Set<String> = []
        var denied: Set<String> = []
        var openFiles: [Int32: String] = [:]
        var nextFD: Int32 = 3
        var spi: [Int32: SPIState] = [:]
        var written: [String: [UInt8]] = [:]
        var maxWriteSize: Int?
        var maxTransferredPerMessage: Int?
        var maxSpeedHz: UInt32?
        var ignoredModeWrites = false
        var ledsPIO: [String: FakeLedsPIODevice] = [:]
        var positions: [Int32: Int] = [:]
        var gpioChips: [String: GPIOChipIdentity] = [:]
        var endpoints: [Int32: Endpoint] = [:]
        /// Socket names in the file system and the listener bound there (-1: stale, none).
        var socketNames: [String: Int32] = [:]
        /// What one socket end or pipe holds unread before writers get EAGAIN.
        var socketCapacity = 212_992
        /// The next ephemeral port, from the start of Linux's default ip_local_port_range
        /// (32768–60999, Documentation/networking/ip-sysctl.rst).
        var nextPort: UInt16 = 32768
        var modes: [String: UInt32] = [:]
        var fileMask: UInt32 = 0o022
        var signalActions: [Int32: String] = [:]
        var unblocked: Set<Int32> = []
        var programs: [String: FakeProgram] = [:]
        /// Children spawned and not reaped yet: what they end with and how many reaps they
        /// still answer "running" to.
        var children: [Int32: (status: ChildStatus, running: Int)] = [:]
        var nextPID: Int32 = 4000
    }

    /// A program the fake kernel can run: what it prints and how it ends. It writes its output
    /// at once; `runs` reaps see it still running before its end is reported.
    public struct FakeProgram: Sendable {
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        public var status: ChildStatus
        public var runs: Int
        public init(stdout: String = "", stderr: String = "", status: ChildStatus = .exited(0), runs: Int = 0) {
            self.stdout = Array(stdout.utf8)
            self.stderr = Array(stderr.utf8)
            self.status = status
            self.runs = runs
        }
    }

    /// Makes `name` (argv[0] as given) a program `spawn` can run; others are `ENOENT`.
    public func addProgram(_ name: String, _ program: FakeProgram) {
        state.withLock { $0.programs[name] = program }
    }

    private let state = Mutex(State())

    /// Creates an empty fake kernel.
    public init() {}

    // MARK: - Scripting

    /// Makes the `nth` (1-based) call of `syscall` — and the `times - 1` after it — fail with
    /// `errno`; with `path`, only calls on that path (or that path's descriptor) count.
    /// With `fd`, only calls on that descriptor count (a socket has no path).
    public func fail(_ syscall: Syscall, with errno: Errno, onCall nth: Int = 1, times: Int = 1, path: String? = nil,
                     fd: Int32? = nil) {
        state.withLock {
            $0.failures.append(Failure(syscall: syscall, firstCall: nth, times: times, errno: errno, path: path, fd: fd))
        }
    }

    /// Adds a regular file with text contents.
    public func addFile(_ path: String, _ contents: String) {
        addFile(path, bytes: Array(contents.utf8))
    }

    /// Adds a regular file with byte contents (device-tree strings contain NULs).
    public func addFile(_ path: String, bytes: [UInt8]) {
        state.withLock { $0.files[path] = bytes }
    }

    /// Adds a character device node owned by `groupID`.
    public func addDevice(_ path: String, groupID: UInt32 = 0) {
        state.withLock { $0.devices[path] = FileStatus(isCharacterDevice: true, groupID: groupID, permissions: 0o660) }
    }

    /// Adds a Pi 5 `/dev/ledsN` node that behaves like the `ws2812-pio-rp1` driver
    /// (see `FakeLedsPIODevice`).
    public func addLedsPIODevice(_ path: String, _ device: FakeLedsPIODevice, groupID: UInt32 = 0) {
        state.withLock {
            $0.devices[path] = FileStatus(isCharacterDevice: true, groupID: groupID, permissions: 0o660)
            $0.ledsPIO[path] = device
        }
    }

    /// The `ws2812-pio-rp1` device at `path` as it is now: its buffer, brightness and light.
    public func ledsPIODevice(_ path: String) -> FakeLedsPIODevice? {
        state.withLock { $0.ledsPIO[path] }
    }

    /// Adds the overlay's device-tree node `/proc/device-tree/<node>` under `root`, with the
    /// properties `ws2812-pio-overlay.dts` sets (`rpi,num-leds`, `rpi,brightness` as big-endian
    /// u32, `rpi,rgbw` as an empty property, `dev-name` as a NUL-terminated string).
    public func addLedsPIOOverlay(root: String = "/", node: String = "ws2812_pio@18", numLEDs: UInt32,
                                  brightness: UInt32? = 255, rgbw: Bool = false, devName: String = "leds%d") {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        let directory = RootPath.join(root, "/proc/device-tree/" + node)
        addFile(directory + "/rpi,num-leds", bytes: bigEndian(numLEDs))
        if let brightness { addFile(directory + "/rpi,brightness", bytes: bigEndian(brightness)) }
        if rgbw { addFile(directory + "/rpi,rgbw", bytes: []) }
        addFile(directory + "/dev-name", bytes: Array(devName.utf8) + [0])
        addFile(directory + "/compatible", bytes: Array("raspberrypi,ws2812-pio-rp1".utf8) + [0])
    }

    /// Adds a GPIO character device that answers the chip-info ioctl with `label`.
    public func addGPIOChip(_ path: String, label: String, lineCount: Int, groupID: UInt32 = 0) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        state.withLock {
            $0.devices[path] = FileStatus(isCharacterDevice: true, groupID: groupID, permissions: 0o660)
            $0.gpioChips[path] = GPIOChipIdentity(name: name, label: label, lineCount: lineCount)
        }
    }

    /// Adds an empty directory.
    public func addDirectory(_ path: String) {
        state.withLock { _ = $0.directories.insert(path) }
    }

    /// Makes `open` and `access` of `path` fail with `EACCES`, as for a user outside its group.
    public func deny(_ path: String) {
        state.withLock { _ = $0.denied.insert(path) }
    }

    /// Makes every `write` take at most `count` bytes (a short write).
    public func limitWrites(to count: Int?) {
        state.withLock { $0.maxWriteSize = count }
    }

    /// Makes every `SPI_IOC_MESSAGE` report at most `count` bytes transferred.
    public func limitMessages(to count: Int?) {
        state.withLock { $0.maxTransferredPerMessage = count }
    }

    /// Makes the spidev driver clamp the clock to `hz`, as a controller with a lower maximum does.
    public func clampSPISpeed(to hz: UInt32?) {
        state.withLock { $0.maxSpeedHz = hz }
    }

    /// Makes the driver keep mode 3 whatever is written, to test the read-back check.
    public func ignoreModeWrites() {
        state.withLock { $0.ignoredModeWrites = true }
    }

    // MARK: - Inspection

    /// Every call made, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The descriptors still open, with their paths; empty when nothing leaked.
    public var openDescriptors: [Int32: String] { state.withLock { $0.openFiles } }

    /// All bytes written (and taken) to `path` so far.
    public func written(to path: String) -> [UInt8] { state.withLock { $0.written[path] ?? [] } }

    /// The spidev requests made, in order, without the descriptors.
    public var spiRequests: [SPIRequest] {
        calls.compactMap { if case .spiIoctl(_, let request, _) = $0 { return request } else { return nil } }
    }

    // MARK: - SystemCalls

    /// Records the call, then throws the scripted failure for it, if any.
    private func begin(_ call: Call, path: String?, in state: inout State) throws(Errno) {
        state.calls.append(call)
        let syscall = call.syscall
        // Path-scoped failures count only calls on that path; others count every call.
        for index in state.failures.indices {
            let failure = state.failures[index]
            guard failure.syscall == syscall else { continue }
            if let wanted = failure.path, wanted != path { continue }
            if let wanted = failure.fd, wanted != Self.fd(of: call) { continue }
            let count = state.calls.filter { recorded in
                guard recorded.syscall == syscall else { return false }
                if let wanted = failure.fd, Self.fd(of: recorded) != wanted { return false }
                guard let wanted = failure.path else { return true }
                return Self.path(of: recorded, in: state) == wanted
            }.count
            if count >= failure.firstCall && count - failure.firstCall < failure.times {
                throw failure.errno
            }
        }
    }

    private static func path(of call: Call, in state: State) -> String? {
        switch call {
        case .open(let path, _), .readFile(let path), .access(let path, _), .stat(let path), .listDirectory(let path),
             .unlink(let path), .rename(let path, _), .bind(_, let path), .connect(_, let path), .lstat(let path),
             .chmod(let path, _), .mkdir(let path, _):
            return path
        case .unixSocket, .poll, .pipe, .setSignalAction, .unblockSignals:
            return nil
        default:
            return fd(of: call).flatMap { state.openFiles[$0] }
        }
    }

    private static func fd(of call: Call) -> Int32? {
        switch call {
        case .close(let fd), .write(let fd, _), .pwrite(let fd, _, _), .spiIoctl(let fd, _, _), .gpioChipInfo(let fd),
             .fsync(let fd), .read(let fd, _), .send(let fd, _), .bind(let fd, _), .listen(let fd), .accept(let fd, _),
             .connect(let fd, _), .fstat(let fd), .bindIP(let fd, _), .connectIP(let fd, _), .socketError(let fd),
             .localEndpoint(let fd), .peerEndpoint(let fd), .setSocketOption(let fd, _, _), .sendDatagram(let fd, _, _),
             .receiveDatagram(let fd, _):
            return fd
        default:
            return nil
        }
    }

    private static func exists(_ path: String, in state: State) -> Bool {
        state.files[path] != nil || state.devices[path] != nil || state.socketNames[path] != nil || isDirectory(path, in: state)
    }

    private static func isDirectory(_ path: String, in state: State) -> Bool {
        if state.directories.contains(path) { return true }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        let all = Array(state.files.keys) + Array(state.devices.keys) + Array(state.directories) + Array(state.socketNames.keys)
        return all.contains { $0.hasPrefix(prefix) }
    }

    /// Fake `open(2)`: existing files and devices open; `O_CREAT` creates a file.
    public func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            try begin(.open(path: path, flags: flags), path: path, in: &state)
            if state.denied.contains(path) { throw Errno.permissionDenied }
            if !Self.exists(path, in: state) {
                guard flags & O_CREAT != 0 else { throw Errno.noSuchFileOrDirectory }
                state.files[path] = []
            } else if flags & O_CREAT != 0 && flags & O_EXCL != 0 {
                throw Errno(rawValue: EEXIST)
            }
            // As fs/namei.c does: O_DIRECTORY on anything else is ENOTDIR, and a directory opens
            // only for reading (EISDIR for writing).
            let directory = Self.isDirectory(path, in: state)
            if flags & O_DIRECTORY != 0 && !directory { throw Errno(rawValue: ENOTDIR) }
            if directory && flags & O_ACCMODE != O_RDONLY { throw Errno(rawValue: EISDIR) }
            let fd = state.nextFD
            state.nextFD += 1
            state.openFiles[fd] = path
            state.positions[fd] = 0
            // The real kernel ignores O_TRUNC on character devices (fs/namei.c, may_open).
            if flags & O_TRUNC != 0, state.files[path] != nil { state.files[path] = [] }
            if state.devices[path] != nil && state.ledsPIO[path] == nil && state.gpioChips[path] == nil {
                state.spi[fd] = SPIState()
            }
            return fd
        }
    }

    /// Fake `close(2)`: the descriptor is released even when the call fails, as on Linux.
    public func close(_ fd: Int32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            defer {
                state.openFiles[fd] = nil
                state.positions[fd] = nil
                Self.release(fd, in: &state)
            }
            try begin(.close(fd: fd), path: state.openFiles[fd], in: &state)
            guard state.openFiles[fd] != nil || state.endpoints[fd] != nil else { throw Errno(rawValue: EBADF) }
        }
    }

    /// Fake `write(2)`: appends to the file, honouring `limitWrites`.
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let offered = Array(bytes)
        return try state.withLock { (state) throws(Errno) -> Int in
            try begin(.write(fd: fd, bytes: offered), path: state.openFiles[fd], in: &state)
            if state.endpoints[fd] != nil { return try Self.send(offered, from: fd, in: &state) }
            guard let path = state.openFiles[fd] else { throw Errno(rawValue: EBADF) }
            if var device = state.ledsPIO[path] {
                // ksys_write (fs/read_write.c) stores the new position only when the call succeeds.
                let (result, position) = device.write(offered, at: state.positions[fd] ?? 0)
                state.ledsPIO[path] = device
                let taken = try result.get()
                state.positions[fd] = position
                state.written[path, default: []].append(contentsOf: offered[0..<taken])
                return taken
            }
            let taken = min(offered.count, state.maxWriteSize ?? offered.count)
            state.written[path, default: []].append(contentsOf: offered[0..<taken])
            if state.files[path] != nil { state.files[path]?.append(contentsOf: offered[0..<taken]) }
            return taken
        }
    }

    /// Fake `pwrite(2)`: writes at `offset` and leaves the descriptor's position alone; a regular
    /// file is overwritten in place (and grows), a `/dev/ledsN` node behaves as its driver does.
    public func pwrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64) throws(Errno) -> Int {
        let offered = Array(bytes)
        return try state.withLock { (state) throws(Errno) -> Int in
            try begin(.pwrite(fd: fd, bytes: offered, offset: offset), path: state.openFiles[fd], in: &state)
            guard let path = state.openFiles[fd] else { throw Errno(rawValue: EBADF) }
            guard offset >= 0 else { throw Errno.invalidArgument }
            if var device = state.ledsPIO[path] {
                let (result, _) = device.write(offered, at: Int(offset))
                state.ledsPIO[path] = device
                let taken = try result.get()
                state.written[path, default: []].append(contentsOf: offered[0..<taken])
                return taken
            }
            let taken = min(offered.count, state.maxWriteSize ?? offered.count)
            state.written[path, default: []].append(contentsOf: offered[0..<taken])
            if var contents = state.files[path] {
                let start = Int(offset)
                if contents.count < start + taken {
                    contents += [UInt8](repeating: 0, count: start + taken - contents.count)
                }
                contents.replaceSubrange(start..<(start + taken), with: offered[0..<taken])
                state.files[path] = contents
            }
            return taken
        }
    }

    /// Fake `GPIO_GET_CHIPINFO_IOCTL`: answers for chips added with `addGPIOChip`, else `ENOTTY`.
    public func gpioChipInfo(_ fd: Int32) throws(Errno) -> GPIOChipIdentity {
        try state.withLock { (state) throws(Errno) -> GPIOChipIdentity in
            try begin(.gpioChipInfo(fd: fd), path: state.openFiles[fd], in: &state)
            guard let path = state.openFiles[fd] else { throw Errno(rawValue: EBADF) }
            guard let chip = state.gpioChips[path] else { throw Errno(rawValue: ENOTTY) }
            return chip
        }
    }

    /// Fake spidev `ioctl(2)`: remembers mode, bits and clock per descriptor.
    public func spiIoctl(_ fd: Int32, _ request: SPIRequest, tx: UnsafeRawBufferPointer?) throws(Errno) -> UInt32 {
        let bytes: [UInt8]
        if case .message(let length, _, _) = request, let tx {
            bytes = Array(tx.prefix(length))
        } else {
            bytes = []
        }
        return try state.withLock { (state) throws(Errno) -> UInt32 in
            try begin(.spiIoctl(fd: fd, request: request, tx: bytes), path: state.openFiles[fd], in: &state)
            guard var spi = state.spi[fd], let path = state.openFiles[fd] else { throw Errno(rawValue: ENOTTY) }
            defer { state.spi[fd] = spi }
            switch request {
            case .writeMode(let mode):
                spi.mode = state.ignoredModeWrites ? 3 : mode
                return 0
            case .readMode:
                return UInt32(state.ignoredModeWrites ? 3 : spi.mode)
            case .writeBitsPerWord(let bits):
                spi.bitsPerWord = bits
                return 0
            case .readBitsPerWord:
                return UInt32(spi.bitsPerWord)
            case .writeMaxSpeedHz(let hz):
                spi.speedHz = min(hz, state.maxSpeedHz ?? hz)
                return 0
            case .readMaxSpeedHz:
                return spi.speedHz
            case .message(let length, _, _):
                let taken = min(length, state.maxTransferredPerMessage ?? length)
                state.written[path, default: []].append(contentsOf: bytes.prefix(taken))
                return UInt32(taken)
            }
        }
    }

    /// Fake whole-file read.
    public func readFile(_ path: String) throws(Errno) -> [UInt8] {
        try state.withLock { (state) throws(Errno) -> [UInt8] in
            try begin(.readFile(path: path), path: path, in: &state)
            if state.denied.contains(path) { throw Errno.permissionDenied }
            if let contents = state.files[path] { return contents }
            if Self.isDirectory(path, in: state) { throw Errno.isDirectory }
            throw Errno.noSuchFileOrDirectory
        }
    }

    /// Fake `access(2)`: denied paths fail with `EACCES`, missing ones with `ENOENT`.
    public func access(_ path: String, _ mode: Int32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.access(path: path, mode: mode), path: path, in: &state)
            guard Self.exists(path, in: state) else { throw Errno.noSuchFileOrDirectory }
            if state.denied.contains(path) && mode != F_OK { throw Errno.permissionDenied }
        }
    }

    /// Fake `stat(2)`.
    public func stat(_ path: String) throws(Errno) -> FileStatus {
        try state.withLock { (state) throws(Errno) -> FileStatus in
            try begin(.stat(path: path), path: path, in: &state)
            return try Self.status(of: path, in: state)
        }
    }

    private static func status(of path: String, in state: State) throws(Errno) -> FileStatus {
        let mode = state.modes[path]
        if state.socketNames[path] != nil { return FileStatus(permissions: mode ?? 0o755, isSocket: true) }
        if let device = state.devices[path] { return device }
        if let contents = state.files[path] { return FileStatus(permissions: mode ?? 0o644, size: contents.count) }
        if Self.isDirectory(path, in: state) { return FileStatus(isDirectory: true, permissions: mode ?? 0o755) }
        throw Errno.noSuchFileOrDirectory
    }

    /// Fake directory listing: the next path component of everything below `path`.
    public func listDirectory(_ path: String) throws(Errno) -> [String] {
        try state.withLock { (state) throws(Errno) -> [String] in
            try begin(.listDirectory(path: path), path: path, in: &state)
            guard Self.isDirectory(path, in: state) else {
                throw Self.exists(path, in: state) ? Errno.notDirectory : Errno.noSuchFileOrDirectory
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            let all = Array(state.files.keys) + Array(state.devices.keys) + Array(state.directories)
            let names = all.filter { $0.hasPrefix(prefix) }.compactMap {
                $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            }
            return Array(Set(names)).sorted()
        }
    }

    /// Fake `fsync(2)`: nothing to flush, but it fails as scripted and needs an open descriptor.
    public func fsync(_ fd: Int32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.fsync(fd: fd), path: state.openFiles[fd], in: &state)
            guard state.openFiles[fd] != nil else { throw Errno(rawValue: EBADF) }
        }
    }

    /// Fake `rename(2)` of a regular file: `to` takes `from`'s contents, `from` is gone.
    public func rename(_ from: String, _ to: String) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.rename(from: from, to: to), path: from, in: &state)
            guard let contents = state.files[from] else { throw Errno.noSuchFileOrDirectory }
            if Self.isDirectory(to, in: state) { throw Errno(rawValue: EISDIR) }
            state.files[to] = contents
            state.files[from] = nil
        }
    }

    /// Fake `unlink(2)` of a file.
    public func unlink(_ path: String) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.unlink(path: path), path: path, in: &state)
            // A socket's name goes; a listener still bound to it keeps its connections (unlink(2)).
            if state.socketNames.removeValue(forKey: path) != nil { return }
            guard state.files.removeValue(forKey: path) != nil else { throw Errno.noSuchFileOrDirectory }
        }
    }

    // MARK: - Sockets, pipes, signals

    /// Makes each socket end or pipe hold at most `bytes` unread before writers get `EAGAIN`.
    public func limitSocketBuffers(to bytes: Int) {
        state.withLock { $0.socketCapacity = bytes }
    }

    /// Adds a listening Unix socket at `path` without recording calls; its descriptor.
    @discardableResult
    public func addListeningSocket(_ path: String) -> Int32 {
        state.withLock { state in
            var endpoint = Endpoint(kind: .socket, nonblocking: true)
            endpoint.boundPath = path
            endpoint.listening = true
            let fd = Self.newEndpoint(endpoint, in: &state)
            state.socketNames[path] = fd
            return fd
        }
    }

    /// Connects a test's client to the listener at `path` without recording a call: the same
    /// outcome as `connect(2)` (`ENOENT`, `ECONNREFUSED`), the client's descriptor on success.
    public func connectClient(to path: String) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            let fd = Self.newEndpoint(Endpoint(kind: .socket, nonblocking: true), in: &state)
            do throws(Errno) {
                try Self.connect(fd, to: path, in: &state)
            } catch {
                state.endpoints[fd] = nil
                throw error
            }
            return fd
        }
    }

    /// Sends `text` from a test's client, whatever the buffer holds (not recorded).
    public func clientSend(_ fd: Int32, _ text: String) {
        clientSend(fd, bytes: Array(text.utf8))
    }

    /// Sends `bytes` from a test's client (not recorded).
    public func clientSend(_ fd: Int32, bytes: [UInt8]) {
        state.withLock { state in
            guard let peer = state.endpoints[fd]?.peer else { return }
            state.endpoints[peer]?.incoming += bytes
        }
    }

    /// What reached a test's client so far, taken out of its buffer (not recorded).
    public func clientReceive(_ fd: Int32) -> String {
        state.withLock { state in
            defer { state.endpoints[fd]?.incoming = [] }
            return String(decoding: state.endpoints[fd]?.incoming ?? [], as: UTF8.self)
        }
    }

    /// The bytes that reached a test's client so far, taken out of its buffer (not recorded).
    public func clientReceiveBytes(_ fd: Int32) -> [UInt8] {
        state.withLock { state in
            defer { state.endpoints[fd]?.incoming = [] }
            return state.endpoints[fd]?.incoming ?? []
        }
    }

    /// Whether the server closed a test's client's connection.
    public func clientIsClosedByPeer(_ fd: Int32) -> Bool {
        state.withLock { $0.endpoints[fd]?.peerGone ?? true }
    }

    /// Closes a test's client (not recorded).
    public func clientClose(_ fd: Int32) {
        state.withLock { Self.release(fd, in: &$0) }
    }

    /// The open socket and pipe descriptors.
    public var openEndpoints: [Int32] { state.withLock { $0.endpoints.keys.sorted() } }

    /// What `signal` is set to: "default", "ignore", "handler" or "handler, restart"; nil if untouched.
    public func signalAction(_ signal: Int32) -> String? { state.withLock { $0.signalActions[signal] } }

    /// The signals unblocked so far.
    public var unblockedSignals: Set<Int32> { state.withLock { $0.unblocked } }

    /// The permission bits `path` got from `bind` or `chmod`.
    public func mode(of path: String) -> UInt32? { state.withLock { $0.modes[path] } }

    private static func newEndpoint(_ endpoint: Endpoint, in state: inout State) -> Int32 {
        let fd = state.nextFD
        state.nextFD += 1
        state.endpoints[fd] = endpoint
        return fd
    }

    /// Closes an endpoint: its peer sees end of file (net/unix/af_unix.c unix_release_sock sets
    /// the peer's shutdown to SHUTDOWN_MASK); connections still in a listener's backlog are reset.
    private static func release(_ fd: Int32, in state: inout State) {
        guard let endpoint = state.endpoints.removeValue(forKey: fd) else { return }
        if let peer = endpoint.peer { state.endpoints[peer]?.peerGone = true }
        for pending in endpoint.backlog {
            if let client = state.endpoints.removeValue(forKey: pending)?.peer { state.endpoints[client]?.reset = true }
        }
        if let path = endpoint.boundPath, state.socketNames[path] == fd { state.socketNames[path] = -1 }
    }

    /// unix_stream_connect and unix_find_bsd (net/unix/af_unix.c); unix(7): a missing name is
    /// `ENOENT`, a name that is not a socket or has no listener is `ECONNREFUSED`.
    private static func connect(_ fd: Int32, to path: String, in state: inout State) throws(Errno) {
        guard var endpoint = state.endpoints[fd], endpoint.kind == .socket else { throw Errno(rawValue: ENOTSOCK) }
        guard endpoint.family == AF_UNIX else { throw Errno(rawValue: EAFNOSUPPORT) }
        guard path.utf8.count < 108 else { throw Errno(rawValue: ENAMETOOLONG) }
        if endpoint.peer != nil { throw Errno(rawValue: EISCONN) }
        guard let listener = state.socketNames[path] else {
            throw exists(path, in: state) ? Errno(rawValue: ECONNREFUSED) : Errno.noSuchFileOrDirectory
        }
        guard listener >= 0, state.endpoints[listener]?.listening == true else { throw Errno(rawValue: ECONNREFUSED) }
        // The server's end exists from now on, waiting in the backlog for accept.
        let server = newEndpoint(Endpoint(kind: .socket, nonblocking: false, peer: fd), in: &state)
        state.endpoints[listener]?.backlog.append(server)
        endpoint.peer = server
        state.endpoints[fd] = endpoint
    }

    /// A write to a socket or pipe: `EPIPE` once the reader has gone (unix_stream_sendmsg,
    /// pipe_write; the daemon ignores SIGPIPE and sends with MSG_NOSIGNAL), `EAGAIN` when the
    /// reader's buffer is full, else as much as fits.
    private static func send(_ offered: [UInt8], from fd: Int32, in state: inout State) throws(Errno) -> Int {
        guard let endpoint = state.endpoints[fd] else { throw Errno(rawValue: EBADF) }
        if endpoint.kind == .pipeRead { throw Errno(rawValue: EBADF) }
        if let error = endpoint.pendingError {
            state.endpoints[fd]?.pendingError = nil
            throw error
        }
        if endpoint.refused { throw Errno(rawValue: EPIPE) }
        guard let peer = endpoint.peer else { throw Errno(rawValue: ENOTCONN) }
        if endpoint.peerGone || state.endpoints[peer] == nil { throw Errno(rawValue: EPIPE) }
        guard !offered.isEmpty else { return 0 }
        let room = state.socketCapacity - (state.endpoints[peer]?.incoming.count ?? 0)
        guard room > 0 else { throw Errno(rawValue: EAGAIN) }
        let taken = min(offered.count, room, state.maxWriteSize ?? offered.count)
        state.endpoints[peer]?.incoming += offered[0..<taken]
        return taken
    }

    /// Fake `read(2)`: a socket or pipe gives what is buffered, then 0 once the other end has
    /// closed, else `EAGAIN` (on a blocking descriptor the real call would wait; a fake cannot,
    /// so it answers as if non-blocking); a regular file reads from the descriptor's position.
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let bytes = try state.withLock { (state) throws(Errno) -> [UInt8] in
            try begin(.read(fd: fd, count: buffer.count), path: state.openFiles[fd], in: &state)
            if var endpoint = state.endpoints[fd] {
                if endpoint.kind == .pipeWrite { throw Errno(rawValue: EBADF) }
                if let error = endpoint.pendingError {
                    state.endpoints[fd]?.pendingError = nil
                    throw error
                }
                if endpoint.listening || (endpoint.kind == .socket && endpoint.peer == nil) { throw Errno(rawValue: ENOTCONN) }
                if !endpoint.incoming.isEmpty {
                    let taken = Array(endpoint.incoming.prefix(buffer.count))
                    endpoint.incoming.removeFirst(taken.count)
                    state.endpoints[fd] = endpoint
                    return taken
                }
                if endpoint.reset { throw Errno(rawValue: ECONNRESET) }
                if endpoint.peerGone { return [] }
                throw Errno(rawValue: EAGAIN)
            }
            guard let path = state.openFiles[fd] else { throw Errno(rawValue: EBADF) }
            guard let contents = state.files[path] else { throw Errno.invalidArgument }
            let position = state.positions[fd] ?? 0
            let taken = Array(contents.dropFirst(position).prefix(buffer.count))
            state.positions[fd] = position + taken.count
            return taken
        }
        buffer.copyBytes(from: bytes)
        return bytes.count
    }

    /// Fake `send(2)`: a write on a socket; anything else is `ENOTSOCK`.
    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let offered = Array(bytes)
        return try state.withLock { (state) throws(Errno) -> Int in
            try begin(.send(fd: fd, bytes: offered), path: nil, in: &state)
            guard state.endpoints[fd]?.kind == .socket else {
                throw Errno(rawValue: state.endpoints[fd] == nil && state.openFiles[fd] == nil ? EBADF : ENOTSOCK)
            }
            return try Self.send(offered, from: fd, in: &state)
        }
    }

    /// Fake `socket(2)`.
    public func unixSocket(flags: Int32) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            try begin(.unixSocket(flags: flags), path: nil, in: &state)
            return Self.newEndpoint(Endpoint(kind: .socket, nonblocking: flags & O_NONBLOCK != 0), in: &state)
        }
    }

    /// Fake `bind(2)`: the name appears with mode 0777 less the umask (unix_bind_bsd);
    /// a name already there is `EADDRINUSE`, even a stale socket (unix(7)).
    public func bind(_ fd: Int32, path: String) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.bind(fd: fd, path: path), path: path, in: &state)
            guard let endpoint = state.endpoints[fd], endpoint.kind == .socket else { throw Errno(rawValue: ENOTSOCK) }
            guard endpoint.family == AF_UNIX else { throw Errno(rawValue: EAFNOSUPPORT) }
            guard path.utf8.count < 108 else { throw Errno(rawValue: ENAMETOOLONG) }
            if endpoint.boundPath != nil { throw Errno.invalidArgument }
            if Self.exists(path, in: state) { throw Errno(rawValue: EADDRINUSE) }
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !directory.isEmpty && !Self.isDirectory(directory, in: state) { throw Errno.noSuchFileOrDirectory }
            state.socketNames[path] = fd
            state.modes[path] = 0o777 & ~state.fileMask
            state.endpoints[fd]?.boundPath = path
        }
    }

    /// Fake `listen(2)`.
    public func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.listen(fd: fd), path: nil, in: &state)
            guard let endpoint = state.endpoints[fd], endpoint.kind == .socket else { throw Errno(rawValue: ENOTSOCK) }
            guard endpoint.peer == nil else { throw Errno.invalidArgument }
            state.endpoints[fd]?.listening = true
        }
    }

    /// Fake `accept4(2)`: the oldest waiting connection; none waiting is `EAGAIN` (accept(2) on a
    /// non-blocking socket; a blocking one would wait, which a fake cannot).
    public func accept(_ fd: Int32, flags: Int32) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            try begin(.accept(fd: fd, flags: flags), path: nil, in: &state)
            guard let endpoint = state.endpoints[fd], endpoint.kind == .socket else {
                throw Errno(rawValue: state.openFiles[fd] == nil ? EBADF : ENOTSOCK)
            }
            guard endpoint.listening else { throw Errno.invalidArgument }
            guard let connection = endpoint.backlog.first else { throw Errno(rawValue: EAGAIN) }
            state.endpoints[fd]?.backlog.removeFirst()
            state.endpoints[connection]?.nonblocking = flags & O_NONBLOCK != 0
            return connection
        }
    }

    /// Fake `connect(2)` (see `connectClient`).
    public func connect(_ fd: Int32, path: String) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.connect(fd: fd, path: path), path: path, in: &state)
            try Self.connect(fd, to: path, in: &state)
        }
    }

    /// Fake `poll(2)`: reports what is ready now and never waits. As the kernel does (unix_poll,
    /// pipe_poll, poll(2)): POLLIN for data, a waiting connection or end of file; POLLHUP once the
    /// other end closed; POLLERR on a pipe's write end without readers; POLLNVAL for a descriptor
    /// that is not open; POLLHUP, POLLERR and POLLNVAL are reported even when not asked for, and a
    /// negative descriptor is skipped.
    public func poll(_ fds: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        let asked = fds
        let answered = try state.withLock { (state) throws(Errno) -> [pollfd] in
            try begin(.poll(fds: asked.map(\.fd), timeout: timeout), path: nil, in: &state)
            return asked.map { entry in
                var entry = entry
                entry.revents = entry.fd < 0 ? 0 : Self.readiness(entry.fd, in: state) & (entry.events | Int16(POLLHUP | POLLERR | POLLNVAL))
                return entry
            }
        }
        fds = answered
        return fds.filter { $0.revents != 0 }.count
    }

    private static func readiness(_ fd: Int32, in state: State) -> Int16 {
        if state.openFiles[fd] != nil { return Int16(POLLIN | POLLOUT) }
        guard let endpoint = state.endpoints[fd] else { return Int16(POLLNVAL) }
        var events: Int16 = 0
        if endpoint.listening { return endpoint.backlog.isEmpty ? 0 : Int16(POLLIN) }
        if !endpoint.incoming.isEmpty { events |= Int16(POLLIN) }
        let peerRoom = endpoint.peer.flatMap { state.endpoints[$0] }.map { state.socketCapacity - $0.incoming.count } ?? 0
        switch endpoint.kind {
        case .socket where endpoint.datagram:
            // udp_poll: readable with a datagram queued; writable while the send buffer has room.
            return (endpoint.datagrams.isEmpty ? 0 : Int16(POLLIN)) | Int16(POLLOUT)
        case .socket:
            // A refused TCP connect (tcp_poll in net/ipv4/tcp.c: state CLOSE is POLLHUP, sk_err
            // POLLERR, the receive side shut POLLIN, and POLLOUT too, as TCPSemanticsTests sees
            // on Linux).
            if endpoint.refused { return Int16(POLLIN | POLLOUT | POLLERR | POLLHUP) }
            guard endpoint.peer != nil else { return Int16(POLLOUT | POLLHUP) }
            if endpoint.peerGone || endpoint.reset { events |= Int16(POLLIN | POLLHUP) }
            if endpoint.reset { events |= Int16(POLLERR) }
            if !endpoint.peerGone && peerRoom > 0 { events |= Int16(POLLOUT) }
        case .pipeRead:
            if endpoint.peerGone { events |= Int16(POLLHUP) }
        case .pipeWrite:
            if endpoint.peerGone { events |= Int16(POLLERR) } else if peerRoom > 0 { events |= Int16(POLLOUT) }
        }
        return events
    }

    // MARK: - IP sockets (TCP on the loopback; every listener is on this host)

    /// Fake `socket(2)` of `AF_INET`/`AF_INET6`: TCP on the loopback, and UDP datagrams
    /// between the fake's own sockets (a test's name server).
    public func ipSocket(family: Int32, kind: IPSocketKind, flags: Int32) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            try begin(.ipSocket(family: family, kind: kind, flags: flags), path: nil, in: &state)
            guard family == AF_INET || family == AF_INET6 else { throw Errno(rawValue: EAFNOSUPPORT) }
            var endpoint = Endpoint(kind: .socket, nonblocking: flags & O_NONBLOCK != 0)
            endpoint.datagram = kind == .datagram
            endpoint.family = family
            return Self.newEndpoint(endpoint, in: &state)
        }
    }

    /// The IP socket at `fd`, or the errno the kernel gives: `EBADF`, `ENOTSOCK`, and for an
    /// address of the other family `EAFNOSUPPORT` (inet_bind, __inet_stream_connect check
    /// `sin_family`) or `EINVAL` (inet6_bind checks the shorter length of a `sockaddr_in`).
    private static func ipEndpoint(_ fd: Int32, for address: IPEndpoint?, in state: State) throws(Errno) -> Endpoint {
        guard let endpoint = state.endpoints[fd] else { throw Errno(rawValue: state.openFiles[fd] == nil ? EBADF : ENOTSOCK) }
        guard endpoint.kind == .socket else { throw Errno(rawValue: ENOTSOCK) }
        guard endpoint.family != AF_UNIX else { throw Errno(rawValue: EAFNOSUPPORT) }
        if let address, address.family != endpoint.family {
            throw Errno(rawValue: endpoint.family == AF_INET ? EAFNOSUPPORT : EINVAL)
        }
        return endpoint
    }

    /// Whether a socket bound to `bound` (with its options) takes what is sent to `wanted`:
    /// the same address, or the wildcard of its family, or IPv6's wildcard for IPv4 too unless
    /// `IPV6_V6ONLY` (ipv6(7)).
    private static func covers(_ bound: IPEndpoint, options: Set<SocketOption>, _ wanted: IPEndpoint) -> Bool {
        guard bound.port == wanted.port else { return false }
        if bound.address == wanted.address { return true }
        guard bound.isWildcard else { return false }
        return bound.family == wanted.family || (bound.isIPv6 && !options.contains(.ipv6Only))
    }

    /// A free ephemeral port.
    private static func ephemeralPort(in state: inout State) -> UInt16 {
        while true {
            let port = state.nextPort
            state.nextPort = port >= 60999 ? 32768 : port + 1
            if !state.endpoints.values.contains(where: { $0.local?.port == port }) { return port }
        }
    }

    /// Fake `bind(2)` of an IP socket: port 0 takes an ephemeral port; a port another socket
    /// holds on an overlapping address is `EADDRINUSE` (inet_csk_get_port; `SO_REUSEADDR` only
    /// lets a bind share with sockets in TIME_WAIT, which the fake has none of); a socket bound
    /// already is `EINVAL`.
    public func bind(_ fd: Int32, to address: IPEndpoint) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.bindIP(fd: fd, endpoint: address), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: address, in: state)
            if endpoint.local != nil { throw Errno.invalidArgument }
            var chosen = address
            if address.port == 0 {
                chosen = IPEndpoint(address: address.address, port: Self.ephemeralPort(in: &state))!
            } else {
                for other in state.endpoints.values {
                    // TCP and UDP ports are apart (each protocol has its own hash table of binds).
                    guard let local = other.local, other.remote == nil, local.port == address.port,
                          other.datagram == endpoint.datagram else { continue }
                    if Self.covers(local, options: other.options, address)
                        || Self.covers(address, options: endpoint.options, local) {
                        throw Errno(rawValue: EADDRINUSE)
                    }
                }
            }
            state.endpoints[fd]?.local = chosen
        }
    }

    /// Fake `connect(2)` of a TCP socket to a listener in this fake kernel. As the kernel does
    /// (__inet_stream_connect in net/ipv4/af_inet.c): a non-blocking socket always gets
    /// `EINPROGRESS`, and the outcome is then in `poll` and `SO_ERROR` (a refused one is
    /// `ECONNREFUSED` there); a blocking socket gets the outcome at once. A second connect while
    /// one is under way is `EALREADY`, on a connected socket `EISCONN`.
    public func connect(_ fd: Int32, to address: IPEndpoint) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.connectIP(fd: fd, endpoint: address), path: nil, in: &state)
            try Self.connectIP(fd, to: address, in: &state)
        }
    }

    private static func connectIP(_ fd: Int32, to address: IPEndpoint, in state: inout State) throws(Errno) {
        var endpoint = try ipEndpoint(fd, for: address, in: state)
        // Not modelled (ledring's lookups send with sendto): say so rather than act as TCP.
        if endpoint.datagram { throw Errno(rawValue: EOPNOTSUPP) }
        // __inet_stream_connect: a socket still SS_CONNECTING whose handshake is done becomes
        // SS_CONNECTED on the next connect, which returns 0; after that it is EISCONN.
        if endpoint.connecting && endpoint.peer != nil {
            state.endpoints[fd]?.connecting = false
            return
        }
        if endpoint.peer != nil { throw Errno(rawValue: EISCONN) }
        if endpoint.listening { throw Errno.invalidArgument }
        if endpoint.local == nil {
            let loopback: [UInt8] = endpoint.family == AF_INET ? [127, 0, 0, 1] : Array(repeating: 0, count: 15) + [1]
            endpoint.local = IPEndpoint(address: loopback, port: ephemeralPort(in: &state))
        }
        endpoint.remote = address
        let listener = state.endpoints.first { _, other in
            other.listening && !other.datagram && other.local.map { covers($0, options: other.options, address) } == true
        }?.key
        guard let listener else {
            endpoint.refused = true
            if endpoint.nonblocking { endpoint.pendingError = Errno(rawValue: ECONNREFUSED) }
            state.endpoints[fd] = endpoint
            throw Errno(rawValue: endpoint.nonblocking ? EINPROGRESS : ECONNREFUSED)
        }
        var server = Endpoint(kind: .socket, nonblocking: false, peer: fd)
        server.family = endpoint.family
        server.local = address
        server.remote = endpoint.local
        let serverFD = newEndpoint(server, in: &state)
        state.endpoints[listener]?.backlog.append(serverFD)
        endpoint.peer = serverFD
        endpoint.connecting = endpoint.nonblocking
        state.endpoints[fd] = endpoint
        if endpoint.nonblocking { throw Errno(rawValue: EINPROGRESS) }
    }

    /// Fake `sendto(2)` of a datagram (udp_sendmsg): an unbound socket is bound to an ephemeral
    /// port first (inet_autobind); the datagram goes to the fake's UDP socket bound to the
    /// destination (or its wildcard). With none there it is lost, as on Linux, where the ICMP
    /// port-unreachable reaches only a connected socket (udp(7)). Over 65,507 bytes is
    /// `EMSGSIZE`; the other family's address, as for connect.
    public func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: IPEndpoint) throws(Errno) -> Int {
        let offered = Array(bytes)
        return try state.withLock { (state) throws(Errno) -> Int in
            try begin(.sendDatagram(fd: fd, bytes: offered, to: address), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: address, in: state)
            guard endpoint.datagram else { throw Errno(rawValue: EOPNOTSUPP) }
            guard offered.count <= 65_507 else { throw Errno.messageTooLong }
            var source = endpoint.local ?? IPEndpoint(address: Array(repeating: 0, count: endpoint.family == AF_INET ? 4 : 16), port: 0)!
            if endpoint.local == nil {
                source = IPEndpoint(address: source.address, port: Self.ephemeralPort(in: &state))!
                state.endpoints[fd]?.local = source
            }
            // What the receiver sees as the source: the loopback for a wildcard bind.
            if source.isWildcard {
                let loopback: [UInt8] = endpoint.family == AF_INET ? [127, 0, 0, 1] : Array(repeating: 0, count: 15) + [1]
                source = IPEndpoint(address: loopback, port: source.port)!
            }
            let receiver = state.endpoints.first { key, other in
                key != fd && other.datagram && other.local.map { Self.covers($0, options: other.options, address) } == true
            }?.key
            if let receiver { state.endpoints[receiver]?.datagrams.append(FakeDatagram(bytes: offered, from: source)) }
            return offered.count
        }
    }

    /// Fake `recvfrom(2)`: the oldest datagram, cut to the buffer (the rest discarded, as
    /// udp_recvmsg does without MSG_TRUNC), with its source; `EAGAIN` when none waits on a
    /// non-blocking socket (a blocking one would wait for ever, so that is `EAGAIN` too here).
    public func receiveDatagram(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> (count: Int, from: IPEndpoint) {
        let datagram = try state.withLock { (state) throws(Errno) -> FakeDatagram in
            try begin(.receiveDatagram(fd: fd, count: buffer.count), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: nil, in: state)
            guard endpoint.datagram else { throw Errno(rawValue: EOPNOTSUPP) }
            guard let first = endpoint.datagrams.first else { throw Errno(rawValue: EAGAIN) }
            state.endpoints[fd]?.datagrams.removeFirst()
            return first
        }
        let count = min(datagram.bytes.count, buffer.count)
        buffer.copyBytes(from: datagram.bytes.prefix(count))
        return (count, datagram.from)
    }

    /// A test's UDP socket bound to `address` (a name server, a multicast DNS responder), not
    /// recorded; read it with `peerDatagrams`, answer with `peerSend`.
    @discardableResult
    public func addDatagramSocket(_ address: IPEndpoint) -> Int32 {
        state.withLock { state in
            var endpoint = Endpoint(kind: .socket, nonblocking: true)
            endpoint.family = address.family
            endpoint.datagram = true
            endpoint.local = address
            return Self.newEndpoint(endpoint, in: &state)
        }
    }

    /// The datagrams that reached a test's UDP socket, taken out (not recorded).
    public func peerDatagrams(_ fd: Int32) -> [FakeDatagram] {
        state.withLock { state in
            defer { state.endpoints[fd]?.datagrams = [] }
            return state.endpoints[fd]?.datagrams ?? []
        }
    }

    /// Sends a datagram from a test's UDP socket (not recorded); false when no socket is
    /// bound to `address` (the datagram is lost).
    @discardableResult
    public func peerSend(_ fd: Int32, _ bytes: [UInt8], to address: IPEndpoint) -> Bool {
        state.withLock { state in
            guard let source = state.endpoints[fd]?.local else { return false }
            guard let receiver = state.endpoints.first(where: { key, other in
                key != fd && other.datagram && other.local.map { Self.covers($0, options: other.options, address) } == true
            })?.key else { return false }
            state.endpoints[receiver]?.datagrams.append(FakeDatagram(bytes: bytes, from: source))
            return true
        }
    }

    /// Fake `getsockopt(SO_ERROR)`: the pending error, once.
    public func socketError(_ fd: Int32) throws(Errno) -> Errno? {
        try state.withLock { (state) throws(Errno) -> Errno? in
            try begin(.socketError(fd: fd), path: nil, in: &state)
            guard let endpoint = state.endpoints[fd], endpoint.kind == .socket else {
                throw Errno(rawValue: state.openFiles[fd] == nil ? EBADF : ENOTSOCK)
            }
            state.endpoints[fd]?.pendingError = nil
            return endpoint.pendingError
        }
    }

    /// Fake `getsockname(2)`: the bound endpoint; an unbound socket is its family's wildcard
    /// with port 0, as on Linux.
    public func localEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try state.withLock { (state) throws(Errno) -> IPEndpoint in
            try begin(.localEndpoint(fd: fd), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: nil, in: state)
            return endpoint.local ?? IPEndpoint(address: Array(repeating: 0, count: endpoint.family == AF_INET ? 4 : 16), port: 0)!
        }
    }

    /// Fake `getpeername(2)`: `ENOTCONN` unless connected.
    public func peerEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try state.withLock { (state) throws(Errno) -> IPEndpoint in
            try begin(.peerEndpoint(fd: fd), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: nil, in: state)
            guard endpoint.peer != nil, let remote = endpoint.remote else { throw Errno(rawValue: ENOTCONN) }
            return remote
        }
    }

    /// Fake `setsockopt(2)`: `IPV6_V6ONLY` on an IPv4 socket is `ENOPROTOOPT` (do_ip_setsockopt
    /// knows no IPPROTO_IPV6 options), and after bind `EINVAL` (do_ipv6_setsockopt).
    public func setSocketOption(_ fd: Int32, _ option: SocketOption, _ on: Bool) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.setSocketOption(fd: fd, option: option, on: on), path: nil, in: &state)
            let endpoint = try Self.ipEndpoint(fd, for: nil, in: state)
            if option == .ipv6Only {
                guard endpoint.family == AF_INET6 else { throw Errno(rawValue: ENOPROTOOPT) }
                guard endpoint.local == nil else { throw Errno.invalidArgument }
            }
            if on { state.endpoints[fd]?.options.insert(option) } else { state.endpoints[fd]?.options.remove(option) }
        }
    }

    /// Adds a listening TCP socket at `address` without recording calls (port 0: an ephemeral
    /// one); its descriptor. `boundEndpoint` tells the port it got.
    @discardableResult
    public func addListeningIPSocket(_ address: IPEndpoint) -> Int32 {
        state.withLock { state in
            var endpoint = Endpoint(kind: .socket, nonblocking: true)
            endpoint.family = address.family
            endpoint.local = address.port == 0 ? IPEndpoint(address: address.address, port: Self.ephemeralPort(in: &state)) : address
            endpoint.listening = true
            return Self.newEndpoint(endpoint, in: &state)
        }
    }

    /// The endpoint an IP socket is bound to (not recorded).
    public func boundEndpoint(_ fd: Int32) -> IPEndpoint? { state.withLock { $0.endpoints[fd]?.local } }

    /// Connects a test's client to a TCP listener without recording a call; its descriptor, or
    /// `ECONNREFUSED` when nothing listens there.
    public func connectIPClient(to address: IPEndpoint) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            var endpoint = Endpoint(kind: .socket, nonblocking: false)
            endpoint.family = address.family
            let fd = Self.newEndpoint(endpoint, in: &state)
            do throws(Errno) {
                try Self.connectIP(fd, to: address, in: &state)
            } catch {
                state.endpoints[fd] = nil
                throw error
            }
            return fd
        }
    }

    /// Takes the oldest connection waiting on a test's listener (a test playing a broker
    /// accepts what the code under test connected); nil when none waits. Not recorded.
    public func acceptClient(_ listener: Int32) -> Int32? {
        state.withLock { state in
            guard let connection = state.endpoints[listener]?.backlog.first else { return nil }
            state.endpoints[listener]?.backlog.removeFirst()
            return connection
        }
    }

    /// Ends a test's connection with a reset, as a crashed peer's kernel does: the other end
    /// reads `ECONNRESET` and polls `POLLERR | POLLHUP` (not recorded).
    public func clientReset(_ fd: Int32) {
        state.withLock { state in
            guard let peer = state.endpoints.removeValue(forKey: fd)?.peer else { return }
            state.endpoints[peer]?.reset = true
            state.endpoints[peer]?.peerGone = true
        }
    }

    /// Fake `pipe2(2)`.
    public func pipe(flags: Int32) throws(Errno) -> (read: Int32, write: Int32) {
        try state.withLock { (state) throws(Errno) -> (read: Int32, write: Int32) in
            try begin(.pipe(flags: flags), path: nil, in: &state)
            let nonblocking = flags & O_NONBLOCK != 0
            let readEnd = Self.newEndpoint(Endpoint(kind: .pipeRead, nonblocking: nonblocking), in: &state)
            let writeEnd = Self.newEndpoint(Endpoint(kind: .pipeWrite, nonblocking: nonblocking, peer: readEnd), in: &state)
            state.endpoints[readEnd]?.peer = writeEnd
            return (readEnd, writeEnd)
        }
    }

    /// Fake `fstat(2)`.
    public func fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        try state.withLock { (state) throws(Errno) -> FileStatus in
            try begin(.fstat(fd: fd), path: state.openFiles[fd], in: &state)
            if let endpoint = state.endpoints[fd] {
                return endpoint.kind == .socket ? FileStatus(permissions: 0o777, isSocket: true)
                    : FileStatus(permissions: 0o600, isFIFO: true)
            }
            guard let path = state.openFiles[fd] else { throw Errno(rawValue: EBADF) }
            return try Self.status(of: path, in: state)
        }
    }

    /// Fake `lstat(2)` (the fake has no symbolic links, so it is `stat`).
    public func lstat(_ path: String) throws(Errno) -> FileStatus {
        try state.withLock { (state) throws(Errno) -> FileStatus in
            try begin(.lstat(path: path), path: path, in: &state)
            return try Self.status(of: path, in: state)
        }
    }

    /// Fake `chmod(2)`.
    public func chmod(_ path: String, mode: UInt32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.chmod(path: path, mode: mode), path: path, in: &state)
            guard Self.exists(path, in: state) else { throw Errno.noSuchFileOrDirectory }
            state.modes[path] = mode & 0o7777
        }
    }

    /// Fake `mkdir(2)`: `EEXIST` when the name is taken.
    public func mkdir(_ path: String, mode: UInt32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.mkdir(path: path, mode: mode), path: path, in: &state)
            if Self.exists(path, in: state) { throw Errno(rawValue: EEXIST) }
            state.directories.insert(path)
            state.modes[path] = mode & ~state.fileMask
        }
    }

    /// Fake `sigaction(2)`: remembers what each signal does.
    public func setSignalAction(_ signal: Int32, _ action: SignalAction) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.setSignalAction(signal: signal), path: nil, in: &state)
            switch action {
            case .standard: state.signalActions[signal] = "default"
            case .ignore: state.signalActions[signal] = "ignore"
            case .handler(_, let restart): state.signalActions[signal] = restart ? "handler, restart" : "handler"
            }
        }
    }

    /// Fake `sigprocmask(SIG_UNBLOCK)`.
    public func unblockSignals(_ signals: [Int32]) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.unblockSignals(signals: signals), path: nil, in: &state)
            state.unblocked.formUnion(signals)
        }
    }

    /// Fake `umask(2)`.
    public func setFileCreationMask(_ mask: UInt32) -> UInt32 {
        state.withLock { state in
            defer { state.fileMask = mask & 0o777 }
            return state.fileMask
        }
    }

    /// Fake `posix_spawnp(3)`: a program added with `addProgram` writes its output into the pipes
    /// behind `stdout` and `stderr` and ends (the parent's copies of the write ends are then the
    /// last, as after a real child exits); any other name is `ENOENT`, as glibc reports a failed
    /// `exec`.
    public func spawn(_ argv: [String], stdout: Int32, stderr: Int32) throws(Errno) -> Int32 {
        try state.withLock { (state) throws(Errno) -> Int32 in
            try begin(.spawn(argv: argv, stdout: stdout, stderr: stderr), path: nil, in: &state)
            guard let name = argv.first, let program = state.programs[name] else { throw Errno.noSuchFileOrDirectory }
            for (fd, bytes) in [(stdout, program.stdout), (stderr, program.stderr)] {
                guard let end = state.endpoints[fd], end.kind == .pipeWrite, let reader = end.peer else { throw Errno(rawValue: EBADF) }
                state.endpoints[reader]?.incoming += bytes
            }
            let pid = state.nextPID
            state.nextPID += 1
            state.children[pid] = (program.status, program.runs)
            return pid
        }
    }

    /// Fake `waitpid(pid, WNOHANG)`: nil while the program still "runs", then its end, once;
    /// a pid that is not an unreaped child is `ECHILD`.
    public func reap(_ pid: Int32) throws(Errno) -> ChildStatus? {
        try state.withLock { (state) throws(Errno) -> ChildStatus? in
            try begin(.reap(pid: pid), path: nil, in: &state)
            guard let child = state.children[pid] else { throw Errno(rawValue: ECHILD) }
            if child.running > 0 {
                state.children[pid]?.running -= 1
                return nil
            }
            state.children[pid] = nil
            return child.status
        }
    }

    /// Fake `kill(-group, signal)`: a running child ends with the signal; no such group is `ESRCH`.
    public func signalGroup(_ group: Int32, _ signal: Int32) throws(Errno) {
        try state.withLock { (state) throws(Errno) in
            try begin(.signalGroup(group: group, signal: signal), path: nil, in: &state)
            guard state.children[group] != nil else { throw Errno(rawValue: ESRCH) }
            if signal != 0 { state.children[group] = (.signalled(signal), 0) }
        }
    }
}
