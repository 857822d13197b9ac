import Testing
import RingModel
@testable import RingRender

/// The ring at and past 100 % (issue 13): the head on top at every value, the gradient turning
/// with the head past 100 %, a shadow that marks the head without killing an LED, and no pop or
/// notch anywhere as the value moves slowly through 0.9…1.1 and through every lap boundary.
@Suite struct RingClosingTests {
    /// The hard palette for continuity (pure red → pure blue, so any jump is a big one) with a
    /// visible track, highlight and shadow; and the real Move palette with every default.
    static let appearances: [(name: String, appearance: RingAppearance)] = [
        ("red-blue", RingAppearance(gradient: Gradient(from: red, to: blue), track: .color(RGB8(r: 10, g: 10, b: 10)),
                                    highlight: 0.3, shadow: 0.35)),
        ("move", RingAppearance(gradient: Palette.move)),
    ]

    /// Values from `from` to `to` in steps of 1/50 of an LED on an `n`-LED ring.
    static func sweep(_ from: Double, _ to: Double, n: Int) -> [Double] {
        let step = 0.02 / Double(n)
        return (0...Int(((to - from) / step).rounded())).map { from + Double($0) * step }
    }

    /// The LED whose centre is nearest the head's centre (round caps: P − ½; square caps: the last
    /// LED at least half covered), round the circle.
    static func headIndex(_ p: Double, n: Int, wraps: Bool = true) -> Int {
        let P = (wraps ? p : min(p, 1)) * Double(n)
        let k = Int((P - 0.5).rounded(.down))
        return wraps ? k % n : min(k, n - 1)
    }

    /// Whether LED share `w` of the head is what the head LED must show at `p` on `n` LEDs: round
    /// caps at least three quarters of the head, all of it while the head's centre is within a
    /// third of an LED of the LED's centre (the price of a slow move that never jumps: issue 25);
    /// square caps all of it.
    static func isHead(_ w: Float, _ p: Double, n: Int, cap: CapStyle, wraps: Bool = true) -> Bool {
        guard cap == .round else { return abs(w - 1) < 1e-3 }
        let P = (wraps ? p : min(p, 1)) * Double(n)
        let e = abs((P - 0.5).rounded(.down) + 1 - P)
        return w >= 0.75 - 1e-3 && (e > 1.0 / 3 + 1e-4 || w >= 1 - 1e-3)
    }

    /// Whether `p` puts a square cap's edge (P − ½ whole) so close to an LED boundary that Float
    /// and Double may round it to different LEDs: such values say nothing about the rules.
    static func onSquareBoundary(_ p: Double, n: Int) -> Bool {
        let x = p * Double(n) - 0.5
        return abs(x - x.rounded()) < 1e-3
    }

    static func luminance(_ c: LinearRGB) -> Float { 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b }

    /// `a` with `cap` and `laps`, its head shown from the start (`headFrom` 0) so the sweeps
    /// below 100 % see the head's mechanics; ProgressMapperTests checks the seed's threshold.
    static func with(_ a: RingAppearance, cap: CapStyle, laps: LapStyle = .turn) -> RingAppearance {
        var a = a
        a.cap = cap
        a.laps = laps
        a.headFrom = 0
        return a
    }

    /// The windows the sweeps run through: closing the ring, and the next two lap boundaries.
    static let windows: [(Double, Double)] = [(0.9, 1.1), (1.9, 2.1), (2.95, 3.05)]

    // The head is on top at every value.

    @Test(arguments: [12, 24, 60], CapStyle.allCases)
    func headIsDrawnOnTopThroughEverySweep(n: Int, cap: CapStyle) {
        for (_, base) in RingClosingTests.appearances {
            for laps in LapStyle.allCases {
                let a = RingClosingTests.with(base, cap: cap, laps: laps)
                for (from, to) in RingClosingTests.windows {
                    for p in RingClosingTests.sweep(from, to, n: n)
                    where cap == .round || !RingClosingTests.onSquareBoundary(p, n: n) {
                        let k = RingClosingTests.headIndex(p, n: n)
                        let w = headWeight(p, n: n, a, led: k)
                        #expect(RingClosingTests.isHead(w, p, n: n, cap: cap), "n=\(n) \(cap) \(laps) p=\(p): LED \(k) shows \(w) of the head")
                    }
                }
            }
        }
    }

