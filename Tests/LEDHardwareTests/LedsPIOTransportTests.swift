import LEDHardware
import LEDRingTesting
import Testing

@Suite struct LedsPIOTransportTests {
    let device = "/dev/leds0"

    func fakeKernel() -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addDevice(device)
        return fake
    }

    @Test func writesEachFrameWhole() throws {
        let fake = fakeKernel()
        let transport = try LedsPIOTransport(device: device, system: fake)
        try transport.send([1, 2, 3, 4, 5, 6, 7, 8])
        try transport.send([9, 9, 9, 9], framing: .splittable)
        let writes = fake.calls.filter { $0.syscall == .write }
        #expect(writes.count == 2)
        #expect(fake.written(to: device) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9])
        try transport.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test(arguments: [
        (Errno.noSuchFileOrDirectory, HardwareErrorKind.notFound, "dtoverlay=ws2812-pio"),
        (Errno.permissionDenied, .permissionDenied, "ls -l /dev/leds0"),
        (Errno.busy, .busy, "another program"),
        (Errno.ioError, .io, "Input/output error"),
    ])
    func mapsOpenErrors(errno: Errno, kind: HardwareErrorKind, text: String) {
        let fake = fakeKernel()
        fake.fail(.open, with: errno)
        let error = #expect(throws: HardwareError.self) { _ = try LedsPIOTransport(device: device, system: fake) }
        #expect(error?.kind == kind)
        #expect(error?.description.contains(text) == true)
    }

    @Test(arguments: [Errno.ioError, .messageTooLong, .noSpace])
    func mapsWriteErrorsToIO(errno: Errno) throws {
        let fake = fakeKernel()
        let transport = try LedsPIOTransport(device: device, system: fake)
        fake.fail(.write, with: errno)
        let error = #expect(throws: HardwareError.self) { try transport.send([0, 0, 0, 0]) }
        #expect(error?.kind == .io)
        #expect(error?.errno == errno)
    }

    @Test func aShortWriteIsAnError() throws {
        let fake = fakeKernel()
        fake.limitWrites(to: 4)
        let transport = try LedsPIOTransport(device: device, system: fake)
        let error = #expect(throws: HardwareError.self) { try transport.send([UInt8](repeating: 1, count: 12)) }
        #expect(error?.kind == .shortWrite)
        #expect(error?.message.contains("took 4 of 12 bytes") == true)
        #expect(fake.calls.filter { $0.syscall == .write }.count == 1)
    }

    @Test func retriesAnInterruptedWrite() throws {
        let fake = fakeKernel()
        let transport = try LedsPIOTransport(device: device, system: fake)
        fake.fail(.write, with: .interrupted, times: 3)
        try transport.send([1, 2, 3, 4])
        #expect(fake.written(to: device) == [1, 2, 3, 4])
        #expect(fake.calls.filter { $0.syscall == .write }.count == 4)
    }

    @Test func refusesAFrameThatIsNotFourBytesPerLED() throws {
        let transport = try LedsPIOTransport(device: device, system: fakeKernel())
        let error = #expect(throws: HardwareError.self) { try transport.send([1, 2, 3]) }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test func closeErrorsAreReportedButTheDescriptorIsReleased() throws {
        let fake = fakeKernel()
        let transport = try LedsPIOTransport(device: device, system: fake)
        fake.fail(.close, with: .ioError)
        #expect(throws: HardwareError.self) { try transport.close() }
        #expect(fake.openDescriptors.isEmpty)
        try transport.close()
    }
}
