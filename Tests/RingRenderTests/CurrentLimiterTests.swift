import LEDRingTestSupport
import Testing
import RingModel
@testable import RingRender

@Suite("Power model and current limiter")
struct CurrentLimiterTests {
    struct Outcome {
        var frame: [RGB8]
        var drive: [LinearRGB]
        var report: PowerReport
    }

    func limit(_ drive: [LinearRGB], _ limiter: CurrentLimiter, dithered: Bool = false,
               dither: inout TemporalDither) -> Outcome {
        var levels = drive
        var frame = [RGB8](repeating: .black, count: drive.count)
        let report = levels.withUnsafeMutableBufferPointer { input in
            frame.withUnsafeMutableBufferPointer { limiter.apply(to: input, dither: &dither, dithered: dithered, into: $0) }
        }
        return Outcome(frame: frame, drive: levels, report: report)
    }

    func limit(_ drive: [LinearRGB], _ limiter: CurrentLimiter, dithered: Bool = false) -> Outcome {
        var dither = TemporalDither(count: drive.count)
        return limit(drive, limiter, dithered: dithered, dither: &dither)
    }

    @Test func estimateAgainstHandValues() {
        // WS2812B (16, 11, 15 mA, 1 mA idle): full white 43 mA; (255, 0, 51) 1 + 16 + 3 = 20 mA.
        let limiter = CurrentLimiter(model: .ws2812b)
        #expect(limiter.estimate([RGB8(r: 255, g: 255, b: 255)]) == 43)
        #expect(abs(limiter.estimate([RGB8(r: 255, g: 0, b: 51), .black]) - 21) < 1e-9)
        #expect(PowerModel(chip: "SK6812-RGBW") == .sk6812RGBW)
        #expect(PowerModel(chip: "WS2812B") == .ws2812b && PowerModel(chip: "ws2815") == nil)
    }

    @Test(arguments: [false, true])
    func randomFramesNeverExceedTheirBudget(dithered: Bool) {
        var random = SeededGenerator(seed: dithered ? 7 : 3)
        for round in 0..<300 {
            let count = Int.random(in: 1...120, using: &random)
            let drive = (0..<count).map { _ in random.drive() }
            let model = [PowerModel.ws2812b, .sk6812, .apa102, .sk6812RGBW][round % 4]
            let budget = Double.random(in: 0...(60 * Double(count)), using: &random)
            let limiter = CurrentLimiter(model: model, maxMilliamps: budget)
            var dither = TemporalDither(count: count)
            // A few frames in a row, so dithered frames carry real error.
            for _ in 0..<3 {
                let out = limit(drive, limiter, dithered: dithered, dither: &dither)
                let estimate = limiter.estimate(out.frame)
                #expect(abs(estimate - out.report.milliamps) < 1e-9)
                if model.idle * Double(count) <= budget {
                    #expect(estimate <= budget, "round \(round): \(estimate) mA over \(budget) mA")
                    #expect(out.report.withinBudget)
                } else {
                    #expect(out.report.scale == 0 && !out.report.withinBudget)
                    #expect(out.frame.allSatisfy { $0 == .black })
                }
            }
        }
    }

