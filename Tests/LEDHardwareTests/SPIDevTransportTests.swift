import Glibc
import LEDHardware
import LEDRingTesting
import Testing

@Suite struct SPIDevTransportTests {
    let device = "/dev/spidev0.0"

    func fakeKernel(bufsiz: String? = "4096\n") -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addDevice(device)
        if let bufsiz { fake.addFile("/sys/module/spidev/parameters/bufsiz", bufsiz) }
        return fake
    }

    @Test func configuresModeBitsAndClockAndReadsThemBack() throws {
        let fake = fakeKernel()
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        #expect(fake.spiRequests == [
            .writeMode(0), .readMode, .writeBitsPerWord(8), .readBitsPerWord,
            .writeMaxSpeedHz(2_400_000), .readMaxSpeedHz,
        ])
        #expect(transport.acceptedSpeedHz == 2_400_000)
        #expect(transport.bufferSize == 4096)
        try transport.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func exposesTheClockTheDriverAccepted() throws {
        let fake = fakeKernel()
        fake.clampSPISpeed(to: 2_000_000)
        let transport = try SPIDevTransport(device: device, speedHz: 3_000_000, system: fake)
        #expect(transport.requestedSpeedHz == 3_000_000)
        #expect(transport.acceptedSpeedHz == 2_000_000)
        try transport.send([1, 2, 3])
        #expect(fake.spiRequests.last == .message(length: 3, speedHz: 2_000_000, bitsPerWord: 8))
    }

    @Test func sendsAnUnsplittableFrameAsOneMessage() throws {
        let fake = fakeKernel()
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        let frame = (0..<4096).map { UInt8(truncatingIfNeeded: $0) }
        try transport.send(frame, framing: .whole)
        let messages = fake.spiRequests.filter { if case .message = $0 { return true } else { return false } }
        #expect(messages == [.message(length: 4096, speedHz: 2_400_000, bitsPerWord: 8)])
        #expect(fake.written(to: device) == frame)
    }

    @Test func splitsASplittableFrameIntoChunksNoLargerThanBufsiz() throws {
        let fake = fakeKernel(bufsiz: "1000")
        // As on a Pi's arm64 kernel (SPIDevAlignment: 128).
        let transport = try SPIDevTransport(device: device, speedHz: 8_000_000, system: fake, transferAlignment: 128)
        let frame = (0..<2500).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try transport.send(frame, framing: .splittable)
        let lengths = fake.spiRequests.compactMap { request -> Int? in
            if case .message(let length, _, _) = request { return length } else { return nil }
        }
        // spidev counts ALIGN(len, 128) against bufsiz: a 1000-byte chunk counts as 1024 and would
        // get EMSGSIZE, so chunks are whole multiples of 128 (896 = 7 × 128).
        #expect(lengths == [896, 896, 708])
        #expect(fake.written(to: device) == frame)
    }

    /// spidev charges each transfer as ALIGN(len, ARCH_DMA_MINALIGN) bytes against bufsiz, so
    /// with a bufsiz that is not a multiple of the alignment a bufsiz-long chunk gets EMSGSIZE
    /// (seen on Debian 12's kernel under QEMU, tools/spi-capture-test.sh, with bufsiz 1003).
    @Test func splitsIntoChunksTheKernelAcceptsWhenBufsizIsNotAligned() throws {
        let fake = fakeKernel(bufsiz: "1003\n")
        let transport = try SPIDevTransport(device: device, speedHz: 8_000_000, system: fake, transferAlignment: 8)
        #expect(transport.largestTransfer == 1000)
        let frame = (0..<2500).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try transport.send(frame, framing: .splittable)
        let lengths = fake.spiRequests.compactMap { request -> Int? in
            if case .message(let length, _, _) = request { return length } else { return nil }
        }
        #expect(lengths == [1000, 1000, 500])
        #expect(fake.written(to: device) == frame)
    }

    @Test func refusesAWholeFrameWhoseAlignedLengthExceedsBufsiz() throws {
        let fake = fakeKernel(bufsiz: "1003\n")
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake, transferAlignment: 8)
        try transport.checkFits(byteCount: 1000, framing: .whole)
        let error = #expect(throws: HardwareError.self) { try transport.checkFits(byteCount: 1001, framing: .whole) }
        #expect(error?.kind == .frameTooLarge)
        #expect(error?.message.contains("at most 1000 go through") == true)
        #expect(error?.fix.contains("spidev.bufsiz=65536") == true)
        // An arm64 kernel (128-byte alignment) takes even less of the same buffer.
        let arm64 = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake, transferAlignment: 128)
        #expect(arm64.largestTransfer == 896)
        #expect(throws: HardwareError.self) { try arm64.checkFits(byteCount: 897, framing: .whole) }
    }

    @Test func alignmentFollowsTheKernelsArchitecture() {
        #expect(SPIDevAlignment.bytes(forMachine: "aarch64") == 128)
        #expect(SPIDevAlignment.bytes(forMachine: "armv7l") == 64)
        #expect(SPIDevAlignment.bytes(forMachine: "armv6l") == 32)
        #expect(SPIDevAlignment.bytes(forMachine: "x86_64") == 8)
        #expect(SPIDevAlignment.bytes(forMachine: "mystery") == 128)
        #expect(SPIDevAlignment.largestTransfer(bufsiz: 4096, alignment: 128) == 4096)
        #expect(SPIDevAlignment.largestTransfer(bufsiz: 65535, alignment: 128) == 65408)
    }

    @Test func refusesAWholeFrameLargerThanBufsizBeforeSendingAnything() throws {
        let fake = fakeKernel(bufsiz: "4096")
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        #expect(throws: HardwareError.self) { try transport.checkFits(byteCount: 5200, framing: .whole) }
        let error = #expect(throws: HardwareError.self) { try transport.send([UInt8](repeating: 0, count: 5200)) }
        #expect(error?.kind == .frameTooLarge)
        #expect(error?.exitCode == 78)
        #expect(error?.message.contains("spidev buffer is 4096 bytes but this frame needs 5200") == true)
        #expect(error?.fix.contains("spidev.bufsiz=65536") == true)
        #expect(!fake.spiRequests.contains { if case .message = $0 { return true } else { return false } })
    }

    @Test func readsBufsizUnderTheGivenRoot() throws {
        let fake = FakeSystemCalls()
        fake.addDevice(device)
        fake.addFile("/fake/sys/module/spidev/parameters/bufsiz", "65536\n")
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, root: "/fake", system: fake)
        #expect(transport.bufferSize == 65536)
    }

    @Test func assumesTheKernelDefaultWhenBufsizIsUnreadable() throws {
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fakeKernel(bufsiz: nil))
        #expect(transport.bufferSize == SPIDevTransport.defaultBufferSize)
    }

    @Test(arguments: [
        (Errno.noSuchFileOrDirectory, HardwareErrorKind.notFound, "dtparam=spi=on", Int32(69)),
        (Errno.permissionDenied, .permissionDenied, "usermod -aG spi", 77),
        // EPERM is a device policy (systemd's DeviceAllow=), not the node's group.
        (Errno.notPermitted, .permissionDenied, "DeviceAllow=char-spi rw", 77),
        (Errno.busy, .busy, "another program", 69),
        (Errno.ioError, .io, "Input/output error", 74),
    ])
    func mapsOpenErrors(errno: Errno, kind: HardwareErrorKind, fixOrMessage: String, exitCode: Int32) {
        let fake = fakeKernel()
        fake.fail(.open, with: errno)
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        }
        #expect(error?.kind == kind)
        #expect(error?.exitCode == exitCode)
        #expect(error?.errno == errno)
        #expect(error?.description.contains(fixOrMessage) == true)
        #expect(error?.message.contains(device) == true)
    }

    @Test(arguments: [
        (Errno.messageTooLong, HardwareErrorKind.frameTooLarge, "spidev.bufsiz=65536"),
        (Errno.ioError, .io, "Input/output error"),
        (Errno.busy, .busy, "another program"),
        (Errno.noSuchDevice, .notFound, "dtparam=spi=on"),
    ])
    func mapsTransferErrors(errno: Errno, kind: HardwareErrorKind, text: String) throws {
        let fake = fakeKernel()
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        fake.fail(.spiIoctl, with: errno, onCall: 7)  // the six set-up calls, then the message
        let error = #expect(throws: HardwareError.self) { try transport.send([1, 2, 3]) }
        #expect(error?.kind == kind)
        #expect(error?.description.contains(text) == true)
    }

    @Test func closesTheDeviceWhenConfigurationFails() {
        let fake = fakeKernel()
        fake.fail(.spiIoctl, with: .invalidArgument, onCall: 5)  // writing the clock
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        }
        #expect(error?.message.contains("setting the clock to 2400000 Hz") == true)
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func refusesADriverThatKeepsAnotherMode() {
        let fake = fakeKernel()
        fake.ignoreModeWrites()
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        }
        #expect(error?.kind == .invalidConfiguration)
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func retriesInterruptedCallsThenSucceeds() throws {
        let fake = fakeKernel()
        fake.fail(.open, with: .interrupted, times: 2)
        fake.fail(.spiIoctl, with: .interrupted, onCall: 1)
        fake.fail(.spiIoctl, with: .interrupted, onCall: 9)
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        try transport.send([9, 8, 7])
        #expect(fake.calls.filter { $0.syscall == .open }.count == 3)
        #expect(fake.written(to: device) == [9, 8, 7])
    }

    @Test func reportsAShortTransfer() throws {
        let fake = fakeKernel()
        fake.limitMessages(to: 2)
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        let error = #expect(throws: HardwareError.self) { try transport.send([1, 2, 3]) }
        #expect(error?.kind == .shortWrite)
        #expect(error?.exitCode == 74)
    }

    @Test func closeIsIdempotentAndSendAfterCloseFails() throws {
        let fake = fakeKernel()
        let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
        try transport.close()
        try transport.close()
        #expect(fake.calls.filter { $0.syscall == .close }.count == 1)
        let error = #expect(throws: HardwareError.self) { try transport.send([1]) }
        #expect(error?.kind == .closed)
    }

    @Test func closesTheDescriptorWhenDropped() throws {
        let fake = fakeKernel()
        do {
            let transport = try SPIDevTransport(device: device, speedHz: 2_400_000, system: fake)
            try transport.send([1])
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func rejectsAZeroClock() {
        let error = #expect(throws: HardwareError.self) {
            _ = try SPIDevTransport(device: device, speedHz: 0, system: fakeKernel())
        }
        #expect(error?.kind == .invalidConfiguration)
    }
}
