import Testing
@testable import RingRender

@Suite struct ColorCorrectionParseTests {
    @Test func aStripAndATemperatureCombine() throws {
        let parsed = try ColorCorrection.parse(combination: "typical-led-strip+candle").get()
        let expected = ColorCorrection.typicalLEDStrip.combined(with: try #require(ColorCorrection(named: "candle")))
        #expect(parsed.factors == expected.factors)
        #expect(try ColorCorrection.parse(combination: "TypicalLEDStrip").get().factors == ColorCorrection.typicalLEDStrip.factors)
    }

    @Test(arguments: [("bogus+candle", "bogus"), ("typical-led-strip+", ""), ("typical-led-strip+sunny", "sunny")])
    func theFirstUnknownPartIsNamed(text: String, unknown: String) {
        #expect(throws: ColorCorrection.UnknownName(name: unknown)) { try ColorCorrection.parse(combination: text).get() }
    }
}
