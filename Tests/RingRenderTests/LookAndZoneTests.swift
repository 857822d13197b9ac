import Testing
import RingModel
@testable import RingRender

/// Looks, effects and colour zones in the renderer: pure, with explicit times.
@Suite struct LookAndZoneTests {
    static let red = RGB8(r: 255, g: 32, b: 32)
    static let green = RGB8(r: 32, g: 255, b: 96)
    static let orange = RGB8(r: 255, g: 160, b: 32)

    /// One 12-LED ring, full, drawn in `gradient` with the given zones and looks.
    static func layout(zones: [ColorZone] = [], looks: [Look] = []) throws -> RingLayout {
        var appearance = RingAppearance(gradient: Gradient(solid: RGB8(r: 0, g: 0, b: 255)), track: .off, highlight: 0, shadow: 0)
        appearance.zones = zones
        var layout = try RingLayout(rings: [RingSpec(name: "r", segments: [Segment(ledCount: 12)], appearance: appearance)])
        layout.looks = looks
        return layout
    }

    /// Total light of LED 0 (the first, fully lit) in linear light.
    static func light(_ renderer: Renderer) -> Float {
        let c = renderer.light[0]
        return c.r + c.g + c.b
    }

    @Test func aPulseBreathesOncePerPeriod() throws {
        let period = 2.0
        var renderer = Renderer(layout: try Self.layout(looks: [Look(name: "busy", effect: .pulse(period: period))]))
        func level(at t: Double) -> Float {
            renderer.render([.progress(1)], paints: [RingPaint(look: 0, since: 10)], at: t, animating: true)
            return Self.light(renderer)
        }
        let peak = level(at: 10)
        let trough = level(at: 11)
        #expect(peak > 0)
        #expect(abs(trough / peak - Effect.pulseFloor) < 0.001, "at half a period the pulse is at its floor")
        #expect(abs(level(at: 12) - peak) < 1e-5, "one period later it is back at the peak")
        #expect(abs(level(at: 10.5) / peak - (Effect.pulseFloor + (1 - Effect.pulseFloor) * 0.5)) < 0.001)
        #expect(abs(level(at: 13) - trough) < 1e-5)
        // The hue stays: every channel is scaled alike (in linear light).
        renderer.render([.progress(1)], paints: [RingPaint(look: 0, since: 10)], at: 10, animating: true)
        let bright = renderer.light[3]
        renderer.render([.progress(1)], paints: [RingPaint(look: 0, since: 10)], at: 11, animating: true)
        let dim = renderer.light[3]
        #expect(abs(dim.b / bright.b - Effect.pulseFloor) < 0.001 && abs(dim.r - bright.r * Effect.pulseFloor) < 1e-5)
    }

    @Test func blinkAndFlashEndWhereTheySay() {
        let blink = Effect.blink(period: 1)
        #expect(blink.level(at: 0.2) == 1 && blink.level(at: 0.7) == 0 && blink.level(at: 1.2) == 1)
        let flash = Effect.flash(count: 2, period: 0.5)
        #expect(flash.level(at: 0.3) == 0 && flash.level(at: 0.8) == 0 && flash.level(at: 1.1) == 1)
        #expect(flash.isAnimating(at: 0.9) && !flash.isAnimating(at: 1.0))
        #expect(!Effect.none.isAnimating(at: 0) && Effect.pulse(period: 2).isAnimating(at: 1e6))
    }

    @Test func aLookWithAGradientRecoloursAndNoLookIsThePlainPicture() throws {
        var renderer = Renderer(layout: try Self.layout(looks: [Look(name: "failed", gradient: Gradient(solid: Self.red))]))
        renderer.render([.progress(1)], paints: [RingPaint(look: 0)], at: 0, animating: false)
        let failed = renderer.frame[0]
        renderer.render([.progress(1)], paints: [.plain], at: 0, animating: false)
        let plain = renderer.frame[0]
        #expect(failed.r > 200 && failed.b < 60)
        #expect(plain.b > 200 && plain.r == 0)
    }

