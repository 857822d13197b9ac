import LEDWire
import RingModel
import Testing

@Suite("White extraction")
struct WhiteExtractionTests {
    let simple = WhiteTint(r: 1, g: 0.5, b: 0.25)

    /// Hand-computed with tint (1, 0.5, 0.25): w = min(200/1, 120/0.5, 100/0.25) = 200; then
    /// r = 200 − 200, g = 120 − 100, b = 100 − 50.
    @Test func accurateAgainstHandValues() {
        let split = WhiteExtraction.accurate(tint: simple).split(RGB8(r: 200, g: 120, b: 100))
        #expect(split == RGBW8(r: 0, g: 20, b: 50, w: 200))
        // Green is the scarce channel here: w = 40 / 0.5 = 80; r = 200 − 80, b = 100 − 20.
        #expect(WhiteExtraction.accurate(tint: simple).split(RGB8(r: 200, g: 40, b: 100)) == RGBW8(r: 120, g: 0, b: 80, w: 80))
        // w is capped at full: 255 / 0.5 = 510 → 255, taking 127.5 → 128 from each channel.
        let grey = WhiteTint(r: 0.5, g: 0.5, b: 0.5)
        #expect(WhiteExtraction.accurate(tint: grey).split(RGB8(r: 255, g: 255, b: 255)) == RGBW8(r: 127, g: 127, b: 127, w: 255))
        // A colour with none of a channel the tint has gets no white at all.
        #expect(WhiteExtraction.accurate(tint: simple).split(RGB8(r: 255, g: 0, b: 90)) == RGBW8(r: 255, g: 0, b: 90, w: 0))
    }

    @Test func minimumAndNoneAgainstHandValues() {
        #expect(WhiteExtraction.minimum.split(RGB8(r: 200, g: 50, b: 120)) == RGBW8(r: 150, g: 0, b: 70, w: 50))
        #expect(WhiteExtraction.none.split(RGB8(r: 200, g: 50, b: 120)) == RGBW8(r: 200, g: 50, b: 120, w: 0))
    }

    @Test(arguments: [WhiteExtraction.none, .minimum, .accurate(tint: .neutral), .accurate(tint: .warm),
                      .accurate(tint: .cold), .accurate(tint: WhiteTint(r: 1, g: 0.5, b: 0.25)),
                      .accurate(tint: WhiteTint(r: 0, g: 0.8, b: 1.4)), .accurate(tint: WhiteTint(r: .nan, g: 0, b: -1))])
    func splittingKeepsTheLight(rule: WhiteExtraction) {
        for colour in Fixtures.randomFrame(count: 2000, seed: 42) + [RGB8(r: 255, g: 255, b: 255), .black] {
            let light = rule.light(of: rule.split(colour))
            #expect(abs(light.r - Float(colour.r)) <= 0.5 + 1e-3, "\(colour)")
            #expect(abs(light.g - Float(colour.g)) <= 0.5 + 1e-3, "\(colour)")
            #expect(abs(light.b - Float(colour.b)) <= 0.5 + 1e-3, "\(colour)")
        }
    }

    @Test func accurateMovesMoreLightToWhiteThanItWouldWasteOnTint() {
        // A warm-white LED makes warm colours from white; min(r,g,b) would add blue it never had.
        let warmColour = RGB8(r: 255, g: 120, b: 38)
        let split = WhiteExtraction.accurate(tint: .warm).split(warmColour)
        #expect(split.w > 200)
        let minimum = WhiteExtraction.minimum.split(warmColour)
        #expect(split.w > minimum.w)
    }

    @Test func presetTintsAreLinearBlackbodyColours() {
        // #ffdbba made linear: (1, 0.7084, 0.4910) (IEC 61966-2-1 curve).
        let n = WhiteTint.neutral
        #expect(n.r == 1 && abs(n.g - 0.7084) < 1e-3 && abs(n.b - 0.4910) < 1e-3)
        #expect(WhiteTint.warm.b < WhiteTint.neutral.b && WhiteTint.neutral.b < WhiteTint.cold.b)
    }

    @Test(arguments: [("none", WhiteExtraction.none), ("MIN", .minimum), ("accurate", .accurate(tint: .neutral)),
                      ("accurate-warm", .accurate(tint: .warm))])
    func rulesByName(name: String, rule: WhiteExtraction) {
        #expect(WhiteExtraction(named: name) == rule)
        #expect(WhiteExtraction(named: "maximum") == nil)
    }
}
