import Foundation
import LEDHardware
import LEDRingTesting
import LEDWire
import RingModel
import RingRender
import Testing

/// Zephyr's build-all idea: every board file builds every driver it can carry on a fake kernel,
/// and the bytes that reach the fake device decode back to the frame that was shown.
@Suite struct DriverBuildAllTests {
    static let catalog: BoardCatalog? = try? BoardCatalog.load(directory: boardsDirectory)
    static let cases: [(String, DriverKind)] = (catalog?.boards ?? []).flatMap { board in
        DriverKind.allCases.filter { $0 != .simulate && ($0 != .ledsPIO || board.pio != nil) }.map { (board.id, $0) }
    }

    /// A fake machine with the board's SPI and PIO nodes and a roomy spidev buffer.
    func machine(for board: Board) -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        for port in board.spi { fake.addDevice(port.device) }
        if let pio = board.pio {
            // As ws2812-pio-rp1 behaves, with the overlay's node in the device tree.
            fake.addLedsPIODevice(pio.device, FakeLedsPIODevice(numLEDs: DriverBuildAllTests.frame.count))
            fake.addLedsPIOOverlay(numLEDs: UInt32(DriverBuildAllTests.frame.count))
        }
        fake.addFile("/sys/module/spidev/parameters/bufsiz", "65536\n")
        return fake
    }

    static let frame: [RGB8] = (0..<52).map { (i: Int) -> RGB8 in
        let r = UInt8(i * 4), g = UInt8(255 - i), b = UInt8((i * 37) % 256)
        return RGB8(r: r, g: g, b: b)
    }

    @Test func everyBoardFileIsCovered() {
        #expect((DriverBuildAllTests.catalog?.boards.count ?? 0) >= 9)
        #expect(DriverBuildAllTests.cases.count >= 9 * 5 + 1)
    }

    @Test(arguments: cases)
    func boardBuildsDriverAndFrameRoundTrips(boardID: String, kind: DriverKind) throws {
        let board = try #require(DriverBuildAllTests.catalog?.board(id: boardID))
        let fake = machine(for: board)
        // GPIO drivers: a fake chip with the board's header label; data on line 10, clock on 11.
        let gpio = FakeGPIO()
        let label = try #require(board.gpioChipLabels.first)
        gpio.addChip(label: label, lineCount: 32)
        var settings = DriverSettings(kind: kind, ledCount: DriverBuildAllTests.frame.count, board: board)
        settings.gpioData = .offset(10)
        settings.gpioClock = .offset(11)
        let driver = try settings.makeDriver(system: fake, gpio: gpio)
        try driver.show(DriverBuildAllTests.frame)
        try driver.close()
        let sent = kind.usesGPIO ? gpio.clockedBytes(chip: label, data: 10, clock: 11)
            : fake.written(to: settings.resolvedDevice)
        #expect(sent.count == driver.frameLength)
        let expected = DriverBuildAllTests.frame
        if let chip = kind.clocklessChip {
            let clock = try #require(driver.clockHz)
            let encoder = try SPISymbolEncoder(chip: chip, clockHz: clock)
            let decoded = try encoder.decoder.decode(sent)
            if chip == .sk6812rgbw {
                // min(r,g,b) moves to white: the light r+w etc. is kept.
                #expect(decoded.pixels.map { RGB8(r: $0.r &+ $0.w, g: $0.g &+ $0.w, b: $0.b &+ $0.w) } == expected)
            } else {
                #expect(decoded.pixels.map(\.rgb) == expected)
            }
        } else if let variant = kind.apa102Variant {
            let decoded = try APA102Encoder(variant: variant).decode(sent, ledCount: expected.count)
            #expect(decoded.map(\.colour) == expected)
        } else {
            // The light after the kernel's gamma is the frame, to within one level.
            let light = try #require(fake.ledsPIODevice(settings.resolvedDevice)?.light)
            for (index, pixel) in expected.enumerated() {
                let shown = light[(index * 4)..<(index * 4 + 3)].map(Int.init)
                let wanted = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
                #expect(zip(shown, wanted).allSatisfy { abs($0 - $1) <= 1 }, "LED \(index): \(shown) for \(wanted)")
            }
        }
    }

    /// The WS2813's datasheet asks for a 300 µs low to latch, 20 µs more than a WS2812B-V5's:
    /// `ws2813-spi` sends it on every board's real clock, `ws2812-spi` stays at 280.
    @Test func ws2813LatchesAfterItsOwnResetTimeOnTheWire() throws {
        for board in DriverBuildAllTests.catalog?.boards ?? [] where !board.spi.isEmpty {
            var lows: [DriverKind: Double] = [:]
            for kind in [DriverKind.ws2812SPI, .ws2813SPI] {
                let fake = machine(for: board)
                let settings = DriverSettings(kind: kind, ledCount: DriverBuildAllTests.frame.count, board: board)
                let driver = try settings.makeDriver(system: fake)
                try driver.show(DriverBuildAllTests.frame)
                let clock = try #require(driver.clockHz)
                let decoded = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock).decoder.decode(fake.written(to: settings.resolvedDevice))
                lows[kind] = decoded.trailingLowNs / 1000
            }
            #expect((lows[.ws2813SPI] ?? 0) >= 300, "\(board.id): \(lows)")
            #expect((lows[.ws2812SPI] ?? 0) >= 280 && (lows[.ws2812SPI] ?? 0) < 300, "\(board.id): \(lows)")
        }
    }

    @Test func theBoardsClockPredictionFeedsTheEncoder() throws {
        let board = try #require(DriverBuildAllTests.catalog?.board(id: "rpi4b"))
        let driver = try DriverSettings(kind: .ws2812SPI, ledCount: 12, board: board).makeDriver(system: machine(for: board))
        // 3.6 MHz requested from the Pi 4's 500 MHz core: divider 140, 3.571 MHz on the wire.
        #expect(driver.clockHz == 3_571_428)   // whole Hz: 500 000 000 / 140
    }

    @Test func aFrameLargerThanBufsizIsRefusedBeforeTheFirstFrame() throws {
        let fake = FakeSystemCalls()
        fake.addDevice("/dev/spidev0.0")
        fake.addFile("/sys/module/spidev/parameters/bufsiz", "4096\n")
        #expect {
            _ = try DriverSettings(kind: .ws2812SPI, ledCount: 1024).makeDriver(system: fake)
        } throws: { error in
            guard let error = error as? HardwareError else { return false }
            return error.kind == .frameTooLarge && error.description.contains("spidev.bufsiz")
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func anUnsupportedClockIsRefusedWithTheRanges() {
        let fake = FakeSystemCalls()
        fake.addDevice("/dev/spidev0.0")
        #expect {
            _ = try DriverSettings(kind: .ws2812SPI, ledCount: 12, spiHz: 2_000_000).makeDriver(system: fake)
        } throws: { error in
            (error as? HardwareError)?.description.contains("3.16–3.76 MHz") == true
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func showRejectsAFrameOfTheWrongSize() throws {
        let recording = RecordingTransport()
        let driver = LEDDriver(encoder: .apa102(try APA102Encoder()), transport: recording, ledCount: 4)
        #expect(throws: HardwareError.self) { try driver.show([.black]) }
        try driver.show([RGB8](repeating: .black, count: 4))
        #expect(recording.transfers.count == 1)
        #expect(recording.transfers.first?.framing == .splittable)
    }
}

@Suite struct HighDynamicRangeDriverTests {
    @Test func apa102HighDynamicRangeSendsTheSixteenBitFrame() throws {
        let recording = RecordingTransport()
        let encoder = try APA102Encoder()
        let driver = LEDDriver(encoder: .apa102(encoder), transport: recording, ledCount: 2, highDynamicRange: true)
        let frame16 = [RGB16(r: 300, g: 0, b: 40), RGB16(r: 65535, g: 1000, b: 0)]
        try driver.show([.black, .black], frame16: frame16)
        let bytes = try #require(recording.transfers.first?.bytes)
        var expected: [UInt8] = []
        try encoder.encodeHDR(frame16, into: &expected)
        #expect(bytes == expected)
        // Low levels use the current field: the first LED is not sent at full current.
        let pixels = try encoder.decode(bytes, ledCount: 2)
        #expect(pixels[0].brightness < 31)
    }

    @Test func highDynamicRangeIsIgnoredForSelfClockedChips() throws {
        let driver = LEDDriver(encoder: .symbols(try SPISymbolEncoder(chip: .ws2812b, clockHz: 3_571_428)),
                               transport: RecordingTransport(), ledCount: 1, highDynamicRange: true)
        #expect(!driver.highDynamicRange)
    }
}
