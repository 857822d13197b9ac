import LEDWire
import RingModel
import RingRender
import Testing

@Suite("Renderer output through APA102 HDR")
struct RendererHDRTests {
    func ring(_ n: Int, colour: RGB8) throws -> RingLayout {
        let appearance = RingAppearance(gradient: Gradient(solid: colour), track: .off, shadow: 0)
        return try RingLayout(rings: [RingSpec(name: "r", segments: [Segment(ledCount: n)], appearance: appearance)])
    }

    @Test(arguments: [1.0, 0.2, 0.01, 0.002])
    func encodeDecodeOfRendererOutputIsWithinOneStep(brightness: Float) throws {
        let layout = try RingLayout(rings: Palette.activityRings())
        var renderer = Renderer(layout: layout, pipeline: ColorPipeline(brightness: brightness), limiter: .unlimited())
        renderer.wideFrame = true
        renderer.render([.progress(1.3), .progress(0.6), .spinner(tail: 0.3)])
        let encoder = try APA102Encoder(variant: .sk9822)
        var bytes: [UInt8] = []
        try encoder.encodeHDR(renderer.frame16, into: &bytes)
        let decoded = try encoder.decode(bytes, ledCount: renderer.frame16.count)
        for (led, want) in zip(decoded, renderer.frame16) {
            let step = Double(led.brightness) * 65535 / (31 * 255)
            let got = led.rgb16
            for (a, b) in [(got.r, want.r), (got.g, want.g), (got.b, want.b)] {
                #expect(abs(Double(a) - Double(b)) <= step, "\(a) vs \(b) at level \(led.brightness)")
            }
        }
    }

    @Test func aSlowLowFadeGetsFarMoreDistinctLevelsThan8Bit() throws {
        var renderer = Renderer(layout: try ring(1, colour: RGB8(r: 255, g: 255, b: 255)), limiter: .unlimited(),
                                dithering: .off)
        renderer.wideFrame = true
        let encoder = try APA102Encoder(variant: .sk9822)
        var eightBit = Set<UInt8>(), hdr = Set<UInt16>()
        var bytes: [UInt8] = []
        // A fade from dark to 3 % light over 300 frames.
        for k in 0...300 {
            renderer.pipeline.brightness = 0.03 * Float(k) / 300
            renderer.render([.progress(1)], animating: true)
            eightBit.insert(renderer.frame[0].r)
            try encoder.encodeHDR(renderer.frame16, into: &bytes)
            hdr.insert(try encoder.decode(bytes, ledCount: 1)[0].rgb16.r)
        }
        #expect(eightBit.count <= 9)
        #expect(hdr.count > 4 * eightBit.count)
    }
}