    @Test(arguments: [12, 24, 60], CapStyle.allCases)
    func barHeadIsDrawnOnTopUpToFull(n: Int, cap: CapStyle) {
        let a = RingClosingTests.with(RingClosingTests.appearances[0].appearance, cap: cap)
        for p in RingClosingTests.sweep(0.9, 1.1, n: n) where cap == .round || !RingClosingTests.onSquareBoundary(p, n: n) {
            let k = RingClosingTests.headIndex(p, n: n, wraps: false)
            let w = headWeight(p, n: n, a, led: k, bar: true)
            #expect(RingClosingTests.isHead(w, p, n: n, cap: cap, wraps: false), "bar n=\(n) \(cap) p=\(p): LED \(k) shows \(w)")
        }
    }

    /// The seed's pie is a plain wedge: no circle of a pie carries a head or a shadow (their LED
    /// counts differ, so heads made a staggered pastel spoke, and the shadows a dark one at
    /// 100 %), and from 100 % on it is the full disc.
    @Test(arguments: CapStyle.allCases)
    func aPieIsAPlainWedge(cap: CapStyle) throws {
        let a = RingClosingTests.with(RingClosingTests.appearances[1].appearance, cap: cap)
        let counts = [24, 16, 12, 1]
        // Two caps, red and green: an LED's difference between them is its share of the head.
        var redCap = a, greenCap = a
        redCap.capColor = RGB8(r: 255, g: 0, b: 0)
        greenCap.capColor = RGB8(r: 0, g: 255, b: 0)
        func renderer(_ appearance: RingAppearance) throws -> Renderer {
            let spec = RingSpec(name: "pie", shape: .pie, segments: counts.map { Segment(ledCount: $0) }, appearance: appearance)
            return Renderer(layout: try RingLayout(rings: [spec]))
        }
        var one = try renderer(redCap), other = try renderer(greenCap)
        let mapper = ProgressMapper(appearance: a)
        for p in [0.3, 0.6] + RingClosingTests.sweep(0.9, 1.1, n: 24) + [1.3, 2.5] {
            one.render([.progress(p)])
            other.render([.progress(p)])
            var offset = 0
            for n in counts {
                // What the circle shows without head or shadow: the fill's colour where it is full,
                // mixed with the track on the LED it is entering.
                let full = Swift.min(p, 1) * Double(n)
                for k in 0..<n {
                    let light = one.light[offset + k]
                    #expect(close(light, other.light[offset + k], 1e-6), "pie ring of \(n), p=\(p): LED \(k) carries a head")
                    let cover = Float(Swift.min(Swift.max(full - Double(k), 0), 1))
                    let coverage = cap == .round ? cover : (cover >= 0.5 || (k == 0 && full > 0) ? 1 : 0)
                    let fill = a.gradient.color(at: Float(k) / Float(n))
                    let plain = a.trackColor.mixed(with: fill, amount: coverage)
                    #expect(close(light, plain, 1e-4), "pie ring of \(n), p=\(p): LED \(k) is \(light), not the plain wedge's \(plain)")
                }
                if p >= 1 {
                    let whole = [LinearRGB](unsafeUninitializedCapacity: n) { buffer, count in
                        mapper.drawWhole(into: buffer, wraps: true); count = n
                    }
                    #expect(zip(one.light[offset..<offset + n], whole).allSatisfy { close($0, $1, 1e-4) }, "pie ring of \(n) at \(p): the full disc")
                }
                offset += n
            }
        }
    }

    @Test(arguments: [0.5, 0.99, 1.0, 1.3, 2.0, 7.77])
    func oneLEDRingAlwaysShowsTheHead(p: Double) {
        var a = RingClosingTests.appearances[0].appearance
        a.headFrom = 0   // with the seed's threshold a 1-LED ring below 95 % shows its fill colour
        #expect(close(circle(p, n: 1, a)[0], a.headColor, 1e-5))
    }