    /// A look is a status: on a ring at 0 % (or 30 %) every LED shows its colour, not the track.
    /// `"fill": "value"` keeps the old tint of the value's fill; a paint that shows a value (a
    /// notification with one) draws it; a spinner stays a spinner.
    @Test func aStatusLookLightsTheWholeRingWhateverTheValue() throws {
        let looks = [Look(name: "failed", gradient: Gradient(solid: Self.red)),
                     Look(name: "tint", gradient: Gradient(solid: Self.red), fill: .value)]
        var renderer = Renderer(layout: try Self.layout(looks: looks))
        let red = SRGB.linear(Self.red)
        func near(_ a: LinearRGB, _ b: LinearRGB) -> Bool { abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) < 0.01 }
        for p in [0.0, 0.3, 1.0, 1.6] {
            renderer.render([.progress(p)], paints: [RingPaint(look: 0)], at: 0, animating: false)
            #expect(renderer.light.allSatisfy { near($0, red) }, "every LED red at \(p): \(renderer.light)")
            #expect(renderer.frame.allSatisfy { $0.r > 200 && $0.b < 60 }, "at \(p): \(renderer.frame)")
        }
        // The tint at 0 %: the track (off here), nothing lit; at 30 %: the first LEDs only.
        renderer.render([.progress(0)], paints: [RingPaint(look: 1)], at: 0, animating: false)
        #expect(renderer.light.allSatisfy { $0.r + $0.g + $0.b == 0 })
        renderer.render([.progress(0.3)], paints: [RingPaint(look: 1)], at: 0, animating: false)
        #expect(renderer.light[1].r > 0.5 && renderer.light[8].r == 0)
        // A paint that brings a value shows it, even in a status look.
        renderer.render([.progress(0.3)], paints: [RingPaint(look: 0, showsValue: true)], at: 0, animating: false)
        #expect(renderer.light[1].r > 0.5 && renderer.light[8].r == 0)
        // The spinner spins on in the look's colour.
        renderer.render([.spinner(tail: 0)], paints: [RingPaint(look: 0)], at: 0, animating: true)
        #expect(renderer.light[1].r > 0.5 && renderer.light[8].r + renderer.light[8].g + renderer.light[8].b == 0)
    }

    @Test func aStatusLookFollowsTheGradientAroundTheRing() throws {
        let two = Gradient(from: Self.red, to: Self.green)
        var renderer = Renderer(layout: try Self.layout(looks: [Look(name: "running", gradient: two)]))
        renderer.render([.progress(0)], paints: [RingPaint(look: 0)], at: 0, animating: false)
        // From the start colour at 12 o'clock towards the end colour, no head lifted to white.
        #expect(renderer.frame[0].r > 200 && renderer.frame[0].g < 60)
        #expect(renderer.frame[11].g > 200 && renderer.frame[11].r < 120)
        #expect(renderer.frame.allSatisfy { Int($0.r) + Int($0.g) + Int($0.b) < 600 }, "no LED lifted towards white")
    }

    @Test func aZoneChangeRecoloursTheRing() throws {
        let zones = [ColorZone(upTo: 0.5, gradient: Gradient(solid: Self.green)),
                     ColorZone(upTo: 0.75, gradient: Gradient(solid: Self.orange)),
                     ColorZone(upTo: .infinity, gradient: Gradient(solid: Self.red))]
        var renderer = Renderer(layout: try Self.layout(zones: zones))
        func head(_ p: Double) -> LinearRGB {
            renderer.render([.progress(p)], paints: [], at: 0, animating: false)
            return renderer.light[0]
        }
        func near(_ a: LinearRGB, _ b: LinearRGB) -> Bool { abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) < 0.01 }
        #expect(near(head(0.3), SRGB.linear(Self.green)))
        #expect(near(head(0.6), SRGB.linear(Self.orange)))
        #expect(near(head(0.9), SRGB.linear(Self.red)))
        // At a boundary the two zones blend half and half, in linear light.
        #expect(near(head(0.5), SRGB.linear(Self.green).mixed(with: SRGB.linear(Self.orange), amount: 0.5)))
        #expect(near(head(0.485), SRGB.linear(Self.green)) && near(head(0.515), SRGB.linear(Self.orange)))
        let choice = ColorZone.choice(for: 0.5, upTo: zones.map(\.upTo))
        #expect(choice.first == 0 && choice.second == 1 && abs(choice.amount - 0.5) < 1e-6)
        #expect(ColorZone.choice(for: 0.45, upTo: zones.map(\.upTo)).amount == 0)
    }

    @Test func rangesMapOwnUnitsToLaps() {
        var spec = RingSpec(name: "co2", segments: [Segment(ledCount: 12)], appearance: RingAppearance(gradient: Palette.move))
        spec.range = ValueRange(min: 400, max: 2000)
        #expect(abs(spec.laps(812) - 412.0 / 1600) < 1e-12)
        #expect(spec.laps(3600) == 2, "past max keeps lapping")
        #expect(spec.laps(300) == 0, "below min is empty")
        #expect(spec.laps(0.5, percent: true) == 0.5, "a percentage is still a fraction of a lap")
        spec.clampsAtOneLap = true
        #expect(spec.laps(3600) == 1)
    }
}
