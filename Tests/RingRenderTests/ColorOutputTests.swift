import LEDRingTestSupport
import Testing
import RingModel
@testable import RingRender

@Suite("Gamma, correction and presets")
struct ColorCorrectionTests {
    @Test func fastLEDPresetsAreTheirBytesOver255() throws {
        #expect(ColorCorrection.typicalLEDStrip.factors == LinearRGB(r: 1, g: 176.0 / 255, b: 240.0 / 255))
        #expect(ColorCorrection.typicalSMD5050.factors == ColorCorrection.typicalLEDStrip.factors)
        #expect(ColorCorrection.typical8mmPixel.factors == LinearRGB(r: 1, g: 224.0 / 255, b: 140.0 / 255))
        #expect(ColorCorrection.typicalPixelString.factors == ColorCorrection.typical8mmPixel.factors)
        #expect(ColorCorrection.uncorrected.factors == .white)
        #expect(ColorCorrection.candle.factors == LinearRGB(r: 1, g: 147.0 / 255, b: 41.0 / 255))
    }

    @Test(arguments: ["TypicalLEDStrip", "typical-led-strip", "TYPICAL_LED_STRIP", "typical led strip"])
    func presetsAreFoundByName(_ name: String) {
        #expect(ColorCorrection(named: name) == .typicalLEDStrip)
    }

    @Test func unknownNamesAndTemperatures() {
        #expect(ColorCorrection(named: "neon") == nil)
        #expect(ColorCorrection(named: "Tungsten100W") == .tungsten100W)
        let both = ColorCorrection.typicalLEDStrip.combined(with: .halogen)
        #expect(abs(both.factors.g - 176.0 / 255 * 241.0 / 255) < 1e-7)
    }

    /// Hand-computed: brightness 0.5, gamma 2.8, TypicalLEDStrip on (0.5, 0.5, 0.25):
    /// r = 0.5^(2.8/2.2) · 0.5 = 0.206938, g = r · 176/255 = 0.142828,
    /// b = 0.25^(2.8/2.2) · 240/255 · 0.5 = 0.080609; 8-bit 53, 36, 21.
    @Test func gammaCorrectionAndBrightnessAgainstHandValues() {
        let pipeline = ColorPipeline(brightness: 0.5, gamma: .init(2.8), correction: .typicalLEDStrip)
        let out = pipeline.drive(LinearRGB(r: 0.5, g: 0.5, b: 0.25))
        #expect(close(out, LinearRGB(r: 0.206938, g: 0.142828, b: 0.080609), 1e-5))
        #expect(ColorPipeline.quantise(out) == RGB8(r: 53, g: 36, b: 21))
    }

    /// Hand-computed per-channel gamma (2.2, 2.8, 2.2) with Typical8mmPixel on (0.2, 0.6, 1):
    /// (0.2, 0.6^(2.8/2.2) · 224/255, 140/255) = (0.2, 0.458516, 0.549020).
    @Test func perChannelGammaWithCorrection() {
        let pipeline = ColorPipeline(gamma: .init(r: 2.2, g: 2.8, b: 2.2), correction: .typical8mmPixel)
        #expect(close(pipeline.drive(LinearRGB(r: 0.2, g: 0.6, b: 1)), LinearRGB(r: 0.2, g: 0.458516, b: 0.549020), 1e-5))
    }

    /// Issue 25: a dim LED keeps its hue as far as whole levels allow. Rounded to nearest, the
    /// default exercise track at 500 mA was olive (1, 1, 0), a dim white turned red (1, 0, 0) and
    /// the stand track (0, 1, 1) lost its blue lead.
    @Test func dimColoursKeepTheirHue() {
        func level(_ r: Float, _ g: Float, _ b: Float) -> RGB8 { ColorPipeline.quantise(LinearRGB(r: r / 255, g: g / 255, b: b / 255)) }
        #expect(level(0.47, 1.2, 0) == RGB8(r: 1, g: 2, b: 0), "the exercise track stays green")
        #expect(level(0, 1.4, 2.0) == RGB8(r: 0, g: 1, b: 2), "the stand track stays blue-cyan")
        #expect(level(0.3, 0.3, 0.3) == RGB8(r: 1, g: 1, b: 1), "a dim white stays white")
        #expect(level(0.2, 0, 0) == RGB8(r: 1, g: 0, b: 0), "a lit LED stays lit")
        #expect(level(0, 0, 0) == .black)
        #expect(level(200.4, 3.4, 0.6) == RGB8(r: 200, g: 3, b: 1), "bright LEDs round to nearest")
    }

