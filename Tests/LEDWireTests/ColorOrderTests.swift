import LEDWire
import RingModel
import Testing

@Suite("ColorOrder and WhiteExtraction")
struct ColorOrderTests {
    @Test("every permutation of RGB and RGBW parses and prints back", arguments: Fixtures.rgbOrders + Fixtures.rgbwOrders)
    func parsesPermutations(text: String) throws {
        let order = try ColorOrder(text)
        #expect(order.description == text)
        #expect(order.hasWhite == text.contains("W"))
        #expect(order.bytesPerPixel == text.count)
        #expect(try ColorOrder(text.lowercased()) == order)
    }

    @Test("named orders match their letters")
    func namedOrders() throws {
        #expect(try ColorOrder("GRB") == .grb)
        #expect(try ColorOrder("BGR") == .bgr)
        #expect(try ColorOrder("RGB") == .rgb)
        #expect(try ColorOrder("GRBW") == .grbw)
        #expect(try ColorOrder("RGBW") == .rgbw)
    }

    @Test("anything else is refused with the input and the fix in the message",
          arguments: ["", "RG", "RGBB", "RRGB", "RGBX", "WRGBW", "RGWW", "GRB ", "W", "RGBWA"])
    func refusesOthers(text: String) {
        #expect {
            _ = try ColorOrder(text)
        } throws: { error in
            guard let wire = error as? WireError else { return false }
            return wire.kind == .invalidColorOrder && wire.message.contains("\"\(text)\"")
                && wire.message.contains("GRB")
        }
    }

    @Test("minimum white extraction moves the shared grey to W")
    func minimumExtraction() {
        let split = WhiteExtraction.minimum.split(RGB8(r: 200, g: 50, b: 120))
        #expect(split == RGBW8(r: 150, g: 0, b: 70, w: 50))
        #expect(WhiteExtraction.none.split(RGB8(r: 200, g: 50, b: 120)) == RGBW8(r: 200, g: 50, b: 120, w: 0))
        #expect(WhiteExtraction.minimum.split(RGB8(r: 255, g: 255, b: 255)) == RGBW8(r: 0, g: 0, b: 0, w: 255))
    }
}
