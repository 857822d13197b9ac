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
            }
        }
    }

    private struct Failure {
        var syscall: Syscall
        var firstCall: Int
        var times: Int
        var errno: Errno
        var path: String?
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
    }

    private let state = Mutex(State())

    /// Creates an empty fake kernel.
    public init() {}

    // MARK: - Scripting

    /// Makes the `nth` (1-based) call of `syscall` — and the `times - 1` after it — fail with
    /// `errno`; with `path`, only calls on that path (or that path's descriptor) count.
    public func fail(_ syscall: Syscall, with errno: Errno, onCall nth: Int = 1, times: Int = 1, path: String? = nil) {
        state.withLock { $0.failures.append(Failure(syscall: syscall, firstCall: nth, times: times, errno: errno, path: path)) }
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
            let count = state.calls.filter { recorded in
                guard recorded.syscall == syscall else { return false }
                guard let wanted = failure.path else { return true }
                return Self.path(of: recorded, in: state) == wanted
            }.count
            if count >= failure.firstCall && count < failure.firstCall + failure.times {
                throw failure.errno
            }
        }
    }

    private static func path(of call: Call, in state: State) -> String? {
        switch call {
        case .open(let path, _), .readFile(let path), .access(let path, _), .stat(let path), .listDirectory(let path),
             .unlink(let path), .rename(let path, _):
            return path
        case .close(let fd), .write(let fd, _), .pwrite(let fd, _, _), .spiIoctl(let fd, _, _), .gpioChipInfo(let fd),
             .fsync(let fd):
            return state.openFiles[fd]
        }
    }

    private static func exists(_ path: String, in state: State) -> Bool {
        state.files[path] != nil || state.devices[path] != nil || isDirectory(path, in: state)
    }

    private static func isDirectory(_ path: String, in state: State) -> Bool {
        if state.directories.contains(path) { return true }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        let all = Array(state.files.keys) + Array(state.devices.keys) + Array(state.directories)
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
            }
            try begin(.close(fd: fd), path: state.openFiles[fd], in: &state)
            guard state.openFiles[fd] != nil else { throw Errno(rawValue: EBADF) }
        }
    }

    /// Fake `write(2)`: appends to the file, honouring `limitWrites`.
    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let offered = Array(bytes)
        return try state.withLock { (state) throws(Errno) -> Int in
            try begin(.write(fd: fd, bytes: offered), path: state.openFiles[fd], in: &state)
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
            if let device = state.devices[path] { return device }
            if let contents = state.files[path] { return FileStatus(permissions: 0o644, size: contents.count) }
            if Self.isDirectory(path, in: state) { return FileStatus(isDirectory: true, permissions: 0o755) }
            throw Errno.noSuchFileOrDirectory
        }
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
            guard state.files.removeValue(forKey: path) != nil else { throw Errno.noSuchFileOrDirectory }
        }
    }
}
