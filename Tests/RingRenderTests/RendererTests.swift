import Foundation
import LEDRingTestSupport
import Testing
import RingModel
@testable import RingRender

@Suite struct RendererTests {
    // 10. Several rings share one chain
    @Test func activityRingsAreConsecutiveSegments() throws {
        let layout = try RingLayout(rings: Palette.activityRings())
        #expect(layout.rings.map(\.name) == ["move", "exercise", "stand"])
        #expect(layout.offsets == [0, 24, 40])
        #expect(layout.ledCount == 52)
    }

    @Test func eachRingLandsOnItsOwnSegment() throws {
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()))
        renderer.render([.progress(0), .progress(1), .progress(0)])
        let exercise = renderer.frame[24..<40]
        let others = renderer.frame[0..<24] + renderer.frame[40..<52]
        // Only the exercise ring is lit: its LEDs are brighter than any LED of the empty rings.
        let dimmestLit = exercise.map { Int($0.r) + Int($0.g) + Int($0.b) }.min() ?? 0
        let brightestTrack = others.map { Int($0.r) + Int($0.g) + Int($0.b) }.max() ?? 0
        #expect(dimmestLit > 10 * brightestTrack)
    }

    @Test(arguments: [(0, Direction.clockwise), (5, .clockwise), (3, .counterClockwise), (0, .counterClockwise)])
    func startLEDAndDirectionMapPositionsToTheChain(start: Int, direction: Direction) throws {
        let n = 8
        let appearance = plain(track: .off)
        let spec = RingSpec(name: "r", segments: [Segment(ledCount: n, startLED: start, direction: direction)],
                            appearance: appearance)
        var renderer = Renderer(layout: try RingLayout(rings: [spec]))
        renderer.render([.progress(3.0 / Double(n))])   // positions 0, 1, 2 lit
        let step = direction == .clockwise ? 1 : -1
        let litChain = Set((0..<3).map { ((start + step * $0) % n + n) % n })
        for i in 0..<n { #expect((renderer.frame[i] != .black) == litChain.contains(i), "chain LED \(i)") }
        // 12 o'clock (the start LED) shows the start colour: pure red.
        #expect(renderer.frame[start].b == 0 && renderer.frame[start].r > 200)
    }

    @Test(arguments: [0, 1025])
    func layoutRejectsLEDCountsOutsideTheRange(count: Int) {
        let spec = RingSpec(name: "r", segments: [Segment(ledCount: count)], appearance: plain())
        #expect(throws: RingLayout.Problem.ledCountOutOfRange(ring: "r", segment: 0, count: count)) {
            try RingLayout(rings: [spec])
        }
    }

    @Test func layoutRejectsDuplicateAndBadNames() {
        let a = RingSpec(name: "a", segments: [Segment(ledCount: 4)], appearance: plain())
        #expect(throws: RingLayout.Problem.duplicateName("a")) { try RingLayout(rings: [a, a]) }
        var bad = a
        bad.name = "has space"
        #expect(throws: RingLayout.Problem.badName(index: 0, name: "has space")) { try RingLayout(rings: [bad]) }
        #expect(throws: RingLayout.Problem.empty) { try RingLayout(rings: []) }
    }

    // 11. Transitions
    @Test(arguments: Curve.allCases)
    func curvesStartAtZeroAndEndAtOne(curve: Curve) {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        #expect(curve.value(at: 2) == 1)
        #expect(curve.value(at: -1) == 0)
    }

    @Test func easingShapes() {
        #expect(Curve.easeIn.value(at: 0.25) < 0.25)
        #expect(Curve.easeOut.value(at: 0.25) > 0.25)
        #expect(abs(Curve.easeInOut.value(at: 0.5) - 0.5) < 1e-12)
        #expect(Curve.easeInOut.value(at: 0.25) < 0.25 && Curve.easeInOut.value(at: 0.75) > 0.75)
        // The spring overshoots its target on the way.
        let peak = stride(from: 0.0, through: 1, by: 0.01).map(Curve.spring.value(at:)).max() ?? 0
        #expect(peak > 1.02)
    }

    @Test func transitionAnimatesFromTheShownValue() {
        var state = RingState(value: 0.2)
        state.set(1.0, at: 10, duration: 2, curve: .linear)
        #expect(state.shown(at: 10) == 0.2)
        #expect(abs(state.shown(at: 11) - 0.6) < 1e-12)
        #expect(state.shown(at: 12) == 1.0)
        #expect(state.isAnimating(at: 11.9) && !state.isAnimating(at: 12))
        // A new value mid-way starts from what is shown, so the ring never jumps.
        state.set(0, at: 11, duration: 1, curve: .linear)
        #expect(abs(state.shown(at: 11) - 0.6) < 1e-12)
        #expect(abs(state.shown(at: 11.5) - 0.3) < 1e-12)
    }

    @Test func resetAllAnimatesEveryRingBackToZero() throws {
        var states = [RingState(value: 0.8), RingState(value: 1.3), RingState(value: 0.4)]
        for i in states.indices { states[i].set(0, at: 5, duration: 1, curve: .easeInOut) }
        #expect(states.map { $0.shown(at: 5) } == [0.8, 1.3, 0.4])
        #expect(states.allSatisfy { $0.shown(at: 5.5) > 0 && $0.shown(at: 6) == 0 })
    }

    @Test func spinnerStateDrivesTheSpinnerValue() throws {
        let renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()))
        var states = [RingState(value: 0.5), RingState(), RingState()]
        states[0].spin(at: 2)
        let values = renderer.layout.values(of: states, at: 2.5)
        #expect(values[0] == .spinner(tail: 0.5))
        #expect(values[1] == .progress(0))
        states[0].stopSpinning()
        #expect(renderer.layout.values(of: states, at: 3)[0] == .progress(0.5))
    }

    // 12. Colour output
    @Test func brightnessScalesLightLinearly() {
        let full = ColorPipeline(), half = ColorPipeline(brightness: 0.5)
        let c = LinearRGB(r: 0.8, g: 0.4, b: 0.2)
        #expect(close(half.drive(c), full.drive(c).scaled(by: 0.5)))
    }

    @Test func referenceGammaIsTheIdentityAndHigherGammaDarkensMidTones() {
        let c = LinearRGB(r: 0.5, g: 0.25, b: 1)
        #expect(ColorPipeline().drive(c) == c)
        let wled = ColorPipeline(gamma: 2.8).drive(c)
        #expect(abs(wled.r - powf(0.5, 2.8 / 2.2)) < 1e-5)
        #expect(wled.r < c.r && wled.b == 1)
    }

    @Test func perChannelGamma() {
        var pipeline = ColorPipeline()
        pipeline.gamma = ColorPipeline.Gamma(r: 2.2, g: 4.4, b: 2.2)
        let out = pipeline.drive(LinearRGB(r: 0.5, g: 0.5, b: 0.5))
        #expect(out.r == 0.5 && abs(out.g - 0.25) < 1e-6)
    }

    @Test func aLitLEDNeverRoundsToBlack() {
        #expect(ColorPipeline.quantise(LinearRGB(r: 0.001, g: 0.0005, b: 0)) == RGB8(r: 1, g: 0, b: 0))
        #expect(ColorPipeline.quantise(LinearRGB(r: 0, g: 0, b: 0.0001)) == RGB8(r: 0, g: 0, b: 1))
        #expect(ColorPipeline.quantise(.black) == .black)
        #expect(ColorPipeline.quantise(LinearRGB(r: 0.5, g: 1.7, b: -3)) == RGB8(r: 128, g: 255, b: 0))
        // A track at 1 % brightness still glows.
        let dim = ColorPipeline(brightness: 0.01).drive(LinearRGB(r: 0.01, g: 0.002, b: 0.004))
        #expect(ColorPipeline.quantise(dim) != .black)
    }

    @Test func nanNeverLightsAnLED() {
        #expect(ColorPipeline.quantise(LinearRGB(r: .nan, g: .infinity, b: -.infinity)) == RGB8(r: 0, g: 255, b: 0))
        #expect(circle(.nan, n: 4) == circle(0, n: 4))
        #expect(circle(.infinity, n: 4) == circle(0, n: 4))
    }

    // Golden frames of the demo rings.
    @Test(arguments: [0.0, 0.5, 1.0, 1.3])
    func demoRingsMatchTheirGoldenFrame(p: Double) throws {
        // The golden frames record the look, so no power budget: the default 500 mA limit would
        // dim the full rings, and that is tested on its own in CurrentLimiterTests.
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()), limiter: .unlimited())
        renderer.render([.progress(p), .progress(p), .progress(p)])
        var text = "# demo rings at \(p): drive levels in chain order, one ring per line\n"
        for (i, ring) in renderer.layout.rings.enumerated() {
            let range = renderer.layout.offsets[i]..<(renderer.layout.offsets[i] + ring.ledCount)
            text += ring.name + ":" + range.map { " " + renderer.frame[$0].hex }.joined() + "\n"
        }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/demo-\(p).txt").path
        let outcome = GoldenFile.check(text, against: path)
        #expect(outcome == .matches)
    }
}
