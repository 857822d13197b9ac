import LEDWire
import RingModel
import Testing

/// One chip and clock to test, with the symbol width forced at it.
struct ClockCase: CustomTestStringConvertible, Sendable {
    let chip: ClocklessChip
    let width: SymbolWidth
    let clockHz: Double
    var testDescription: String { "\(chip.rawValue) \(width.bits)-bit at \(clockHz / 1e6) MHz" }

    /// Every supported range's ends, its middle and quarter points, plus real Pi divider outputs.
    static let all: [ClockCase] = {
        var cases: [ClockCase] = []
        for chip in [ClocklessChip.ws2812b, .sk6812rgbw] {
            for width in SymbolWidth.allCases {
                for range in chip.defaultTiming.supportedClockRanges(width: width) {
                    let span = range.upperBound - range.lowerBound
                    for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
                        cases.append(ClockCase(chip: chip, width: width, clockHz: range.lowerBound + span * fraction))
                    }
                }
            }
            // 250 MHz core / even dividers 84, 72 and 40, 34; Pi 5 RP1 200 MHz / 58.
            cases.append(ClockCase(chip: chip, width: .fourBit, clockHz: 250e6 / 84))
            cases.append(ClockCase(chip: chip, width: .fourBit, clockHz: 250e6 / 72))
            cases.append(ClockCase(chip: chip, width: .fourBit, clockHz: 200e6 / 58))
            cases.append(ClockCase(chip: chip, width: .eightBit, clockHz: 250e6 / 40))
            cases.append(ClockCase(chip: chip, width: .eightBit, clockHz: 250e6 / 34))
        }
        return cases
    }()
}

@Suite("WS2812 / SK6812 SPI symbols")
struct SPISymbolEncoderTests {
    let timing = SymbolTiming.ws2812

    @Test("derived clock ranges match the arithmetic in the doc comment")
    func derivedRanges() {
        let four = timing.supportedClockRanges(width: .fourBit)
        let eight = timing.supportedClockRanges(width: .eightBit)
        #expect(four.count == 2)
        #expect(eight.count == 1)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1 }  // within 1 Hz
        #expect(near(four[0].lowerBound, 1e9 / 380))       // T0H = t ≤ 380 ns
        #expect(near(four[0].upperBound, 2e9 / 650))       // T1H = 2t ≥ 650 ns
        #expect(near(four[1].lowerBound, 3e9 / 950))       // T1H = 3t ≤ 950 ns
        #expect(near(four[1].upperBound, 4e9 / 1063))      // period 4t ≥ 1063 ns (measured)
        #expect(near(eight[0].lowerBound, 2e9 / 380))      // T0H = 2t ≤ 380 ns
        #expect(near(eight[0].upperBound, 8e9 / 1063))     // period 8t ≥ 1063 ns (measured)
        #expect(timing.supportedRangesText == "4-bit 2.64–3.07 MHz or 3.16–3.76 MHz, 8-bit 5.27–7.52 MHz")
    }

    @Test("clocks the datasheet windows allow but the measured 1063 ns shortest period does not are refused",
          arguments: [3.8e6, 3.95e6, 4.0e6, 7.6e6, 8.0e6, 9.0e6])
    func refusesBelowTheMeasuredPeriod(clock: Double) {
        #expect(SymbolTiming.ws2812.period.lowerBound == 1063)
        #expect(throws: WireError.self) { _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock) }
    }

