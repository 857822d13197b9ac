import CLinux
import Glibc

/// The real seam: each method is one Glibc call (or one CLinux helper) and nothing more.
public final class LinuxSystemCalls: SystemCalls {
    /// Creates the real seam; it holds no state.
    public init() {}

    /// `open(2)`.
    public func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32 {
        let fd = cledring_open(path, flags, mode)
        if fd < 0 { throw Errno.current }
        return fd
    }

    /// `close(2)`.
    public func close(_ fd: Int32) throws(Errno) {
        if Glibc.close(fd) < 0 { throw Errno.current }
    }

    /// `write(2)`.
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let written = Glibc.write(fd, base, bytes.count)
        if written < 0 { throw Errno.current }
        return written
    }

    /// `pwrite(2)`.
    public func pwrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, offset: Int64) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let written = Glibc.pwrite(fd, base, bytes.count, off_t(offset))
        if written < 0 { throw Errno.current }
        return written
    }

    /// `GPIO_GET_CHIPINFO_IOCTL` through the CLinux helper (the uapi `struct gpiochip_info`).
    public func gpioChipInfo(_ fd: Int32) throws(Errno) -> GPIOChipIdentity {
        var name = [CChar](repeating: 0, count: 33)
        var label = [CChar](repeating: 0, count: 33)
        var lines: UInt32 = 0
        let result = name.withUnsafeMutableBufferPointer { namePointer in
            label.withUnsafeMutableBufferPointer { labelPointer in
                clinux_gpio_chip_info(fd, namePointer.baseAddress, labelPointer.baseAddress, &lines)
            }
        }
        if result < 0 { throw Errno.current }
        func text(_ chars: [CChar]) -> String {
            String(decoding: chars.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return GPIOChipIdentity(name: text(name), label: text(label), lineCount: Int(lines))
    }

    /// One spidev `ioctl(2)` through the CLinux helpers.
    public func spiIoctl(_ fd: Int32, _ request: SPIRequest, tx: UnsafeRawBufferPointer?) throws(Errno) -> UInt32 {
        var result: Int32
        var value: UInt32 = 0
        switch request {
        case .writeMode(let mode):
            result = cspidev_write_mode(fd, mode)
        case .readMode:
            var mode: UInt8 = 0
            result = cspidev_read_mode(fd, &mode)
            value = UInt32(mode)
        case .writeBitsPerWord(let bits):
            result = cspidev_write_bits_per_word(fd, bits)
        case .readBitsPerWord:
            var bits: UInt8 = 0
            result = cspidev_read_bits_per_word(fd, &bits)
            value = UInt32(bits)
        case .writeMaxSpeedHz(let hz):
            result = cspidev_write_max_speed_hz(fd, hz)
        case .readMaxSpeedHz:
            result = cspidev_read_max_speed_hz(fd, &value)
        case .message(let length, let speedHz, let bitsPerWord):
            guard let length32 = UInt32(exactly: length), length <= (tx?.count ?? 0) else {
                throw Errno.invalidArgument
            }
            result = cspidev_transfer(fd, tx?.baseAddress, length32, speedHz, bitsPerWord)
            value = result < 0 ? 0 : UInt32(result)
        }
        if result < 0 { throw Errno.current }
        return value
    }

    /// Reads a small file with open/read/close; sysfs files report size 0, so read to EOF.
    public func readFile(_ path: String) throws(Errno) -> [UInt8] {
        let fd = cledring_open(path, O_RDONLY | O_CLOEXEC, 0)
        if fd < 0 { throw Errno.current }
        defer { _ = Glibc.close(fd) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            // EINTR propagates: RetryingSystemCalls re-reads the whole (small) file.
            if count < 0 { throw Errno.current }
            if count == 0 { return contents }
            contents.append(contentsOf: chunk[0..<count])
        }
    }

    /// `access(2)`.
    public func access(_ path: String, _ mode: Int32) throws(Errno) {
        if Glibc.access(path, mode) < 0 { throw Errno.current }
    }

    /// `stat(2)`.
    public func stat(_ path: String) throws(Errno) -> FileStatus {
        var info = Glibc.stat()
        // fstatat because Swift cannot name the `stat` function next to the `stat` struct.
        if fstatat(AT_FDCWD, path, &info, 0) < 0 { throw Errno.current }
        return LinuxSystemCalls.status(info)
    }

    /// The parts of a `struct stat` ledring reads.
    static func status(_ info: Glibc.stat) -> FileStatus {
        let type = cledring_file_type(info.st_mode)
        return FileStatus(
            isCharacterDevice: type == cledring_file_characterDevice,
            isDirectory: type == cledring_file_directory,
            groupID: info.st_gid,
            permissions: UInt32(info.st_mode & 0o7777),
            size: Int(info.st_size),
            isSocket: type == cledring_file_socket,
            isFIFO: type == cledring_file_fifo,
            isSymbolicLink: type == cledring_file_symbolicLink,
            isBlockDevice: type == cledring_file_blockDevice,
            ownerID: info.st_uid
        )
    }

    /// Lists a directory with opendir/readdir; a failed read is an error, not the end.
    ///
    /// readdir returns NULL both at the end and on an error, told apart only by errno (POSIX
    /// readdir: "applications wishing to check for error situations should set errno to 0"). A
    /// 32-bit build without 64-bit file offsets uses the old getdents, whose 32-bit d_ino and d_off
    /// overflow (EOVERFLOW) for 64-bit inode numbers or directory cookies, as on ext4 under
    /// qemu-arm; that used to read as an empty directory. tools/embedded-build.sh builds the 32-bit
    /// target with -D_FILE_OFFSET_BITS=64, so glibc's readdir is readdir64 (getdents64).
    public func listDirectory(_ path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno.current }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw Errno.current }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `fsync(2)`.
    public func fsync(_ fd: Int32) throws(Errno) {
        if Glibc.fsync(fd) < 0 { throw Errno.current }
    }

    /// `rename(2)`.
    public func rename(_ from: String, _ to: String) throws(Errno) {
        if Glibc.rename(from, to) < 0 { throw Errno.current }
    }

    /// `unlink(2)`.
    public func unlink(_ path: String) throws(Errno) {
        if Glibc.unlink(path) < 0 { throw Errno.current }
    }

    /// `read(2)`.
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard buffer.count > 0 else { return 0 }
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count < 0 { throw Errno.current }
        return count
    }

    /// `send(2)` with `MSG_NOSIGNAL`.
    public func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let sent = Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
        if sent < 0 { throw Errno.current }
        return sent
    }

    /// `socket(2)` for a Unix stream socket, close-on-exec.
    public func unixSocket(flags: Int32) throws(Errno) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        if fd < 0 { throw Errno.current }
        return fd
    }

    /// Calls `body` with `path` as a `sockaddr_un`; `ENAMETOOLONG` when it does not fit `sun_path`.
    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(Errno) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno(rawValue: ENAMETOOLONG) }
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

    /// `bind(2)` to a Unix socket path.
    public func bind(_ fd: Int32, path: String) throws(Errno) {
        if try LinuxSystemCalls.withAddress(path, { Glibc.bind(fd, $0, $1) }) < 0 { throw Errno.current }
    }

    /// `listen(2)`.
    public func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        if Glibc.listen(fd, backlog) < 0 { throw Errno.current }
    }

    /// `accept4(2)` through the C helper (Swift's Glibc module does not declare it).
    public func accept(_ fd: Int32, flags: Int32) throws(Errno) -> Int32 {
        let connection = cledring_accept4(fd, flags)
        if connection < 0 { throw Errno.current }
        return connection
    }

    /// `connect(2)` to a Unix socket path.
    public func connect(_ fd: Int32, path: String) throws(Errno) {
        if try LinuxSystemCalls.withAddress(path, { Glibc.connect(fd, $0, $1) }) < 0 { throw Errno.current }
    }

    /// `socket(2)` of an IP family.
    public func ipSocket(family: Int32, kind: IPSocketKind, flags: Int32) throws(Errno) -> Int32 {
        let type = kind == .stream ? Int32(SOCK_STREAM.rawValue) : Int32(SOCK_DGRAM.rawValue)
        let fd = Glibc.socket(family, type | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        if fd < 0 { throw Errno.current }
        return fd
    }

    /// `bind(2)` to an IP endpoint.
    public func bind(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno) {
        if endpoint.withSocketAddress({ Glibc.bind(fd, $0, $1) }) < 0 { throw Errno.current }
    }

    /// `connect(2)` to an IP endpoint.
    public func connect(_ fd: Int32, to endpoint: IPEndpoint) throws(Errno) {
        if endpoint.withSocketAddress({ Glibc.connect(fd, $0, $1) }) < 0 { throw Errno.current }
    }

    /// `sendto(2)` of one datagram.
    public func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to endpoint: IPEndpoint) throws(Errno) -> Int {
        let sent = endpoint.withSocketAddress { Glibc.sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
        if sent < 0 { throw Errno.current }
        return sent
    }

    /// `recvfrom(2)` of one datagram; `EAFNOSUPPORT` if its source is not an IP address.
    public func receiveDatagram(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> (count: Int, from: IPEndpoint) {
        var count = 0
        let source = try LinuxSystemCalls.endpoint { address, length in
            count = Glibc.recvfrom(fd, buffer.baseAddress, buffer.count, 0, address, length)
            return count < 0 ? -1 : 0
        }
        return (count, source)
    }

    /// `getsockopt(fd, SOL_SOCKET, SO_ERROR)`.
    public func socketError(_ fd: Int32) throws(Errno) -> Errno? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) < 0 { throw Errno.current }
        return value == 0 ? nil : Errno(rawValue: value)
    }

    /// `getsockname(2)`.
    public func localEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try LinuxSystemCalls.endpoint { Glibc.getsockname(fd, $0, $1) }
    }

    /// `getpeername(2)`.
    public func peerEndpoint(_ fd: Int32) throws(Errno) -> IPEndpoint {
        try LinuxSystemCalls.endpoint { Glibc.getpeername(fd, $0, $1) }
    }

    /// The endpoint a `getsockname`-like call writes; `EAFNOSUPPORT` for a non-IP socket.
    static func endpoint(_ call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) throws(Errno) -> IPEndpoint {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, &length) }
        }
        if result < 0 { throw Errno.current }
        guard let endpoint = IPEndpoint(storage) else { throw Errno(rawValue: EAFNOSUPPORT) }
        return endpoint
    }

    /// `setsockopt(2)` of an `int` option.
    public func setSocketOption(_ fd: Int32, _ option: SocketOption, _ on: Bool) throws(Errno) {
        let (level, name): (Int32, Int32)
        switch option {
        case .reuseAddress: (level, name) = (SOL_SOCKET, SO_REUSEADDR)
        case .noDelay: (level, name) = (Int32(IPPROTO_TCP), TCP_NODELAY)
        case .ipv6Only: (level, name) = (Int32(IPPROTO_IPV6), IPV6_V6ONLY)
        }
        var value: Int32 = on ? 1 : 0
        if setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) < 0 { throw Errno.current }
    }

    /// `poll(2)`.
    public func poll(_ fds: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        let ready = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
        if ready < 0 { throw Errno.current }
        return Int(ready)
    }

    /// `pipe2(2)` through the C helper.
    public func pipe(flags: Int32) throws(Errno) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        if cledring_pipe2(&fds, flags) < 0 { throw Errno.current }
        return (fds[0], fds[1])
    }

    /// `fstat(2)`.
    public func fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        var info = Glibc.stat()
        if Glibc.fstat(fd, &info) < 0 { throw Errno.current }
        return LinuxSystemCalls.status(info)
    }

    /// `lstat(2)` (as `fstatat` with `AT_SYMLINK_NOFOLLOW`, for the same reason as `stat`).
    public func lstat(_ path: String) throws(Errno) -> FileStatus {
        var info = Glibc.stat()
        if fstatat(AT_FDCWD, path, &info, AT_SYMLINK_NOFOLLOW) < 0 { throw Errno.current }
        return LinuxSystemCalls.status(info)
    }

    /// `chmod(2)`.
    public func chmod(_ path: String, mode: UInt32) throws(Errno) {
        if Glibc.chmod(path, mode_t(mode)) < 0 { throw Errno.current }
    }

    /// `mkdir(2)`.
    public func mkdir(_ path: String, mode: UInt32) throws(Errno) {
        if Glibc.mkdir(path, mode_t(mode)) < 0 { throw Errno.current }
    }

    /// `sigaction(2)`; the mask during a handler is empty.
    public func setSignalAction(_ signal: Int32, _ action: SignalAction) throws(Errno) {
        var value = sigaction()
        switch action {
        case .standard:
            value.__sigaction_handler.sa_handler = SIG_DFL
        case .ignore:
            value.__sigaction_handler.sa_handler = SIG_IGN
        case .handler(let handler, let restart):
            value.__sigaction_handler.sa_handler = handler
            value.sa_flags = restart ? SA_RESTART : 0
        }
        sigemptyset(&value.sa_mask)
        if sigaction(signal, &value, nil) < 0 { throw Errno.current }
    }

    /// `sigprocmask(SIG_UNBLOCK)`.
    public func unblockSignals(_ signals: [Int32]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        if sigprocmask(SIG_UNBLOCK, &set, nil) < 0 { throw Errno.current }
    }

    /// `umask(2)`.
    public func setFileCreationMask(_ mask: UInt32) -> UInt32 {
        UInt32(umask(mode_t(mask)))
    }

    /// `posix_spawnp(3)`, set up as the protocol says. The child's signal dispositions are reset
    /// because an ignored signal survives `exec` (the daemon ignores SIGPIPE, and a command
    /// writing into a closed pipe must die of it as from a shell); its mask is emptied because a
    /// mask survives too.
    public func spawn(_ argv: [String], stdout: Int32, stderr: Int32) throws(Errno) -> Int32 {
        guard let program = argv.first, !program.isEmpty else { throw Errno.invalidArgument }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Nothing else of the daemon's reaches the program, whether or not it was opened
        // close-on-exec: a command source's program got the broker's TCP connection (fd 12), on
        // which it could publish as ledring. glibc 2.34+ (Debian 12 has 2.36).
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, program, &actions, &attributes, &arguments, environ)
        if result != 0 { throw Errno(rawValue: result) }
        return child
    }

    /// `waitpid(pid, WNOHANG)`.
    public func reap(_ pid: Int32) throws(Errno) -> ChildStatus? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result < 0 { throw Errno.current }
        if result == 0 { return nil }
        // <bits/waitstatus.h>: the low 7 bits are the signal (0: exited), bits 8-15 the exit status.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// `kill(-group, signal)`.
    public func signalGroup(_ group: Int32, _ signal: Int32) throws(Errno) {
        guard group > 0 else { throw Errno.invalidArgument }
        if kill(-group, signal) < 0 { throw Errno.current }
    }
}
