import Glibc
import LEDHardware
import LEDRingTesting
import LEDWire
import RingModel
import Testing

@Suite struct LedsPIOTransportTests {
    let device = "/dev/leds0"

    func fakeKernel() -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addDevice(device)
        return fake
    }

    /// A fake kernel with a ws2812-pio device of `numLEDs` and its device-tree node.
    func piFive(numLEDs: Int, brightness: UInt8 = 255, rgbw: Bool = false) -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addLedsPIODevice(device, FakeLedsPIODevice(numLEDs: numLEDs, brightness: brightness, rgbw: rgbw))
        fake.addLedsPIOOverlay(numLEDs: UInt32(numLEDs), brightness: UInt32(brightness), rgbw: rgbw)
        return fake
    }

    // MARK: - The fake behaves as ws2812-pio-rp1.c does

    @Test func theFakeDriverWritesAtTheFilePositionAndMovesIt() throws {
        let fake = piFive(numLEDs: 2)
        let fd = try fake.open(device, flags: O_WRONLY, mode: 0)
        let frame: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(try frame.withUnsafeBytes { try fake.write(fd, $0) } == 8)
        // The second whole frame on the same descriptor: ENOSPC, nothing stored.
        let second: [UInt8] = [9, 9, 9, 9, 9, 9, 9, 9]
        #expect(throws: Errno.noSpace) { _ = try second.withUnsafeBytes { try fake.write(fd, $0) } }
        #expect(fake.ledsPIODevice(device)?.pixbuf == frame)
        // pwrite at 0 does not care where the position is.
        #expect(try second.withUnsafeBytes { try fake.pwrite(fd, $0, offset: 0) } == 8)
        #expect(fake.ledsPIODevice(device)?.pixbuf == second)
    }

    @Test func theFakeDriverStoresTheFirstNumLEDsOfAnOverlongFrameAndFailsWithEFBIG() throws {
        let fake = piFive(numLEDs: 1)
        let fd = try fake.open(device, flags: O_WRONLY, mode: 0)
        let error = #expect(throws: Errno.self) { _ = try [UInt8](1...8).withUnsafeBytes { try fake.write(fd, $0) } }
        #expect(error == .fileTooLarge)
        #expect(fake.ledsPIODevice(device)?.pixbuf == [1, 2, 3, 4])
        // A failed write() leaves the position where it was (ksys_write), so a frame still fits.
        #expect(try [UInt8](repeating: 7, count: 4).withUnsafeBytes { try fake.write(fd, $0) } == 4)
    }

    @Test func theFakeDriverBlanksAfterAShortFrameAndTakesOneByteAsBrightness() throws {
        let fake = piFive(numLEDs: 3)
        let fd = try fake.open(device, flags: O_WRONLY, mode: 0)
        _ = try [UInt8](repeating: 200, count: 12).withUnsafeBytes { try fake.pwrite(fd, $0, offset: 0) }
        _ = try [UInt8](repeating: 100, count: 4).withUnsafeBytes { try fake.pwrite(fd, $0, offset: 0) }
        #expect(fake.ledsPIODevice(device)?.pixbuf == [100, 100, 100, 100] + [UInt8](repeating: 0, count: 8))
        _ = try [UInt8]([0]).withUnsafeBytes { try fake.pwrite(fd, $0, offset: 0) }
        #expect(fake.ledsPIODevice(device)?.brightness == 0)
        // Brightness 0 on a kernel after 6.12.55 passes values through (W dropped without rgbw).
        #expect(fake.ledsPIODevice(device)?.light.prefix(4) == [100, 100, 100, 0])
    }

    // MARK: - The transport

    @Test func manyFramesReachTheLEDsNotOnlyTheFirst() throws {
        let fake = piFive(numLEDs: 2)
        let transport = try LedsPIOTransport(device: device, system: fake)
        for value in UInt8(1)...20 {
            try transport.send([UInt8](repeating: value, count: 8))
            #expect(fake.ledsPIODevice(device)?.pixbuf == [UInt8](repeating: value, count: 8))
        }
        #expect(fake.calls.contains { if case .pwrite(_, _, let offset) = $0 { offset == 0 } else { false } })
        try transport.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func aFileAsDeviceEndsUpHoldingOnlyTheLastFrame() throws {
        let fake = FakeSystemCalls()
        fake.addFile("/tmp/leds.bin", "stale contents longer than one frame")
        let transport = try LedsPIOTransport(device: "/tmp/leds.bin", system: fake)
        try transport.send([1, 2, 3, 4, 5, 6, 7, 8])
        try transport.send([9, 8, 7, 6, 5, 4, 3, 2])
        #expect(try fake.readFile("/tmp/leds.bin") == [9, 8, 7, 6, 5, 4, 3, 2])
    }

    @Test func aShortChainIsPaddedToNumLEDsSoTheKernelShowsItAtOnce() throws {
        let fake = piFive(numLEDs: 3)
        let overlay = LedsPIOOverlay.find(device: device, system: fake)
        let transport = try LedsPIOTransport(device: device, overlay: overlay, system: fake)
        try transport.send([5, 5, 5, 5])
        let offered = fake.calls.compactMap { if case .pwrite(_, let bytes, _) = $0 { bytes } else { nil } }
        #expect(offered == [[5, 5, 5, 5] + [UInt8](repeating: 0, count: 8)])
    }

    @Test func anOverlongFrameIsFrameTooLargeWithTheNumLEDsFix() throws {
        let fake = piFive(numLEDs: 1)
        let transport = try LedsPIOTransport(device: device, system: fake)
        let error = #expect(throws: HardwareError.self) { try transport.send([UInt8](repeating: 1, count: 12)) }
        #expect(error?.kind == .frameTooLarge)
        #expect(error?.errno == .fileTooLarge)
        #expect(error?.description.contains("3 LEDs") == true)
        #expect(error?.fix.contains("num_leds=3") == true)
    }

    @Test func noSpaceSaysTheFrameWasNotAtOffsetZero() {
        let error = HardwareError.ledsPIO(.noSpace, device: device, operation: "writing 8 bytes to")
        #expect(error.message.contains("not written at offset 0"))
        #expect(error.fix.contains("pwrite"))
    }

    @Test func aChainLongerThanNumLEDsIsRefusedBeforeTheFirstFrame() throws {
        let fake = piFive(numLEDs: 24)
        let settings = DriverSettings(kind: .ledsPIO, ledCount: 30, device: device)
        let error = #expect(throws: HardwareError.self) { _ = try settings.makeDriver(system: fake) }
        #expect(error?.kind == .frameTooLarge)
        #expect(error?.message.contains("num_leds=24") == true)
        #expect(error?.fix.contains("num_leds=30") == true)
        #expect(!fake.calls.contains { $0.syscall == .pwrite || $0.syscall == .write })
        #expect(fake.openDescriptors.isEmpty)
    }

    /// What a WS2812 on SPI shows for a frame is the frame's bytes themselves.
    static let frame: [RGB8] = (0..<16).map { (i: Int) -> RGB8 in
        let r = UInt8(i * 17), g = UInt8(255 - i * 16), b = UInt8(i * 3 + 1)
        return RGB8(r: r, g: g, b: b)
    }

    @Test(arguments: [UInt8(255), 200, 0])
    func manyFramesThroughTheDriverShowTheSameLightAsSPI(brightness: UInt8) throws {
        let fake = piFive(numLEDs: 16, brightness: brightness)
        let driver = try DriverSettings(kind: .ledsPIO, ledCount: 16, device: device).makeDriver(system: fake)
        var rotated = Self.frame
        for _ in 0..<10 {
            rotated = Array(rotated.dropFirst() + rotated.prefix(1))
            try driver.show(rotated)
        }
        let light = try #require(fake.ledsPIODevice(device)?.light)
        // The highest level the kernel can make at this brightness.
        let ceiling = brightness == 0 ? 255 : Int(Ws2812PioGamma.table[Int(brightness)])
        for (index, pixel) in rotated.enumerated() {
            for (shown, wanted) in zip(light[(index * 4)..<(index * 4 + 3)], [pixel.r, pixel.g, pixel.b]) {
                #expect(abs(Int(shown) - min(Int(wanted), ceiling)) <= 1, "LED \(index): \(shown) for \(wanted)")
                #expect((shown == 0) == (wanted == 0))
            }
        }
        try driver.close()
    }

    @Test func theOverlayIsReadFromTheDeviceTree() {
        let fake = FakeSystemCalls()
        fake.addLedsPIOOverlay(root: "/r", node: "ws2812_pio@18", numLEDs: 300, brightness: 0, rgbw: true)
        let overlay = LedsPIOOverlay.find(device: "/dev/leds0", root: "/r", system: fake)
        #expect(overlay == LedsPIOOverlay(node: "/proc/device-tree/ws2812_pio@18", numLEDs: 300, brightness: 0, rgbw: true))
        #expect(LedsPIOOverlay.find(device: "/dev/leds0", root: "/", system: fake) == nil)
        #expect(LedsPIOOverlay.find(device: "/tmp/frames.bin", root: "/r", system: fake) == nil)
    }

    @Test func aMissingBrightnessIsTheDriversDefaultAndTwoInstancesAreNotGuessed() {
        let fake = FakeSystemCalls()
        fake.addLedsPIOOverlay(node: "ws2812_pio@4", numLEDs: 60, brightness: nil)
        #expect(LedsPIOOverlay.find(device: "/dev/leds0", system: fake)?.brightness == 255)
        fake.addLedsPIOOverlay(node: "ws2812_pio@18", numLEDs: 24, devName: "ring")
        #expect(LedsPIOOverlay.find(device: "/dev/ring", system: fake)?.numLEDs == 24)
        fake.addLedsPIOOverlay(node: "ws2812_pio@19", numLEDs: 12)
        #expect(LedsPIOOverlay.find(device: "/dev/leds1", system: fake) == nil)
    }

    @Test(arguments: [
        (Errno.noSuchFileOrDirectory, HardwareErrorKind.notFound, "dtoverlay=ws2812-pio"),
        (Errno.permissionDenied, .permissionDenied, "GROUP=\"gpio\""),
        (Errno.notPermitted, .permissionDenied, "DeviceAllow=char-ws2812-pio-rp1 rw"),
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
        fake.fail(.pwrite, with: errno)
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
        #expect(fake.calls.filter { $0.syscall == .pwrite }.count == 1)
    }

    @Test func retriesAnInterruptedWrite() throws {
        let fake = fakeKernel()
        let transport = try LedsPIOTransport(device: device, system: fake)
        fake.fail(.pwrite, with: .interrupted, times: 3)
        try transport.send([1, 2, 3, 4])
        #expect(fake.written(to: device) == [1, 2, 3, 4])
        #expect(fake.calls.filter { $0.syscall == .pwrite }.count == 4)
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
