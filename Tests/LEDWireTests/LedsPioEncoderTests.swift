import Foundation
import LEDWire
import RingModel
import Testing

@Suite("Pi 5 /dev/leds layout")
struct LedsPioEncoderTests {
    @Test("golden bytes: RGB strip, two LEDs, W bytes zero, levels through the inverse kernel gamma")
    func goldenRGB() throws {
        let bytes = try LedsPioEncoder().encode([RGB8(r: 255, g: 0, b: 0), RGB8(r: 1, g: 2, b: 3)])
        // ws2812_gamma[22] = 1, [29] = 2, [35] = 3: the first bytes the kernel lights at those levels.
        #expect(bytes == [0xFF, 0x00, 0x00, 0x00, 22, 29, 35, 0x00])
    }

    @Test("golden bytes: RGBW strip, white from the minimum, kernel brightness 0 passes through")
    func goldenRGBW() throws {
        let bytes = try LedsPioEncoder(rgbw: true, kernelBrightness: 0)
            .encode([RGB8(r: 10, g: 20, b: 30), RGB8(r: 255, g: 255, b: 255)])
        #expect(bytes == [0x00, 0x0A, 0x14, 0x0A, 0x00, 0x00, 0x00, 0xFF])
    }

    @Test("round trip in several chain lengths and byte orders", arguments: Fixtures.rgbwOrders)
    func roundTrip(order text: String) throws {
        let exact = try LedsPioEncoder(byteOrder: try ColorOrder(text), kernelBrightness: 0)
        let gamma = try LedsPioEncoder(byteOrder: try ColorOrder(text))
        for count in Fixtures.chainLengths {
            let pixels = Fixtures.randomFrame(count: count, seed: UInt64(count))
            let bytes = try exact.encode(pixels)
            #expect(bytes.count == 4 * count)
            #expect(try exact.decode(bytes) == pixels.map { RGBW8(r: $0.r, g: $0.g, b: $0.b, w: 0) })
            for (shown, pixel) in zip(try gamma.decode(try gamma.encode(pixels)), pixels) {
                #expect(abs(Int(shown.r) - Int(pixel.r)) <= 1 && abs(Int(shown.g) - Int(pixel.g)) <= 1
                        && abs(Int(shown.b) - Int(pixel.b)) <= 1)
            }
        }
    }

    @Test("the copied table is the driver's formula, 255 * (x / 255) ^ (1 / .45), floored")
    func tableIsTheKernels() {
        #expect(Ws2812PioGamma.table.count == 256)
        for x in 0...255 {
            #expect(Int(Ws2812PioGamma.table[x]) == Int(255 * pow(Double(x) / 255, 1 / 0.45)), "entry \(x)")
        }
    }

    @Test("at the default brightness 255 every level comes out within one step; lit stays lit")
    func inverseAtFullBrightness() {
        let send = Ws2812PioGamma.inverse(brightness: 255)
        let reachable = Set(Ws2812PioGamma.table)
        for wanted in 0...255 {
            let shown = Int(Ws2812PioGamma.kernelOutput(send[wanted], brightness: 255))
            #expect(abs(shown - wanted) <= 1, "level \(wanted) shows \(shown)")
            if reachable.contains(UInt8(wanted)) { #expect(shown == wanted) }
            #expect((shown == 0) == (wanted == 0))
        }
        // Sending the level itself, as before, is gamma twice: 128 would light at 55.
        #expect(Ws2812PioGamma.kernelOutput(128, brightness: 255) == 55)
    }

    @Test("whole frames only; 800 kbit/s wire time plus the 300 µs the kernel needs after it")
    func transportFacts() throws {
        let encoder = try LedsPioEncoder()
        #expect(!encoder.splittable)
        #expect(encoder.kernelBrightness == 255)
        #expect(encoder.wireTimeMicroseconds(ledCount: 60) == 60 * 24 * 1.25 + 300)
        #expect(try LedsPioEncoder(rgbw: true).wireTimeMicroseconds(ledCount: 60) == 60 * 32 * 1.25 + 300)
        #expect(throws: WireError.self) { _ = try LedsPioEncoder(byteOrder: .grb) }
        #expect(throws: WireError.self) { _ = try encoder.decode([1, 2, 3]) }
    }
}
