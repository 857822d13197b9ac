import Testing
import RingModel
@testable import RingRender

/// One suite per numbered rule of the mapper (issue 2).
@Suite struct ProgressMapperTests {
    let trackGrey = SRGB.linear(RGB8(r: 10, g: 10, b: 10))

    // 1. Track
    @Test(arguments: [1, 12, 24, 1024])
    func emptyRingShowsTrackEverywhere(n: Int) {
        #expect(circle(0, n: n).allSatisfy { close($0, trackGrey) })
    }

    @Test func trackOffIsDark() {
        #expect(circle(0.25, n: 12, plain(track: .off)).suffix(8).allSatisfy(isDark))
    }

    @Test func trackOpacityCompositesInSRGBLikeTheSeeds() {
        // 10 % opacity of pure red over black is sRGB 25.5/255, about 1 % of the light.
        let appearance = RingAppearance(gradient: Gradient(from: red, to: blue), track: .opacity(0.1))
        let track = appearance.trackColor
        #expect(abs(track.r - SRGB.toLinear(0.1)) < 1e-6)
        #expect(track.g == 0 && track.b == 0)
        #expect(close(circle(0, n: 8, appearance)[5], track))
    }

    // 2. Fill coverage
    @Test func softCapLightsTheHeadPartly() {
        let n = 10
        let a = plain()
        // P = 2.2: LED 2 is a fifth covered and turns from the track to the head 1.5 x as fast
        // (three tenths of the head); LED 1 is the head.
        let leds = circle(2.2 / Double(n), n: n)
        #expect(close(leds[1], a.headColor))
        #expect(close(leds[2], trackGrey.mixed(with: a.headColor, amount: 0.3)))
        #expect(close(leds[3], trackGrey))
    }

    @Test func hardCapLightsAnLEDOnceHalfCovered() {
        let n = 10
        let below = circle(2.49 / Double(n), n: n, plain(cap: .square))
        let at = circle(2.5 / Double(n), n: n, plain(cap: .square))
        #expect(close(below[2], trackGrey))
        #expect(close(at[2], plain().headColor))
        #expect(close(at[3], trackGrey))
    }

    @Test func softCapMovesSmoothly() {
        // A slow transition: 1/1000 of a lap per step (0.024 LED) never changes any LED by more
        // than three times the step (the head hands over at twice the speed of the fill).
        let n = 24
        var last = circle(0, n: n)
        for step in 1...1000 {
            let now = circle(Double(step) / 1000, n: n)
            for k in 0..<n {
                let d = max(abs(now[k].r - last[k].r), abs(now[k].g - last[k].g), abs(now[k].b - last[k].b))
                #expect(d < 0.072, "LED \(k) jumped by \(d) at step \(step)")
            }
            last = now
        }
    }

    // 3. Gradient
    @Test func gradientInterpolatesInOKLabNotSRGB() {
        let g = Gradient(from: red, to: green)
        let mid = g.color(at: 0.5)
        let expected = OKLab(SRGB.linear(red)).mixed(with: OKLab(SRGB.linear(green)), amount: 0.5).linear
        #expect(close(mid, expected, 2e-3))
        // The gamma-encoded sRGB midpoint (128, 128, 0) is the muddy one we must not produce.
        let muddy = SRGB.linear(RGB8(r: 128, g: 128, b: 0))
        #expect(!close(mid, muddy, 0.05))
    }

    @Test func ringSpanMeasuresLocationsAroundTheCircle() {
        let n = 12
        let g = plain().gradient
        let leds = circle(1.0, n: n)
        for k in 1..<(n - 2) { #expect(close(leds[k], g.color(at: Float(k) / Float(n)))) }
        // Half filled: the same LEDs keep the same colours (the gradient is fixed to the circle).
        let half = circle(0.5, n: n)
        for k in 1..<4 { #expect(close(half[k], leds[k])) }
    }

    @Test func fillSpanStretchesOverTheFilledArc() {
        let n = 12
        let a = plain(span: .fill)
        let half = circle(0.5, n: n, a)   // P = 6: head is LED 5, LED 4 is the last gradient LED
        #expect(close(half[4], a.gradient.color(at: 4.0 / 5.0)))
        #expect(close(half[5], a.headColor))
        let quarter = circle(0.25, n: n, a)   // P = 3
        #expect(close(quarter[1], a.gradient.color(at: 0.5)))
    }

    @Test func gradientStopsAreValidated() {
        #expect(throws: Gradient.Problem.noStops) { try Gradient(stops: []) }
        #expect(throws: Gradient.Problem.locationOutOfRange(index: 0, location: -0.5)) {
            try Gradient(stops: [GradientStop(color: red, location: -0.5)])
        }
        #expect(throws: Gradient.Problem.locationsOutOfOrder(index: 1)) {
            try Gradient(stops: [GradientStop(color: red, location: 0.6), GradientStop(color: blue, location: 0.2)])
        }
    }