    @Test(arguments: [0.001, 0.01, 0.02])
    func anyValueAboveZeroShowsTheHeadWithSquareCaps(p: Double) {
        // P < ½: no LED is half covered, but a value above 0 still shows its head on LED 0.
        let a = RingClosingTests.with(RingClosingTests.appearances[0].appearance, cap: .square)
        let leds = circle(p, n: 24, a)
        #expect(close(leds[0], a.headColor, 1e-5))
        #expect(leds.dropFirst().allSatisfy { close($0, a.trackColor) })
        #expect(circle(0, n: 24, a).allSatisfy { close($0, a.trackColor) })
        #expect(close(bar(p, n: 24, a)[0], a.headColor, 1e-5))
    }

    @Test func headFadesInOverItsFirstTwoThirdsOfAnLED() {
        var a = RingClosingTests.appearances[0].appearance
        a.headFrom = 0   // the head's own mechanics (the seed shows none this early)
        let n = 12
        // A quarter of an LED covered: the track turning straight to the head, 1.5 x as fast as
        // the cover (never a dim off-colour LED); full at two thirds.
        #expect(close(circle(0.25 / Double(n), n: n, a)[0], a.trackColor.mixed(with: a.headColor, amount: 0.375), 1e-5))
        #expect(close(circle(0.7 / Double(n), n: n, a)[0], a.headColor, 1e-5))
    }

    @Test func fractionalHeadHandsOverWithoutLosingTheHeadColour() {
        var a = RingClosingTests.appearances[0].appearance
        a.headFrom = 0   // the head's own mechanics, mid-ring
        let n = 24
        // P = 10.25: LED 9 is the head; LED 10, a quarter covered, already carries 3/8 of it.
        let leds = circle(10.25 / Double(n), n: n, a)
        #expect(close(leds[9], a.headColor, 1e-5))
        #expect(close(leds[10], a.trackColor.mixed(with: a.headColor, amount: 0.375), 1e-5))
        // P = 10.5: half way, each shows three quarters of the head.
        #expect(abs(headWeight(10.5 / Double(n), n: n, a, led: 9) - 0.75) < 1e-4)
        #expect(abs(headWeight(10.5 / Double(n), n: n, a, led: 10) - 0.75) < 1e-4)
        // P = 10.75: LED 10 has taken over; LED 9 keeps 3/8 of the head on its way back to the fill.
        let later = circle(10.75 / Double(n), n: n, a)
        #expect(close(later[10], a.headColor, 1e-5))
        #expect(close(later[9], a.gradient.color(at: 9.0 / 24).mixed(with: a.headColor, amount: 0.375), 1e-5))
    }

    // Every LED changes smoothly: no pops.

    @Test(arguments: [12, 24, 60])
    func roundCapsChangeEveryLEDSmoothlyThroughEverySweep(n: Int) {
        // Steps of 1/50 LED: a continuous picture changes an LED by at most a few times that
        // (the head hands over at twice the speed of the fill); a pop is a jump that stays big
        // however small the step.
        let limit: Float = 4 * 0.02
        for (name, base) in RingClosingTests.appearances {
            for laps in LapStyle.allCases {
                let a = RingClosingTests.with(base, cap: .round, laps: laps)
                for (from, to) in RingClosingTests.windows {
                    var last = circle(from, n: n, a)
                    for p in RingClosingTests.sweep(from, to, n: n).dropFirst() {
                        let now = circle(p, n: n, a)
                        for k in 0..<n {
                            let d = max(abs(now[k].r - last[k].r), abs(now[k].g - last[k].g), abs(now[k].b - last[k].b))
                            #expect(d <= limit, "\(name) \(laps) n=\(n) p=\(p): LED \(k) jumped by \(d)")
                        }
                        last = now
                    }
                }
            }
        }
    }

