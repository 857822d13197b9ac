import Foundation
import LEDHardware
import LEDRingTesting
import Testing

@Suite struct DumpTransportTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func appendsFramesOneAfterAnotherToARealFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("frames.wire").path
        let transport = try DumpTransport(path: path)
        try transport.send([0x00, 0xFF, 0x10])
        try transport.send([0xAA], framing: .splittable)
        try transport.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([0x00, 0xFF, 0x10, 0xAA]))

        // A second run appends rather than truncating.
        let again = try DumpTransport(path: path)
        try again.send([0x55])
        try again.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([0x00, 0xFF, 0x10, 0xAA, 0x55]))
    }

    @Test func aMissingDirectoryIsAClearError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("no/such/dir/frames.wire").path
        let error = #expect(throws: HardwareError.self) { _ = try DumpTransport(path: path) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains(path) == true)
        #expect(error?.fix.contains("mkdir -p") == true)
    }

    @Test func aDirectoryInsteadOfAFileIsAClearError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: HardwareError.self) { _ = try DumpTransport(path: directory.path) }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test func permissionDeniedSaysWhereToWrite() {
        // Tests run as root, where the kernel never refuses; the fake seam stands in.
        let fake = FakeSystemCalls()
        fake.addDirectory("/var/lib")
        fake.fail(.open, with: .permissionDenied)
        let error = #expect(throws: HardwareError.self) { _ = try DumpTransport(path: "/var/lib/frames.wire", system: fake) }
        #expect(error?.kind == .permissionDenied)
        #expect(error?.exitCode == 77)
        #expect(error?.fix.contains("/tmp") == true)
    }

    @Test func continuesAfterAPartialWriteToAFile() throws {
        let fake = FakeSystemCalls()
        fake.limitWrites(to: 2)
        let transport = try DumpTransport(path: "/tmp/frames.wire", system: fake)
        try transport.send([1, 2, 3, 4, 5])
        #expect(fake.written(to: "/tmp/frames.wire") == [1, 2, 3, 4, 5])
        #expect(fake.calls.filter { $0.syscall == .write }.count == 3)
    }

    @Test(arguments: [(Errno.noSpace, "free disk space"), (Errno.ioError, "Input/output error")])
    func writeErrorsNameTheFile(errno: Errno, text: String) throws {
        let fake = FakeSystemCalls()
        let transport = try DumpTransport(path: "/tmp/frames.wire", system: fake)
        fake.fail(.write, with: errno)
        let error = #expect(throws: HardwareError.self) { try transport.send([1]) }
        #expect(error?.description.contains(text) == true)
        #expect(error?.message.contains("/tmp/frames.wire") == true)
    }
}
