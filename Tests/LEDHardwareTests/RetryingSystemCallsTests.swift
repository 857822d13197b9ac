import Glibc
import LEDHardware
import LEDRingTesting
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
        return fake
    }

    /// Performs `syscall` once through `seam`, opening what it needs first.
    static func perform(_ syscall: FakeSystemCalls.Syscall, on seam: RetryingSystemCalls) throws(Errno) {
        let bytes: [UInt8] = [1, 2, 3]
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
}