    /// Issue 25: on a 60-LED ring a move of 0.3 LED changed one LED by 59 % of full, the head
    /// jumping onto the LED the fill enters. For every move of a third of an LED, from 0 to past
    /// two laps, with the seed's head threshold and with the head from the start, no LED's
    /// linear light changes by more than half of full (the red-blue palette reaches exactly half:
    /// a pure red head over a pure blue lap, at 1.5 x a third of an LED).
    @Test(arguments: [12, 24, 60, 144])
    func aThirdOfAnLEDNeverChangesAnyLEDByMoreThanHalf(n: Int) {
        let third = 1.0 / 3 / Double(n)
        for (name, base) in RingClosingTests.appearances {
            for headFrom in [base.headFrom, 0] {
                for laps in LapStyle.allCases {
                    var a = base
                    a.headFrom = headFrom
                    a.laps = laps
                    var worst: (d: Float, p: Double, k: Int) = (0, 0, 0)
                    for step in 0...Int(2.1 * Double(n) / 0.05) {
                        let p = Double(step) * 0.05 / Double(n)
                        let before = circle(p, n: n, a), after = circle(p + third, n: n, a)
                        for k in 0..<n {
                            let d = max(abs(after[k].r - before[k].r), abs(after[k].g - before[k].g), abs(after[k].b - before[k].b))
                            if d > worst.d { worst = (d, p, k) }
                        }
                    }
                    #expect(worst.d <= 0.5 + 1e-3, "\(name) headFrom \(headFrom) \(laps) n=\(n): LED \(worst.k) changed by \(worst.d) from p=\(worst.p)")
                }
            }
        }
    }

    @Test(arguments: [12, 24, 60])
    func squareCapsChangeOnlyTheLEDsTheHeadCrosses(n: Int) {
        // Square caps move in whole LEDs; between two values the only LEDs that change are the
        // old head, the new head and the LED the shadow moves onto (past 100 % the turning
        // gradient also shifts every LED a little, by at most one LED's worth of gradient).
        let a = RingClosingTests.with(RingClosingTests.appearances[0].appearance, cap: .square)
        let gradientStep: Float = 1.0 / Float(n) + 1e-3
        for (from, to) in RingClosingTests.windows {
            var last = circle(from, n: n, a)
            var lastHead = RingClosingTests.headIndex(from, n: n)
            for p in RingClosingTests.sweep(from, to, n: n).dropFirst() where !RingClosingTests.onSquareBoundary(p, n: n) {
                let now = circle(p, n: n, a)
                let head = RingClosingTests.headIndex(p, n: n)
                for k in 0..<n where k != head && k != lastHead && k != (head + 1) % n && k != (lastHead + 1) % n {
                    let d = max(abs(now[k].r - last[k].r), abs(now[k].g - last[k].g), abs(now[k].b - last[k].b))
                    #expect(d <= gradientStep, "n=\(n) p=\(p): LED \(k) changed by \(d) away from the head")
                }
                last = now
                lastHead = head
            }
        }
    }

    // No notch, no dead LED.

    @Test(arguments: [12, 24, 60], CapStyle.allCases)
    func closedRingHasNoDeadLED(n: Int, cap: CapStyle) {
        // Once closed, every LED keeps at least (1 − shadow) of the dimmest colour of the ring:
        // the shadow dims, it never puts out an LED (the old default took LED 0 to 40 %).
        for (name, base) in RingClosingTests.appearances {
            let a = RingClosingTests.with(base, cap: cap)
            let floor = (1 - a.shadow) * min(RingClosingTests.luminance(a.gradient.startColor),
                                               RingClosingTests.luminance(a.gradient.endColor))
            #expect(a.shadow <= 0.4, "\(name): a shadow over 40 % reads as a dead LED")
            for (from, to) in RingClosingTests.windows {
                for p in RingClosingTests.sweep(max(from, 1), to, n: n) {
                    for (k, c) in circle(p, n: n, a).enumerated() {
                        #expect(RingClosingTests.luminance(c) >= floor * 0.999, "\(name) n=\(n) p=\(p): LED \(k) is a notch")
                    }
                }
            }
        }
    }