    @Test func threeStopGradientPassesThroughTheMiddleStop() throws {
        let g = try Gradient(stops: [GradientStop(color: red, location: 0), GradientStop(color: green, location: 0.25),
                                     GradientStop(color: blue, location: 1)])
        #expect(close(g.color(at: 0.25), SRGB.linear(green), 5e-3))
    }

    // 4. Start cap: see RingClosingTests (the first lap's seam only).

    // 5. Head highlight
    @Test func headShowsTheEndColourByDefault() {
        let leds = circle(0.5, n: 12)   // P = 6: LED 5 is the head
        #expect(close(leds[5], SRGB.linear(blue), 1e-3))
    }

    /// The seed draws no end cap below 95 %: the start of a ring is the start colour, never a
    /// pastel of the end colour lifted towards white (`--set move=0.04` was `#f284a4`); the head
    /// fades in over 95…100 % and past 100 % it is the lifted end colour.
    @Test func theHeadShowsItsColourOnlyAsTheRingCloses() {
        var a = plain(highlight: 0.4, headFrom: RingAppearance.defaultHeadFrom)
        #expect(RingAppearance(gradient: a.gradient).headFrom == 0.95, "the default is the seed's")
        let early = circle(0.04, n: 24, a)   // P = 0.96: LED 0 is the head, nearly covered
        #expect(close(early[0], trackGrey.mixed(with: a.gradient.color(at: 0), amount: 0.96)), "\(early[0])")
        #expect(early[0].b < 0.01, "no blue, no white in the first LED")
        let half = circle(0.5, n: 12, a)
        #expect(close(half[5], a.gradient.color(at: 5.0 / 12)), "mid-ring the head is the fill's colour")
        let lifted = a.gradient.endColor.mixed(with: .white, amount: 0.4)
        #expect(close(circle(1.0, n: 12, a)[11], lifted), "closed: the lifted head")
        #expect(close(circle(1.3, n: 10, a)[2], lifted, 1e-3), "past 100 %: the lifted head")
        // Half way through the fade-in, half of the head's colour.
        let fading = circle(0.975, n: 40, a)[38]
        let plainFill = circle(0.975, n: 40, plain(highlight: 0.4, headFrom: 2))[38]
        #expect(close(fading, plainFill.mixed(with: lifted, amount: 0.5), 1e-3))
        a.headFrom = 0
        #expect(close(circle(0.5, n: 12, a)[5], lifted), "headFrom 0: today's head from the start")
    }

    @Test func headHighlightLiftsTowardsWhite() {
        let a = plain(highlight: 0.4)
        let leds = circle(0.5, n: 12, a)
        #expect(close(leds[5], a.gradient.endColor.mixed(with: .white, amount: 0.4)))
        let custom = plain(capColor: green)
        #expect(close(circle(0.5, n: 12, custom)[5], SRGB.linear(green)))
    }

    // 6. Laps
    @Test(arguments: [1.0, 1.3, 2.5, 3.0, 42.42])
    func pastOneLapEveryLEDIsLit(p: Double) {
        let leds = circle(p, n: 16)
        #expect(leds.allSatisfy { !close($0, trackGrey, 1e-3) })
    }

    @Test func eachLapIsToldApartFromTheLastWhenLapsAlternate() {
        let n = 24
        var a = plain()
        a.laps = .alternate
        let first = circle(0.5, n: n, a), second = circle(1.5, n: n, a)
        // Behind the head, the second lap's colours differ from the first lap's at the same LEDs.
        let differing = (1..<11).filter { !close(first[$0], second[$0], 1e-3) }
        #expect(differing.count == 10)
    }

    @Test func headKeepsGoingRoundOnLaterLaps() {
        let n = 12
        let a = plain()
        // 1.25 laps: P = 15, the head is LED 2 of the second lap.
        #expect(close(circle(1.25, n: n, a)[2], a.headColor))
        #expect(close(circle(2.25, n: n, a)[2], a.headColor))
    }

    // 7. Shadow
    @Test(arguments: [0.1, 0.5, 0.9, 0.916])
    func noShadowBeforeTheRingCloses(p: Double) {
        // All below 1 − 1/12 ≈ 0.9167: the ring has not closed yet.
        #expect(circle(p, n: 12, plain(shadow: 0.7)) == circle(p, n: 12, plain(shadow: 0)))
    }