    @Test func aFrameAlreadyUnderBudgetIsUnchanged() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let drive = (0..<Int.random(in: 1...60, using: &random)).map { _ in random.drive() }
            let plain = drive.map(ColorPipeline.quantise)
            let needed = CurrentLimiter(model: .ws2812b).estimate(plain)
            let budget = needed + Double.random(in: 0...100, using: &random)
            let out = limit(drive, CurrentLimiter(model: .ws2812b, maxMilliamps: budget))
            #expect(out.frame == plain)
            #expect(out.drive == drive)
            #expect(out.report.scale == 1 && !out.report.limited)
            #expect(out.report.milliamps == needed)
        }
    }

    @Test func oneUniformScaleKeepsTheHue() {
        let drive = [LinearRGB(r: 1, g: 0.5, b: 0.25), LinearRGB(r: 0.2, g: 0.8, b: 0.4), .white]
        let out = limit(drive, CurrentLimiter(model: .ws2812b, maxMilliamps: 40))
        let s = out.report.scale
        #expect(s > 0 && s < 1)
        for (before, after) in zip(drive, out.drive) { #expect(close(after, before.scaled(by: s), 1e-6)) }
        #expect(out.report.milliamps <= 40)
        #expect(out.report.idleMilliamps == 3)
    }

    @Test func idleAloneOverBudgetGoesDarkAndSaysSo() {
        let out = limit([.white, .white, .white], CurrentLimiter(model: .ws2812b, maxMilliamps: 2.5))
        #expect(out.report.scale == 0 && !out.report.withinBudget)
        #expect(out.frame == [.black, .black, .black])
        #expect(out.report.milliamps == 3)
    }

    /// Said at start: known from the LED count alone, and true exactly when a white frame goes
    /// black, for the total budget and for each output's.
    @Test func whetherIdleAloneTakesTheBudgetIsKnownBeforeTheFirstFrame() {
        let cases: [(CurrentLimiter, Int, (Double, Double)?)] = [
            (CurrentLimiter(model: .ws2812b, maxMilliamps: 50), 52, (52, 50)),
            (CurrentLimiter(model: .ws2812b, maxMilliamps: 52), 52, (52, 52)),
            (CurrentLimiter(model: .ws2812b, maxMilliamps: 200), 52, nil),
            (CurrentLimiter(model: .ws2812b, maxMilliamps: .nan), 1, (1, 0)),
            (CurrentLimiter(model: .ws2812b, maxMilliamps: 10_000,
                            outputs: [.init(leds: 0..<10, maxMilliamps: 100), .init(leds: 10..<20, maxMilliamps: 8)]), 20, (10, 8)),
            (CurrentLimiter(model: .ws2812b, maxMilliamps: 10_000,
                            outputs: [.init(leds: 0..<10, maxMilliamps: 100), .init(leds: 10..<40, maxMilliamps: 40)]), 20, nil),
        ]
        for (limiter, count, expected) in cases {
            let said = limiter.idleOverBudget(ledCount: count)
            #expect(said?.idle == expected?.0 && said?.budget == expected?.1, "\(limiter.maxMilliamps) mA, \(count) LEDs")
            let dark = limit([LinearRGB](repeating: .white, count: count), limiter).frame.allSatisfy { $0 == .black }
            #expect(dark == (said != nil), "the warning must say exactly when frames go dark: \(count) LEDs")
        }
    }

    @Test func eachOutputKeepsItsOwnBudget() {
        let drive = [LinearRGB](repeating: .white, count: 20)
        let limiter = CurrentLimiter(model: .ws2812b, maxMilliamps: 10_000,
                                     outputs: [.init(leds: 0..<10, maxMilliamps: 100), .init(leds: 10..<20, maxMilliamps: 300)])
        let out = limit(drive, limiter)
        out.frame.withUnsafeBufferPointer { frame in
            #expect(limiter.estimate(frame, leds: 0..<10) <= 100)
            #expect(limiter.estimate(frame, leds: 10..<20) <= 300)
        }
        // One uniform scale: the tighter output decides, the other output is dimmed alike.
        #expect(out.frame[0] == out.frame[19])
        #expect(limiter.estimate(out.frame) <= 200 + 1e-9)
    }

    @Test func nanOrNegativeBudgetsAreDarkNotBright() {
        #expect(limit([.white], CurrentLimiter(maxMilliamps: .nan)).frame == [.black])
        #expect(limit([.white], CurrentLimiter(maxMilliamps: -5)).frame == [.black])
        #expect(limit([.white], .unlimited()).frame == [RGB8(r: 255, g: 255, b: 255)])
    }

    @Test func theDefaultKeepsTheDemoOnAPiPin() throws {
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()))
        #expect(renderer.limiter.maxMilliamps == CurrentLimiter.piFivePinMilliamps)
        renderer.render([.progress(1.3), .progress(1.3), .progress(1.3)])
        #expect(renderer.milliamps <= 500 && renderer.scale < 1)
        var unlimited = Renderer(layout: try RingLayout(rings: Palette.activityRings()), limiter: .unlimited())
        unlimited.render([.progress(1.3), .progress(1.3), .progress(1.3)])
        #expect(unlimited.milliamps > 500 && unlimited.scale == 1)
        // The limited frame is the unlimited one dimmed uniformly.
        for (a, b) in zip(renderer.drive, unlimited.drive) { #expect(close(a, b.scaled(by: renderer.scale), 1e-6)) }
    }

    @Test func sixteenBitFrameIsOnlyFilledWhenAskedFor() throws {
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()))
        renderer.render([.progress(1), .progress(0.5), .progress(0.2)])
        #expect(renderer.frame16.allSatisfy { $0 == .black })
    }

    @Test func sixteenBitFrameFollowsTheLimitedDriveLevels() throws {
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()))
        renderer.wideFrame = true
        renderer.render([.progress(1), .progress(0.5), .progress(0.2)])
        #expect(renderer.frame16 == renderer.drive.map(ColorPipeline.quantise16))
        for (wide, narrow) in zip(renderer.frame16, renderer.frame) {
            #expect(abs(Int(wide.r) / 257 - Int(narrow.r)) <= 1)
        }
    }

    @Test func renderBuffersAreReusedFrameAfterFrame() throws {
        var renderer = Renderer(layout: try RingLayout(rings: Palette.activityRings()), dithering: .on)
        func addresses(_ r: Renderer) -> [UnsafeRawPointer?] {
            [r.light.withUnsafeBytes { $0.baseAddress }, r.drive.withUnsafeBytes { $0.baseAddress },
             r.frame.withUnsafeBytes { $0.baseAddress }, r.frame16.withUnsafeBytes { $0.baseAddress }]
        }
        renderer.render([.progress(0.3)], animating: true)
        let first = addresses(renderer)
        for k in 0..<50 {
            renderer.render([.progress(Double(k) / 20), .spinner(tail: Double(k) / 7), .progress(1.3)], animating: true)
            #expect(addresses(renderer) == first)
        }
    }
}