    /// The rules the current limiter and a fade rely on, for every colour of the palettes and the
    /// tracks, from just below `hueKeepingLevel` (16; above it each channel rounds to nearest, and
    /// at the crossing one channel may step up once, as orange's green does from 3 to 4, where
    /// (16, 4, 0) is nearer than (16, 3, 0) to (16, 3.45, 0.23) in both hue and light) down to
    /// nothing in steps of 1/100: no channel above its exact level
    /// by a whole step or more, a dark channel dark, the brightest channel still the brightest,
    /// and the LED's light (the sum of its levels) never going up as the colour fades down.
    @Test func dimQuantisingNeverFlickersAFadeOrExceedsTheLevel() {
        let colours = [Palette.move, Palette.exercise, Palette.stand].flatMap { [$0.startColor, $0.endColor] }
            + [Palette.move, Palette.exercise, Palette.stand].map { RingAppearance(gradient: $0).trackColor }
            + [SRGB.linear(RGB8(r: 255, g: 255, b: 255)), SRGB.linear(RGB8(r: 255, g: 128, b: 32))]
        for colour in colours {
            let top = colour.maxChannel
            var last = Int.max
            for i in stride(from: 1599, through: 1, by: -1) {
                let x = colour.scaled(by: Float(i) / 100 / 255 / top)
                let q = ColorPipeline.quantise(x)
                let exact = [x.r, x.g, x.b].map { $0 * 255 }, got = [q.r, q.g, q.b].map(Float.init)
                for k in 0..<3 {
                    #expect(got[k] < exact[k] + 1, "\(colour) at \(i): channel \(k) \(got[k]) for \(exact[k])")
                    if exact[k] == 0 { #expect(got[k] == 0) }
                }
                #expect(got[exact.firstIndex(of: exact.max()!)!] == got.max(), "\(colour) at \(i): \(q)")
                let light = Int(q.r) + Int(q.g) + Int(q.b)
                #expect(light <= last, "\(colour) brightened from \(last) to \(light) fading down at \(i)")
                last = light
            }
        }
    }

    @Test func sixteenBitLevelsRound() {
        #expect(ColorPipeline.quantise16(LinearRGB(r: 1, g: 0.5, b: 0)) == RGB16(r: 65535, g: 32768, b: 0))
        #expect(ColorPipeline.quantise16(LinearRGB(r: .nan, g: 2, b: -1)) == RGB16(r: 0, g: 65535, b: 0))
    }
}

@Suite("Temporal dithering")
struct TemporalDitherTests {
    /// Runs `frames` dithered frames of constant `targets`; returns the mean 8-bit level per channel.
    func meanLevels(_ targets: [LinearRGB], frames: Int) -> [(Double, Double, Double)] {
        var dither = TemporalDither(count: targets.count)
        var out = [RGB8](repeating: .black, count: targets.count)
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: targets.count)
        for _ in 0..<frames {
            targets.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { dither.quantise(input, into: $0, dithered: true) }
            }
            dither.commit()
            for i in out.indices {
                sums[i].0 += Double(out[i].r)
                sums[i].1 += Double(out[i].g)
                sums[i].2 += Double(out[i].b)
            }
        }
        return sums.map { ($0.0 / Double(frames), $0.1 / Double(frames), $0.2 / Double(frames)) }
    }

    @Test(arguments: [1, 4, 16, 64])
    func meanOverFramesEqualsTheExactTargetWithinOneStep(frames: Int) {
        var random = SeededGenerator(seed: UInt64(frames))
        let targets = (0..<500).map { _ in random.drive() }
        let means = meanLevels(targets, frames: frames)
        for (target, mean) in zip(targets, means) {
            #expect(abs(mean.0 - Double(target.r) * 255) < 1, "r \(target) → \(mean)")
            #expect(abs(mean.1 - Double(target.g) * 255) < 1, "g \(target) → \(mean)")
            #expect(abs(mean.2 - Double(target.b) * 255) < 1, "b \(target) → \(mean)")
        }
    }

    @Test func longRunsAreFarMoreExactThanRounding() {
        // 40.3 steps rounds to 40 every frame; dithered, 100 frames average 40.3 within 1/100 step.
        let mean = meanLevels([LinearRGB(r: 40.3 / 255, g: 0, b: 0)], frames: 100)[0]
        #expect(abs(mean.0 - 40.3) <= 0.01 + 1e-6)
        #expect(mean.1 == 0 && mean.2 == 0)
    }

    @Test func aLitLEDBelowOneStepHoldsSteadyAtLevelOne() {
        var dither = TemporalDither(count: 1)
        var out = [RGB8.black]
        let dim = [LinearRGB(r: 0.2 / 255, g: 0, b: 0)]
        for _ in 0..<10 {
            dim.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { dither.quantise(input, into: $0, dithered: true) } }
            dither.commit()
            #expect(out[0] == RGB8(r: 1, g: 0, b: 0))
        }
    }

    @Test func undithered() {
        var dither = TemporalDither(count: 2)
        var out = [RGB8](repeating: .black, count: 2)
        let targets = [LinearRGB(r: 40.3 / 255, g: 0.5, b: 0.0001), .black]
        targets.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { dither.quantise(input, into: $0, dithered: false) } }
        dither.commit()
        #expect(out == targets.map(ColorPipeline.quantise))
        #expect(!dither.needsRefresh && dither.error.allSatisfy { $0 == .black })
    }

    @Test func refreshIsNeededOnlyWhileLevelsSitBetweenSteps() {
        var dither = TemporalDither(count: 1)
        var out = [RGB8.black]
        func run(_ x: LinearRGB, dithered: Bool) {
            [x].withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { dither.quantise(input, into: $0, dithered: dithered) } }
            dither.commit()
        }
        run(LinearRGB(r: 40.5 / 255, g: 0, b: 0), dithered: true)
        #expect(dither.needsRefresh)
        run(LinearRGB(r: 40.0 / 255, g: 1, b: 0), dithered: true)
        #expect(!dither.needsRefresh)
        run(LinearRGB(r: 40.5 / 255, g: 0, b: 0), dithered: false)
        #expect(!dither.needsRefresh)
    }

    @Test func autoDithersChangingLEDsAndAStillFrameNeverShimmers() throws {
        var renderer = Renderer(layout: try singleRing(12), pipeline: ColorPipeline(brightness: 0.5),
                                limiter: .unlimited())
        // A slow fade at bright levels: dithered, so some frame rounds away from plain rounding.
        var differs = false
        for k in 0..<8 {
            renderer.render([.progress(0.6 + Double(k) * 0.0003)], animating: true)
            differs = differs || renderer.frame != renderer.drive.map(ColorPipeline.quantise)
        }
        #expect(differs)
        #expect(renderer.needsRefresh)
        // The same value again, even while "animating": plain rounding, identical frame after frame.
        renderer.render([.progress(0.6)], animating: true)
        renderer.render([.progress(0.6)], animating: true)
        let still = renderer.frame
        #expect(still == renderer.drive.map(ColorPipeline.quantise))
        #expect(!renderer.needsRefresh)
        for _ in 0..<5 {
            renderer.render([.progress(0.6)], animating: false)
            #expect(renderer.frame == still)
        }
    }

    @Test func stillRingsSendTheSameBytesWhileAnotherRingAnimates() throws {
        // Issue 13: move animates; exercise and stand stand still, their tracks at levels 1–3
        // must not shimmer (#020000/#030000 at 30 fps was a 50 % flicker).
        let layout = try RingLayout(rings: Palette.activityRings())
        for fps in [30.0, 60, 120] {
            var renderer = Renderer(layout: layout, limiter: .unlimited())
            renderer.framesPerSecond = fps
            var move = RingState(value: 0)
            move.set(1.3, at: 0, duration: 2, curve: .easeInOut)
            let states = [move, RingState(value: 0.75), RingState(value: 0.45)]
            let still = layout.offsets[1]..<layout.ledCount
            var first: [RGB8]?
            var moveChanged = false
            var lastMove: [RGB8] = []
            for k in 0..<Int(2 * fps) {
                renderer.render(states: states, at: Double(k) / fps)
                let now = Array(renderer.frame[still])
                if let first { #expect(now == first, "fps \(fps) frame \(k): a still ring changed") } else { first = now }
                let m = Array(renderer.frame[0..<layout.offsets[1]])
                moveChanged = moveChanged || (!lastMove.isEmpty && m != lastMove)
                lastMove = m
            }
            #expect(moveChanged)
        }
    }

    @Test(arguments: [30.0, 60.0])
    func aSlowFadeAtLowLevelsNeverFlickers(fps: Double) throws {
        // From level 2 to 9 over four seconds: below the dither level, each channel only ever
        // steps one way (a dithered 2↔3 would be a 50 % flicker at fps/2).
        var renderer = Renderer(layout: try singleRing(1, plain(track: .off)), limiter: .unlimited())
        renderer.framesPerSecond = fps
        var last = 0
        let frames = Int(4 * fps)
        for k in 0...frames {
            let level = 2 + 7 * Double(k) / Double(frames)
            var pipeline = ColorPipeline()
            pipeline.brightness = Float(level / 255)
            renderer.pipeline = pipeline
            renderer.render([.progress(1)], animating: true)
            let blue = Int(renderer.frame[0].b)
            #expect(blue >= last, "frame \(k): level went back from \(last) to \(blue)")
            last = blue
        }
        #expect(last == 9)
    }

    @Test func ditherLevelFollowsTheFrameRate() {
        #expect(TemporalDither.minimumLevel(fps: 30) == 32)
        #expect(TemporalDither.minimumLevel(fps: 60) == 16)
        #expect(TemporalDither.minimumLevel(fps: 120) == 8)
        #expect(TemporalDither.minimumLevel(fps: 2000) == 1)
        #expect(TemporalDither.minimumLevel(fps: 0) == 255)
    }

    @Test func modesOnAndOff() throws {
        var on = Renderer(layout: try singleRing(12), pipeline: ColorPipeline(brightness: 0.03),
                          limiter: .unlimited(), dithering: .on)
        var off = on
        off.dithering = .off
        var onFrames = Set<[RGB8]>(), offFrames = Set<[RGB8]>()
        for _ in 0..<8 {
            on.render([.progress(0.6)])
            off.render([.progress(0.6)], animating: true)
            onFrames.insert(on.frame)
            offFrames.insert(off.frame)
        }
        #expect(onFrames.count > 1 && on.needsRefresh)
        #expect(offFrames.count == 1 && !off.needsRefresh)
    }

    @Test func statesSayWhetherAFrameIsAnimating() throws {
        var renderer = Renderer(layout: try singleRing(12), pipeline: ColorPipeline(brightness: 0.5),
                                limiter: .unlimited())
        var state = RingState(value: 0)
        state.set(0.6, at: 0, duration: 10, curve: .linear)
        renderer.render(states: [state], at: 5)
        #expect(renderer.needsRefresh)
        renderer.render(states: [state], at: 10)
        #expect(!renderer.needsRefresh)
    }
}
