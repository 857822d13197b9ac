import LEDHardware
import LEDRingTesting
import Testing

@Suite struct SmallTransportTests {
    @Test func discardCountsAndDrops() throws {
        let transport = DiscardTransport()
        try transport.send([1, 2, 3])
        try transport.send([4], framing: .splittable)
        #expect(transport.framesSent == 2)
        #expect(transport.bytesSent == 4)
        try transport.close()
    }

    @Test func recordingKeepsBytesAndFraming() throws {
        let transport = RecordingTransport()
        try transport.send([1, 2])
        try transport.send([3], framing: .splittable)
        #expect(transport.transfers == [
            .init(bytes: [1, 2], framing: .whole), .init(bytes: [3], framing: .splittable),
        ])
    }

    @Test func recordingFailsWhenTold() throws {
        let transport = RecordingTransport()
        transport.failOnSend = 2
        try transport.send([1])
        #expect(throws: HardwareError.self) { try transport.send([2]) }
        try transport.send([3])
        #expect(transport.transfers.map(\.bytes) == [[1], [3]])

        transport.failure = HardwareError(kind: .busy, message: "scripted")
        transport.failOnSend = nil
        let error = #expect(throws: HardwareError.self) { try transport.send([4]) }
        #expect(error?.kind == .busy)
        try transport.close()
        #expect(transport.isClosed)
    }

    @Test func everyKindHasASysexitsCode() {
        let codes = Set(HardwareErrorKind.allCases.map(\.exitCode))
        #expect(codes.isSubset(of: [64, 65, 69, 74, 77, 78]))
    }

    @Test func fakeSeamFailsTheNthCallOnlyAndRecordsIt() throws {
        let fake = FakeSystemCalls()
        fake.addFile("/a", "x")
        fake.fail(.readFile, with: .ioError, onCall: 2)
        #expect(try fake.readFile("/a") == Array("x".utf8))
        #expect(throws: Errno.ioError) { try fake.readFile("/a") }
        #expect(try fake.readFile("/a") == Array("x".utf8))
        #expect(fake.calls == Array(repeating: .readFile(path: "/a"), count: 3))
    }

    @Test func retryingSeamRetriesInterruptsButNeverClose() throws {
        let fake = FakeSystemCalls()
        fake.addFile("/a", "x")
        fake.fail(.readFile, with: .interrupted, times: 2)
        let seam = RetryingSystemCalls(fake)
        #expect(try seam.readFile("/a") == Array("x".utf8))
        let fd = try seam.open("/a", flags: 0, mode: 0)
        fake.fail(.close, with: .interrupted)
        try seam.close(fd)
        #expect(fake.calls.filter { $0.syscall == .close }.count == 1)
    }

    @Test func rootPathJoins() {
        #expect(RootPath.join("/", "/sys/x") == "/sys/x")
        #expect(RootPath.join("/tmp/r/", "sys/x") == "/tmp/r/sys/x")
        #expect(RootPath.join("/tmp/r", "/sys/x") == "/tmp/r/sys/x")
    }
}
