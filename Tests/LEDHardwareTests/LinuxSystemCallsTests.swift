import Foundation
import Glibc
import LEDHardware
import Testing

/// The real seam against nodes every Linux machine has, so the CLinux helpers and errno
/// plumbing are exercised without SPI hardware.
@Suite struct LinuxSystemCallsTests {
    @Test func spidevIoctlsOnANonSPIDeviceReportENOTTY() {
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: "/dev/null", speedHz: 2_400_000)
        }
        #expect(error?.errno == Errno(rawValue: ENOTTY))
        #expect(error?.kind == .io)
        #expect(error?.message.contains("setting SPI mode 0 on /dev/null") == true)
    }

    @Test func aMissingSPIDeviceSaysHowToEnableSPI() {
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: "/dev/spidev-ledring-test-missing", speedHz: 2_400_000)
        }
        #expect(error?.kind == .notFound)
        #expect(error?.fix.contains("dtparam=spi=on") == true)
    }

    @Test func ledsTransportWritesWholeFramesToARealNode() throws {
        let transport = try LedsPIOTransport(device: "/dev/null")
        try transport.send([UInt8](repeating: 0x42, count: 96))
        try transport.close()
    }

    @Test func pwriteWritesAtTheOffsetAndLeavesThePositionAlone() throws {
        let path = NSTemporaryDirectory() + "ledring-pwrite-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let system = LinuxSystemCalls()
        let fd = try system.open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        defer { try? system.close(fd) }
        #expect(try [UInt8]([1, 2, 3, 4]).withUnsafeBytes { try system.write(fd, $0) } == 4)
        #expect(try [UInt8]([9, 9]).withUnsafeBytes { try system.pwrite(fd, $0, offset: 0) } == 2)
        // write() continues where the position was (4), untouched by pwrite.
        #expect(try [UInt8]([5]).withUnsafeBytes { try system.write(fd, $0) } == 1)
        #expect(try system.readFile(path) == [9, 9, 3, 4, 5])
    }

    @Test func theChipInfoIoctlOnANonGPIODeviceReportsENOTTY() throws {
        let system = LinuxSystemCalls()
        let fd = try system.open("/dev/null", flags: O_RDONLY | O_CLOEXEC, mode: 0)
        defer { try? system.close(fd) }
        #expect(throws: Errno(rawValue: ENOTTY)) { _ = try system.gpioChipInfo(fd) }
    }

    @Test func statListAndReadWork() throws {
        let system = LinuxSystemCalls()
        #expect(try system.stat("/dev/null").isCharacterDevice)
        #expect(try system.stat("/tmp").isDirectory)
        #expect(try system.listDirectory("/dev").contains("null"))
        #expect(try !system.readFile("/proc/self/status").isEmpty)
        #expect(throws: Errno.noSuchFileOrDirectory) { try system.readFile("/no/such/file") }
    }
}