    @Test func exactlyFullRingKeepsTwelveOClockLit() {
        let a = RingAppearance(gradient: Palette.move)
        let leds = circle(1.0, n: 24, a)
        // LED 0 is the start colour under the head's shadow: dimmed by the default strength only.
        #expect(close(leds[0], a.gradient.startColor.scaled(by: 1 - a.shadow), 1e-5))
        #expect(close(leds[23], a.headColor, 1e-5))
    }

    // Past 100 %: the gradient turns with the head.

    @Test(arguments: [1.25, 1.5, 2.0, 3.75])
    func startColourSitsOneTurnBehindTheHead(p: Double) {
        let n = 12
        let a = plain(highlight: 0.3)
        let shaded = plain(highlight: 0.3, shadow: 0.35)
        let head = RingClosingTests.headIndex(p, n: n)
        let ahead = (head + 1) % n
        #expect(close(circle(p, n: n, a)[head], a.headColor))
        // The LED just ahead of the head is one turn behind it: the start colour, under the shadow.
        #expect(close(circle(p, n: n, a)[ahead], a.gradient.startColor, 1e-5))
        #expect(close(circle(p, n: n, shaded)[ahead], a.gradient.startColor.scaled(by: 0.65), 1e-5))
        // The LED just behind the head is where the gradient is one LED from its end (the head
        // covers the last step): the gradient ends at the head.
        let behind = circle(p, n: n, a)[(head + n - 1) % n]
        #expect(close(behind, a.gradient.color(at: Float(n - 2) / Float(n)), 1e-5))
    }

    @Test func turningGradientKeepsItsPlaceRelativeToTheHead() {
        let n = 12
        let a = plain()
        let first = circle(1.25, n: n, a), later = circle(1.5, n: n, a)
        // Three LEDs on, every LED three places on shows the same colour.
        for k in 0..<n { #expect(close(first[k], later[(k + 3) % n], 1e-5)) }
    }

    @Test func alternateLapsRunTheGradientBackAndForth() {
        let n = 12
        var a = plain()
        a.laps = .alternate
        let leds = circle(1.5, n: n, a)   // P = 18: LEDs 0…5 are on lap 2, running end → start
        #expect(close(leds[1], a.gradient.color(at: 13.0 / 12), 1e-5))
        #expect(close(a.gradient.color(at: 13.0 / 12), a.gradient.color(at: 11.0 / 12), 1e-5))
        #expect(close(leds[5], a.headColor))
        // Lap 2 differs from lap 1 at the same LED, which the turning default does not promise.
        #expect(!close(circle(0.5, n: n, a)[3], leds[3], 1e-3))
    }

    // The head is findable.

    @Test(arguments: [1.0, 1.1, 1.3, 1.77, 2.5])
    func headIsTheBrightestLEDWithADarkerEdgeAhead(p: Double) {
        for gradient in [Palette.move, Palette.exercise, Palette.stand] {
            let n = 24
            let a = RingAppearance(gradient: gradient)
            let leds = circle(p, n: n, a)
            let head = RingClosingTests.headIndex(p, n: n)
            let lum = leds.map(RingClosingTests.luminance)
            #expect(lum.allSatisfy { $0 <= lum[head] + 1e-6 }, "p=\(p): the head is not the brightest LED")
            let edge = min(lum[(head + 1) % n], lum[(head + 2) % n])
            #expect(edge <= 0.75 * lum[head], "p=\(p): nothing darker ahead of the head (\(edge) vs \(lum[head]))")
        }
    }

    // The start cap is the first lap's seam only.

    @Test(arguments: [0.1, 0.3, 0.5, 0.9])
    func twelveOClockShowsTheStartColourOnTheFirstLap(p: Double) {
        for span in GradientSpan.allCases {
            let a = plain(span: span, highlight: 0.5)
            #expect(close(circle(p, n: 24, a)[0], a.gradient.startColor, 1e-5))
        }
    }
}