    @Test("spidev's default 4096 bytes hold 320 RGB LEDs at the Pi's 3.57 MHz (not 280), about 250 SK6812 RGBW")
    func defaultBufsizHolds320LEDs() throws {
        let clock = 25e6 / 7
        let ws = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock)
        #expect(ws.latchBytes == 125 && ws.leadingZeroBytes == 125)
        #expect(ws.encodedLength(ledCount: 320) <= 4096)
        #expect(ws.encodedLength(ledCount: 321) > 4096)
        let rgbw = try SPISymbolEncoder(chip: .sk6812rgbw, clockHz: clock)
        #expect(rgbw.encodedLength(ledCount: 251) <= 4096)
        #expect(rgbw.encodedLength(ledCount: 252) > 4096)
    }

    @Test("latch times: 280 µs for WS2812(B) so V5 parts latch, 300 µs for WS2813, 80 µs for SK6812")
    func latchTimes() {
        #expect(ClocklessChip.ws2812b.defaultResetMicroseconds == 280)
        #expect(ClocklessChip.ws2813.defaultResetMicroseconds == 300)
        #expect(ClocklessChip.sk6812.defaultResetMicroseconds == 80)
    }

    @Test("every decoded bit sits inside the windows", arguments: ClockCase.all)
    func timingWindows(clock: ClockCase) throws {
        let encoder = try SPISymbolEncoder(chip: clock.chip, clockHz: clock.clockHz, symbolWidth: clock.width)
        let windows = encoder.timing
        #expect(encoder.scheme.width == clock.width)
        let pixels = Fixtures.randomFrame(count: 16, seed: 7) + [RGB8(r: 255, g: 255, b: 255), .black]
        let decoded = try encoder.decoder.decode(try encoder.encode(pixels))
        #expect(decoded.bits.count == pixels.count * 8 * encoder.colorOrder.bytesPerPixel)
        for (index, bit) in decoded.bits.enumerated() {
            let window = bit.value ? windows.oneHigh : windows.zeroHigh
            #expect(window.holds(bit.highNs), "bit \(index) high \(bit.highNs) ns")
            if index < decoded.bits.count - 1 {
                #expect(windows.period.holds(bit.highNs + bit.lowNs), "bit \(index) period")
                #expect(bit.lowNs >= windows.minimumLow - 1e-6, "bit \(index) low \(bit.lowNs) ns")
            }
        }
        let expected = pixels.map {
            encoder.colorOrder.hasWhite ? encoder.whiteExtraction.split($0) : RGBW8(r: $0.r, g: $0.g, b: $0.b, w: 0)
        }
        #expect(decoded.pixels == expected)
    }

    @Test("clocks just outside each range are refused", arguments: SymbolWidth.allCases)
    func refusesOutside(width: SymbolWidth) {
        let ranges = timing.supportedClockRanges(width: width)
        for range in ranges {
            for clock in [range.lowerBound * 0.999, range.upperBound * 1.001] {
                guard !ranges.contains(where: { $0.contains(clock) }) else { continue }
                #expect(throws: WireError.self) {
                    _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock, symbolWidth: width)
                }
            }
        }
    }

    @Test("clocks in no range are refused with the supported ranges listed",
          arguments: [2.0e6, 2.6e6, 3.1e6, 4.1e6, 5.0e6, 9.2e6, 20e6, 0, -1, .infinity, .nan])
    func refusesGaps(clock: Double) {
        #expect {
            _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock)
        } throws: { error in
            guard let wire = error as? WireError else { return false }
            return wire.kind == .unsupportedClock && wire.message.contains("2.64–3.07 MHz")
                && wire.message.contains("5.27–7.52 MHz")
        }
    }

    @Test("4-bit symbols are preferred, 8-bit used above them, and a forced width is honoured")
    func schemeChoice() throws {
        #expect(try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.0e6).scheme
                == SymbolScheme(width: .fourBit, zeroHighBits: 1, oneHighBits: 2))
        #expect(try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.5e6).scheme
                == SymbolScheme(width: .fourBit, zeroHighBits: 1, oneHighBits: 3))
        #expect(try SPISymbolEncoder(chip: .ws2812b, clockHz: 6.0e6).scheme.width == .eightBit)
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.5e6, symbolWidth: .eightBit)
        }
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: 6.0e6, symbolWidth: .fourBit)
        }
    }

    @Test("golden bytes: WS2812 4-bit at 3.0 MHz, two LEDs")
    func goldenWS2812() throws {
        let encoder = try SPISymbolEncoder(chip: .ws2812, clockHz: 3.0e6, leadingZeroBytes: 2)
        let bytes = try encoder.encode([RGB8(r: 0xFF, g: 0x00, b: 0x00), RGB8(r: 0x12, g: 0x34, b: 0x56)])
        // 0 → 1000, 1 → 1100, two data bits per byte, MSB first; GRB order.
        let expected: [UInt8] = [0x00, 0x00]
            + [0x88, 0x88, 0x88, 0x88] // G 0x00
            + [0xCC, 0xCC, 0xCC, 0xCC] // R 0xFF
            + [0x88, 0x88, 0x88, 0x88] // B 0x00
            + [0x88, 0xCC, 0x8C, 0x88] // G 0x34 = 00 11 01 00
            + [0x88, 0x8C, 0x88, 0xC8] // R 0x12 = 00 01 00 10
            + [0x8C, 0x8C, 0x8C, 0xC8] // B 0x56 = 01 01 01 10
            + [UInt8](repeating: 0, count: 105) // 280 µs × 3.0 MHz = 840 bits = 105 bytes
        #expect(bytes == expected)
    }

    @Test("golden bytes: SK6812 RGBW 4-bit at 3.5 MHz, two LEDs, white from the minimum")
    func goldenSK6812W() throws {
        let encoder = try SPISymbolEncoder(chip: .sk6812rgbw, clockHz: 3.5e6, leadingZeroBytes: 1)
        let bytes = try encoder.encode([RGB8(r: 255, g: 255, b: 255), RGB8(r: 0x10, g: 0x20, b: 0x30)])
        // SK6812 windows at 3.5 MHz: 0 → 1000 (T0H 286 ns), 1 → 1100 (T1H 571 ns); GRBW.
        // LED 2 splits into r 0, g 0x10, b 0x20, w 0x10.
        let expected: [UInt8] = [0x00]
            + [0x88, 0x88, 0x88, 0x88] + [0x88, 0x88, 0x88, 0x88] + [0x88, 0x88, 0x88, 0x88]
            + [0xCC, 0xCC, 0xCC, 0xCC]  // W 0xFF
            + [0x88, 0x8C, 0x88, 0x88]  // G 0x10 = 00 01 00 00
            + [0x88, 0x88, 0x88, 0x88]  // R 0x00
            + [0x88, 0xC8, 0x88, 0x88]  // B 0x20 = 00 10 00 00
            + [0x88, 0x8C, 0x88, 0x88]  // W 0x10
            + [UInt8](repeating: 0, count: 35) // 80 µs × 3.5 MHz = 280 bits = 35 bytes
        #expect(bytes == expected)
    }

    @Test("round trip of random frames in every colour order and chain length",
          arguments: Fixtures.rgbOrders + Fixtures.rgbwOrders)
    func roundTrip(order text: String) throws {
        let order = try ColorOrder(text)
        let chip: ClocklessChip = order.hasWhite ? .sk6812rgbw : .ws2812b
        let encoder = try SPISymbolEncoder(chip: chip, clockHz: 250e6 / 72, colorOrder: order,
                                           whiteExtraction: .none)
        for (index, count) in Fixtures.chainLengths.enumerated() {
            let pixels = Fixtures.randomFrame(count: count, seed: UInt64(index) &* 31 &+ stableSeed(text))
            let decoded = try encoder.decoder.decode(try encoder.encode(pixels))
            #expect(decoded.pixels.map(\.rgb) == pixels)
            #expect(decoded.pixels.allSatisfy { $0.w == 0 })
        }
    }

    @Test("RGBW round trip with minimum extraction gives back the colour", arguments: [1, 60, 1024])
    func roundTripWhite(count: Int) throws {
        let encoder = try SPISymbolEncoder(chip: .sk6812rgbw, clockHz: 3.0e6)
        let pixels = Fixtures.randomFrame(count: count, seed: 99)
        let decoded = try encoder.decoder.decode(try encoder.encode(pixels))
        for (got, want) in zip(decoded.pixels, pixels) {
            #expect(min(got.r, got.g, got.b) == 0)
            #expect(RGB8(r: got.r + got.w, g: got.g + got.w, b: got.b + got.w) == want)
        }
    }

    @Test("latch and leading low last at least the reset time at the actual clock",
          arguments: [(ClocklessChip.ws2812b, 250e6 / 84), (.ws2813, 3.7e6), (.sk6812, 2.7e6), (.sk6812rgbw, 8.5e6)])
    func latchLength(chip: ClocklessChip, clock: Double) throws {
        for reset in [nil, 50.0, 300.0] as [Double?] {
            let encoder = try SPISymbolEncoder(chip: chip, clockHz: clock, resetMicroseconds: reset)
            let wanted = (reset ?? chip.defaultResetMicroseconds) * 1000
            let decoded = try encoder.decoder.decode(try encoder.encode(Fixtures.randomFrame(count: 5, seed: 3)))
            #expect(decoded.trailingLowNs >= wanted)
            #expect(decoded.leadingLowNs >= wanted)
            // Not wastefully long: less than one byte over.
            #expect(Double(encoder.latchBytes * 8) * 1e9 / clock < wanted + 8e9 / clock)
        }
    }

    @Test("leading zero bytes are present and data bytes start high and end low")
    func byteShape() throws {
        for (clock, leading) in [(3.0e6, 0), (3.5e6, 3), (6.0e6, 16)] {
            let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: clock, leadingZeroBytes: leading)
            let pixels = Fixtures.randomFrame(count: 10, seed: 5)
            let bytes = try encoder.encode(pixels)
            #expect(bytes.prefix(leading).allSatisfy { $0 == 0 })
            let data = bytes.dropFirst(leading).prefix(bytes.count - leading - encoder.latchBytes)
            #expect(data.count == 10 * 3 * encoder.bytesPerColourByte)
            #expect(data.allSatisfy { $0 & 0x80 != 0 && $0 & 0x01 == 0 })
            #expect(bytes.suffix(encoder.latchBytes).allSatisfy { $0 == 0 })
        }
    }

    @Test("a stray low bit between bytes does not change the colours")
    func strayIdleBit() throws {
        let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: 250e6 / 72)
        let pixels = Fixtures.randomFrame(count: 30, seed: 11)
        var bits: [Bool] = []
        for byte in try encoder.encode(pixels) {
            for shift in stride(from: 7, through: 0, by: -1) { bits.append((byte >> UInt8(shift)) & 1 == 1) }
            bits.append(false)
        }
        while bits.count % 8 != 0 { bits.append(false) }
        var stretched: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            stretched.append(bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
        #expect(try encoder.decoder.decode(stretched).pixels.map(\.rgb) == pixels)
    }

    @Test("length, wire time and buffer checks")
    func lengthsAndErrors() throws {
        let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.0e6, leadingZeroBytes: 4)
        #expect(encoder.encodedLength(ledCount: 60) == 4 + 60 * 12 + 105)
        #expect(abs(encoder.wireTimeMicroseconds(ledCount: 60) - Double(4 + 720 + 105) * 8 / 3.0) < 1e-9)
        #expect(!encoder.splittable)
        var small = [UInt8](repeating: 0, count: 10)
        let pixels = [RGB8.black]
        var caught: WireError?
        pixels.withUnsafeBufferPointer { source in
            small.withUnsafeMutableBytes { target in
                do throws(WireError) {
                    try encoder.encode(source, into: target)
                } catch {
                    caught = error
                }
            }
        }
        #expect(caught?.kind == .wrongLength)
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.0e6, colorOrder: .grbw)
        }
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .sk6812rgbw, clockHz: 3.0e6, colorOrder: .grb)
        }
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.0e6, resetMicroseconds: -1)
        }
    }

    @Test("encoding into a reused array keeps its storage")
    func reusesStorage() throws {
        let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3.0e6)
        var bytes: [UInt8] = []
        try encoder.encode(Fixtures.randomFrame(count: 60, seed: 1), into: &bytes)
        let capacity = bytes.capacity
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        try encoder.encode(Fixtures.randomFrame(count: 60, seed: 2), into: &bytes)
        #expect(bytes.capacity == capacity)
        #expect(bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
        #expect(try encoder.decoder.decode(bytes).pixels.map(\.rgb) == Fixtures.randomFrame(count: 60, seed: 2))
    }

    @Test("SK6812 has its own datasheet ranges, and both families take the Pi's 3.47 MHz")
    func sk6812Ranges() throws {
        let sk = SymbolTiming.sk6812
        #expect(sk.supportedRangesText == "4-bit 2.67–4.54 MHz, 8-bit 4.33–11.11 MHz")
        #expect(try SPISymbolEncoder(chip: .sk6812, clockHz: 250e6 / 72).scheme
                == SymbolScheme(width: .fourBit, zeroHighBits: 1, oneHighBits: 2))
        #expect(try SPISymbolEncoder(chip: .ws2812b, clockHz: 250e6 / 72).scheme
                == SymbolScheme(width: .fourBit, zeroHighBits: 1, oneHighBits: 3))
        #expect(throws: WireError.self) {
            _ = try SPISymbolEncoder(chip: .sk6812, clockHz: 2.6e6)
        }
    }
}

/// A seed derived from `text` that is the same on every run (FNV-1a), unlike `hashValue`, which
/// Swift randomises per process, so a failing case can be replayed.
private func stableSeed(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}
