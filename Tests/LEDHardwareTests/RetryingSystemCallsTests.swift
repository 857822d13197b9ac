import Glibc
import LEDHardware
import LEDRingTesting
import Synchronization
import Testing

/// EINTR is retried in one place: every call of the seam, interrupted once, still succeeds through
/// `RetryingSystemCalls`, and is attempted exactly twice (`close` once: Linux releases the
/// descriptor even when close is interrupted, so retrying could close someone else's).
@Suite struct RetryingSystemCallsTests {
    /// A fake machine on which every syscall has something to act on.
    static func machine() -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addFile("/f", "contents")
        fake.addFile("/d/entry", "x")
        fake.addDevice("/dev/spidev0.0")
        fake.addGPIOChip("/dev/gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
        fake.addProgram("true", .init())
        return fake
    }

    /// Performs `syscall` once through `seam`, opening what it needs first.
    static func perform(_ syscall: FakeSystemCalls.Syscall, on seam: RetryingSystemCalls) throws(Errno) {
        let bytes: [UInt8] = [1, 2, 3]
        // Set up without recorded calls, so only the call under test is counted.
        let fake = seam.base as? FakeSystemCalls
        let listener = fake?.addListeningSocket("/listening") ?? -1
        switch syscall {
        case .open: _ = try seam.open("/f", flags: O_RDONLY, mode: 0)
        case .close: try seam.close(try seam.open("/f", flags: O_RDONLY, mode: 0))
        case .write:
            let fd = try seam.open("/f", flags: O_WRONLY, mode: 0)
            _ = try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try seam.write(fd, raw) } }.get()
        case .pwrite:
            let fd = try seam.open("/f", flags: O_WRONLY, mode: 0)
            _ = try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try seam.pwrite(fd, raw, offset: 0) } }.get()
        case .gpioChipInfo: _ = try seam.gpioChipInfo(try seam.open("/dev/gpiochip0", flags: O_RDONLY, mode: 0))
        case .spiIoctl: _ = try seam.spiIoctl(try seam.open("/dev/spidev0.0", flags: O_RDWR, mode: 0), .readMode, tx: nil)
        case .readFile: _ = try seam.readFile("/f")
        case .access: try seam.access("/f", R_OK)
        case .stat: _ = try seam.stat("/f")
        case .listDirectory: _ = try seam.listDirectory("/d")
        case .fsync: try seam.fsync(try seam.open("/f", flags: O_WRONLY, mode: 0))
        case .rename: try seam.rename("/f", "/g")
        case .unlink: try seam.unlink("/f")
        case .read:
            let fd = try seam.open("/f", flags: O_RDONLY, mode: 0)
            var buffer = [UInt8](repeating: 0, count: 8)
            _ = try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try seam.read(fd, into: raw) } }.get()
        case .send:
            guard let client = try fake?.connectClient(to: "/listening") else { return }
            _ = try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try seam.send(client, raw) } }.get()
        case .unixSocket: _ = try seam.unixSocket(flags: O_NONBLOCK)
        case .ipSocket: _ = try seam.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        case .socketError: _ = try seam.socketError(try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0))
        case .localEndpoint: _ = try seam.localEndpoint(try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0))
        case .peerEndpoint:
            let tcpListener = fake?.addListeningIPSocket(.loopback(port: 0)) ?? -1
            let client = try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0)
            try seam.connect(client, to: fake?.boundEndpoint(tcpListener) ?? .loopback(port: 1))
            _ = try seam.peerEndpoint(client)
        case .sendDatagram:
            let fd = try seam.ipSocket(family: AF_INET, kind: .datagram, flags: O_NONBLOCK)
            _ = try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try seam.sendDatagram(fd, raw, to: .loopback(port: 53)) } }.get()
        case .receiveDatagram:
            let fd = try seam.ipSocket(family: AF_INET, kind: .datagram, flags: O_NONBLOCK)
            try seam.bind(fd, to: .loopback(port: 5300))
            if let fake { fake.peerSend(fake.addDatagramSocket(.loopback(port: 53)), bytes, to: .loopback(port: 5300)) }
            var buffer = [UInt8](repeating: 0, count: 8)
            _ = try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try seam.receiveDatagram(fd, into: raw) } }.get()
        case .setSocketOption: try seam.setSocketOption(try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0), .reuseAddress, true)
        case .bind: try seam.bind(try seam.unixSocket(flags: 0), path: "/new.sock")
        case .listen:
            let fd = try seam.unixSocket(flags: 0)
            try seam.bind(fd, path: "/new.sock")
            try seam.listen(fd, backlog: 4)
        case .accept:
            _ = try fake?.connectClient(to: "/listening")
            _ = try seam.accept(listener, flags: O_NONBLOCK | O_CLOEXEC)
        case .connect: try seam.connect(try seam.unixSocket(flags: 0), path: "/listening")
        case .poll:
            var fds = [pollfd(fd: try seam.open("/f", flags: O_RDONLY, mode: 0), events: Int16(POLLIN), revents: 0)]
            _ = try seam.poll(&fds, timeout: 0)
        case .pipe: _ = try seam.pipe(flags: O_NONBLOCK | O_CLOEXEC)
        case .fstat: _ = try seam.fstat(try seam.open("/f", flags: O_RDONLY, mode: 0))
        case .lstat: _ = try seam.lstat("/f")
        case .chmod: try seam.chmod("/f", mode: 0o600)
        case .mkdir: try seam.mkdir("/made", mode: 0o755)
        case .setSignalAction: try seam.setSignalAction(SIGUSR1, .ignore)
        case .unblockSignals: try seam.unblockSignals([SIGUSR1])
        case .spawn, .reap, .signalGroup:
            let (_, out) = try seam.pipe(flags: O_CLOEXEC)
            let pid = try seam.spawn(["true"], stdout: out, stderr: out)
            if syscall == .reap { _ = try seam.reap(pid) }
            if syscall == .signalGroup { try seam.signalGroup(pid, SIGTERM) }
        }
    }

    @Test("an interrupted call is retried and succeeds", arguments: FakeSystemCalls.Syscall.allCases)
    func interruptedOnceThenSucceeds(_ syscall: FakeSystemCalls.Syscall) throws {
        let fake = RetryingSystemCallsTests.machine()
        fake.fail(syscall, with: .interrupted, onCall: 1)
        try RetryingSystemCallsTests.perform(syscall, on: RetryingSystemCalls(fake))
        let attempts = fake.calls.filter { $0.syscall == syscall }.count
        #expect(attempts == (syscall == .close ? 1 : 2), "\(syscall) was attempted \(attempts) times")
    }

    @Test("any other errno reaches the caller unchanged", arguments: FakeSystemCalls.Syscall.allCases)
    func otherErrorsAreNotRetried(_ syscall: FakeSystemCalls.Syscall) {
        let fake = RetryingSystemCallsTests.machine()
        fake.fail(syscall, with: Errno(rawValue: EIO), onCall: 1)
        #expect(throws: Errno(rawValue: EIO)) { try RetryingSystemCallsTests.perform(syscall, on: RetryingSystemCalls(fake)) }
        #expect(fake.calls.filter { $0.syscall == syscall }.count == 1)
    }

    @Test("an interrupted poll waits only for the time that was left")
    func interruptedPollKeepsItsDeadline() throws {
        let fake = RetryingSystemCallsTests.machine()
        let (readEnd, _) = try fake.pipe(flags: O_NONBLOCK)
        fake.fail(.poll, with: .interrupted, onCall: 1)
        // The signal arrives 300 ms into a 1 000 ms wait.
        let readings = Mutex<[UInt64]>([0, 300_000_000])
        let seam = RetryingSystemCalls(fake, clock: { readings.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } })
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 1000)
        let timeouts = fake.calls.compactMap { call -> Int32? in
            if case .poll(_, let timeout) = call { return timeout } else { return nil }
        }
        #expect(timeouts == [1000, 700])
    }

    @Test("an interrupted endless poll stays endless")
    func interruptedEndlessPoll() throws {
        let fake = RetryingSystemCallsTests.machine()
        let (readEnd, _) = try fake.pipe(flags: O_NONBLOCK)
        fake.fail(.poll, with: .interrupted, onCall: 1)
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        _ = try RetryingSystemCalls(fake).poll(&fds, timeout: -1)
        let timeouts = fake.calls.compactMap { call -> Int32? in
            if case .poll(_, let timeout) = call { return timeout } else { return nil }
        }
        #expect(timeouts == [-1, -1])
    }
}