    @Test func shadowDimsTheLEDAheadOfTheHead() {
        let n = 12
        let p = 1.5   // P = 18: head LED 5 fully covered, LED 6 (first lap) ahead of it
        let lit = circle(p, n: n, plain(shadow: 0)), shaded = circle(p, n: n, plain(shadow: 0.7))
        #expect(close(shaded[6], lit[6].scaled(by: 0.3)))
        for k in 0..<n where k != 6 { #expect(close(shaded[k], lit[k])) }
    }

    @Test func shadowGrowsAsTheRingCloses() {
        let n = 12
        // P = 11.5: the head is half way through LED 11, the last before closing; the shadow is
        // at half strength and half of it falls on LED 0 (the start cap), 1½ LEDs ahead.
        let p = 11.5 / Double(n)
        let lit = circle(p, n: n, plain(shadow: 0)), shaded = circle(p, n: n, plain(shadow: 0.5))
        #expect(close(shaded[0], lit[0].scaled(by: 1 - 0.5 * 0.5 * 0.5)))
        #expect(close(shaded[1], lit[1]))
    }

    @Test func hardCapShadowDimsTheNextLED() {
        let a0 = plain(cap: .square, shadow: 0), a1 = plain(cap: .square, shadow: 0.5)
        let lit = circle(1.3, n: 10, a0), shaded = circle(1.3, n: 10, a1)   // P = 13: head LED 2
        #expect(close(shaded[3], lit[3].scaled(by: 0.5)))
        #expect(close(shaded[2], lit[2]))
    }

    // 8. Indeterminate
    @Test(arguments: [0.0, 0.13, 0.5, 0.77])
    func spinnerArcCoversTwentyPercent(tail: Double) {
        let n = 20
        let a = plain(track: .off)
        let leds = spinner(tail: tail, n: n, a)
        // With an off track, an LED's light is its coverage times its gradient colour; count lit
        // LEDs weighted by coverage via the soft cap: 20 % of 20 LEDs is 4 LEDs' worth.
        let lit = leds.filter { !isDark($0) }.count
        #expect(lit >= 4 && lit <= 5)
        let tailLED = Int((tail * Double(n)).rounded(.down)) % n
        #expect(!isDark(leds[tailLED]))
        #expect(isDark(leds[(tailLED + 6) % n]))
    }

    @Test func spinnerSweepsOnceAPeriodWithEaseInOut() {
        let s = Spinner()
        #expect(s.tailPosition(at: 0) == 0)
        #expect(abs(s.tailPosition(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(s.tailPosition(at: 0.25) - Curve.easeInOut.value(at: 0.25)) < 1e-9)
        #expect(abs(s.tailPosition(at: 1.25) - Curve.easeInOut.value(at: 0.25)) < 1e-9)
    }

    @Test func reversingSpinnerRunsBackOnEveryOtherSweep() {
        let s = Spinner(reverses: true)
        #expect(abs(s.tailPosition(at: 0.25) - Curve.easeInOut.value(at: 0.25)) < 1e-9)
        #expect(abs(s.tailPosition(at: 1.25) - (1 - Curve.easeInOut.value(at: 0.25))) < 1e-9)
        #expect(abs(s.tailPosition(at: 2.25) - Curve.easeInOut.value(at: 0.25)) < 1e-9)
    }

    @Test func hardCapSpinnerLightsWholeLEDs() {
        let leds = spinner(tail: 0.0, n: 10, plain(cap: .square, track: .off))
        #expect(leds.filter { !isDark($0) }.count == 2)
    }

    // 9. Styles
    @Test func barFillsFromItsFirstLEDAndStopsFull() {
        let n = 10
        let a = plain()
        let half = bar(0.5, n: n, a)
        #expect(close(half[0], a.gradient.startColor))
        #expect(close(half[4], a.headColor))
        #expect(close(half[5], trackGrey))
        let over = bar(1.7, n: n, a)
        #expect(over == bar(1.0, n: n, a))
        // `ring` span on a bar runs along the whole bar: the last LED is the end colour.
        #expect(close(over[n - 1], a.gradient.endColor, 1e-3))
    }

    @Test func pieFillsEveryRingToTheSameAngle() throws {
        let spec = RingSpec(name: "pie", shape: .pie,
                            segments: [Segment(ledCount: 24), Segment(ledCount: 16), Segment(ledCount: 12)],
                            appearance: plain())
        var renderer = Renderer(layout: try RingLayout(rings: [spec]))
        renderer.render([.progress(0.5)])
        let lit = [0..<24, 24..<40, 40..<52].map { range in range.filter { renderer.frame[$0] != renderer.frame[range.last ?? 0] }.count }
        // Half of each ring differs from its last (track) LED: 12, 8 and 6 LEDs.
        #expect(lit == [12, 8, 6])
    }
}
