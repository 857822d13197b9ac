import LEDWire
import RingRender
import Testing

@Suite("Pi 5 /dev/leds layout")
struct LedsPioEncoderTests {
    @Test("golden bytes: RGB strip, two LEDs, W bytes zero")
    func goldenRGB() throws {
        let bytes = try LedsPioEncoder().encode([RGB8(r: 255, g: 0, b: 0), RGB8(r: 1, g: 2, b: 3)])
        #expect(bytes == [0xFF, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x00])
    }

    @Test("golden bytes: RGBW strip, white from the minimum")
    func goldenRGBW() throws {
        let bytes = try LedsPioEncoder(rgbw: true).encode([RGB8(r: 10, g: 20, b: 30), RGB8(r: 255, g: 255, b: 255)])
        #expect(bytes == [0x00, 0x0A, 0x14, 0x0A, 0x00, 0x00, 0x00, 0xFF])
    }

    @Test("round trip in several chain lengths and byte orders", arguments: Fixtures.rgbwOrders)
    func roundTrip(order text: String) throws {
        let encoder = try LedsPioEncoder(byteOrder: try ColorOrder(text))
        for count in Fixtures.chainLengths {
            let pixels = Fixtures.randomFrame(count: count, seed: UInt64(count))
            let bytes = try encoder.encode(pixels)
            #expect(bytes.count == 4 * count)
            #expect(try encoder.decode(bytes) == pixels.map { RGBW8(r: $0.r, g: $0.g, b: $0.b, w: 0) })
        }
    }

    @Test("brightness passes through by default, whole frames only, 800 kbit/s wire time")
    func transportFacts() throws {
        let encoder = try LedsPioEncoder()
        #expect(encoder.brightnessWrite == [0xFF])
        #expect(!encoder.splittable)
        #expect(encoder.wireTimeMicroseconds(ledCount: 60) == 60 * 24 * 1.25)
        #expect(try LedsPioEncoder(rgbw: true).wireTimeMicroseconds(ledCount: 60) == 60 * 32 * 1.25)
        #expect(throws: WireError.self) { _ = try LedsPioEncoder(byteOrder: .grb) }
        #expect(throws: WireError.self) { _ = try encoder.decode([1, 2, 3]) }
    }
}
