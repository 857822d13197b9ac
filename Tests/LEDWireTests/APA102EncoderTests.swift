import LEDRingTestSupport
import LEDWire
import RingModel
import RingRender
import Testing

@Suite("APA102 / SK9822 frames")
struct APA102EncoderTests {
    @Test("golden bytes: APA102, two LEDs")
    func goldenAPA102() throws {
        let bytes = try APA102Encoder().encode([RGB8(r: 255, g: 0, b: 0), RGB8(r: 1, g: 2, b: 3)])
        #expect(bytes == [
            0x00, 0x00, 0x00, 0x00,  // start frame
            0xFF, 0x00, 0x00, 0xFF,  // 0b111 + 31, B G R
            0xFF, 0x03, 0x02, 0x01,
            0x00,                    // ceil(2 / 16) = 1 end byte
        ])
    }

    @Test("golden bytes: SK9822, two LEDs, brightness 8, 0xFF end fill")
    func goldenSK9822() throws {
        let encoder = try APA102Encoder(variant: .sk9822, globalBrightness: 8, endFrameFill: 0xFF)
        let bytes = try encoder.encode([RGB8(r: 255, g: 0, b: 0), RGB8(r: 1, g: 2, b: 3)])
        #expect(bytes == [
            0x00, 0x00, 0x00, 0x00,  // start frame
            0xE8, 0x00, 0x00, 0xFF,  // 0b111 + 8, B G R
            0xE8, 0x03, 0x02, 0x01,
            0x00, 0x00, 0x00, 0x00,  // SK9822 reset frame: latches this frame now
            0xFF,                    // end byte
        ])
    }

    @Test("end frame gives at least n/2 extra clock edges",
          arguments: [0, 1, 2, 15, 16, 17, 31, 32, 33, 60, 1023, 1024, 1025])
    func endFrameLength(count: Int) throws {
        for variant in APA102Variant.allCases {
            let encoder = try APA102Encoder(variant: variant)
            let end = encoder.endFrameBytes(ledCount: count)
            #expect(end == (count + 15) / 16)
            #expect(end * 8 * 2 >= count)                 // 8 edges a byte ≥ n/2 edges
            #expect(end == 0 || (end - 1) * 16 < count)   // and not a byte more than needed
            let reset = variant == .sk9822 ? 4 : 0
            #expect(encoder.encodedLength(ledCount: count) == 4 + 4 * count + reset + end)
        }
    }

    @Test("round trip of random frames in every colour order, both chips, both fills",
          arguments: Fixtures.rgbOrders)
    func roundTrip(order text: String) throws {
        let order = try ColorOrder(text)
        for variant in APA102Variant.allCases {
            for fill: UInt8 in [0x00, 0xFF] {
                let encoder = try APA102Encoder(variant: variant, colorOrder: order, globalBrightness: 17,
                                                endFrameFill: fill)
                for (index, count) in Fixtures.chainLengths.enumerated() {
                    let pixels = Fixtures.randomFrame(count: count, seed: UInt64(index + 40))
                    let bytes = try encoder.encode(pixels)
                    let decoded = try encoder.decode(bytes, ledCount: count)
                    #expect(decoded.map(\.colour) == pixels)
                    #expect(decoded.allSatisfy { $0.brightness == 17 })
                    #expect(bytes.suffix(encoder.endFrameBytes(ledCount: count)).allSatisfy { $0 == fill })
                }
            }
        }
    }

    @Test("bad parameters are refused with the value in the message")
    func refusals() {
        #expect {
            _ = try APA102Encoder(globalBrightness: 32)
        } throws: { ($0 as? WireError)?.message.contains("32") ?? false }
        #expect {
            _ = try APA102Encoder(endFrameFill: 0x12)
        } throws: { ($0 as? WireError)?.message.contains("0x12") ?? false }
        #expect(throws: WireError.self) { _ = try APA102Encoder(colorOrder: .grbw) }
        #expect(throws: WireError.self) { _ = try APA102Encoder(clockHz: 0) }
    }

    @Test("the decoder rejects frames the encoder could not have written")
    func decoderChecks() throws {
        let encoder = try APA102Encoder(variant: .sk9822)
        let good = try encoder.encode(Fixtures.randomFrame(count: 3, seed: 1))
        var noMarker = good
        noMarker[4] = 0x1F
        var badReset = good
        badReset[4 + 12] = 1
        var badStart = good
        badStart[0] = 1
        for bytes in [noMarker, badReset, badStart] {
            #expect(throws: WireError.self) { _ = try encoder.decode(bytes, ledCount: 3) }
        }
        #expect(throws: WireError.self) { _ = try encoder.decode(good, ledCount: 4) }
    }

    @Test("splittable, and wire time is bytes × 8 / clock")
    func transportFacts() throws {
        let encoder = try APA102Encoder(clockHz: 8e6)
        #expect(encoder.splittable)
        #expect(abs(encoder.wireTimeMicroseconds(ledCount: 100) - Double(4 + 400 + 7) * 8 / 8) < 1e-9)
    }

    @Test("HDR: decoded brightness × PWM is within one step of random 16-bit input")
    func hdrRoundTrip() throws {
        let encoder = try APA102Encoder(variant: .sk9822)
        var generator = SeededGenerator(seed: 2024)
        var pixels: [RGB16] = []
        for index in 0..<4000 {
            // Half the samples near black, where HDR matters.
            let top: UInt16 = index % 2 == 0 ? 65535 : 2047
            pixels.append(RGB16(r: .random(in: 0...top, using: &generator),
                                g: .random(in: 0...top, using: &generator),
                                b: .random(in: 0...top, using: &generator)))
        }
        var bytes: [UInt8] = []
        try encoder.encodeHDR(pixels, into: &bytes)
        let decoded = try encoder.decode(bytes, ledCount: pixels.count)
        for (led, input) in zip(decoded, pixels) {
            let level = Int(led.brightness)
            let brightest = Int(max(input.r, input.g, input.b))
            #expect((1...31).contains(level))
            // The smallest level that can still reach the brightest channel.
            #expect(brightest * 31 <= level * 65535)
            #expect(level == 1 || brightest * 31 > (level - 1) * 65535)
            let step = Double(level) * 65535 / (31 * 255)
            let output = led.rgb16
            for (got, want) in [(output.r, input.r), (output.g, input.g), (output.b, input.b)] {
                #expect(abs(Double(got) - Double(want)) <= step, "\(got) vs \(want) at level \(level)")
            }
        }
    }

    @Test("HDR resolves many more levels than 8-bit near black")
    func hdrLowEnd() throws {
        let encoder = try APA102Encoder()
        let greys = (0..<2048).map { RGB16(r: UInt16($0), g: UInt16($0), b: UInt16($0)) }
        var bytes: [UInt8] = []
        try encoder.encodeHDR(greys, into: &bytes)
        let hdrLevels = Set(try encoder.decode(bytes, ledCount: greys.count).map(\.rgb16.r))
        // Plain 8-bit: round(v / 257) at full current.
        let eightBitLevels = Set(greys.map { (UInt32($0.r) + 128) / 257 })
        #expect(eightBitLevels.count == 9)
        #expect(hdrLevels.count > 200)
    }

    @Test("HDR levels: golden values for a few colours")
    func hdrGolden() {
        #expect(APA102Encoder.hdrLevels(.black) == (1, RGB8(r: 0, g: 0, b: 0)))
        let full = APA102Encoder.hdrLevels(RGB16(r: 65535, g: 32768, b: 0))
        #expect(full.brightness == 31 && full.pwm == RGB8(r: 255, g: 128, b: 0))
        // 1000/65535 needs level ceil(31 000 / 65 535) = 1; PWM round(1000 · 7905 / 65535) = 121.
        let dim = APA102Encoder.hdrLevels(RGB16(r: 1000, g: 500, b: 10))
        #expect(dim.brightness == 1 && dim.pwm == RGB8(r: 121, g: 60, b: 1))
    }
}
