import Testing
import RingModel
@testable import RingRender

@Suite struct ColorSpaceTests {
    @Test(arguments: 0...255)
    func srgbRoundTripsEveryByte(_ byte: Int) {
        let v = Float(byte) / 255
        let back = SRGB.fromLinear(SRGB.toLinear(v))
        #expect(abs(back - v) < 0.5 / 255)
    }

    @Test func srgbKnownValues() {
        // Values from the IEC 61966-2-1 curve: 50 % grey is about 21.4 % light.
        #expect(abs(SRGB.toLinear(0.5) - 0.21404) < 1e-4)
        #expect(SRGB.toLinear(0) == 0)
        #expect(abs(SRGB.toLinear(1) - 1) < 1e-6)
    }

    @Test func oklabOfWhiteAndBlack() {
        let white = OKLab(.white)
        #expect(abs(white.l - 1) < 1e-3 && abs(white.a) < 1e-3 && abs(white.b) < 1e-3)
        let black = OKLab(.black)
        #expect(abs(black.l) < 1e-6)
    }

    @Test(arguments: ["#fa114f", "#a6ff00", "#00fff6", "#220003", "#808080"])
    func oklabRoundTrip(_ hex: String) throws {
        let c = SRGB.linear(try #require(RGB8(hex: hex)))
        let back = OKLab(c).linear
        #expect(abs(back.r - c.r) < 1e-3 && abs(back.g - c.g) < 1e-3 && abs(back.b - c.b) < 1e-3)
    }

    @Test(arguments: ["", "#12345", "#1234567", "zzzzzz", "#-12345"])
    func hexRejectsMalformed(_ text: String) {
        #expect(RGB8(hex: text) == nil)
    }

    @Test func hexPrintsLowerCase() {
        #expect(RGB8(r: 0xFA, g: 0x11, b: 0x4F).hex == "#fa114f")
        #expect(RGB8(hex: "FA114F") == RGB8(r: 0xFA, g: 0x11, b: 0x4F))
    }
}
