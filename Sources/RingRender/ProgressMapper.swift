import RingModel

/// Turns a ring's value into the linear-light colour of each of its LEDs: the seeds' activity ring
/// sampled at every LED.
///
/// Positions are counted from 12 o'clock in the direction of travel: LED position k covers the
/// arc [k, k+1) of N. The mapper knows nothing of chains, clocks or output bytes: it is a pure
/// function of (value, LED count, appearance), and writes into a caller-owned buffer so a frame
/// allocates nothing.
public struct ProgressMapper: Sendable {
    /// The appearance this mapper draws.
    public let appearance: RingAppearance
    // Derived once, because each costs a few `powf`s and the render path runs per frame.
    @usableFromInline let track: LinearRGB
    @usableFromInline let head: LinearRGB
    @usableFromInline let shadowKeep: Float

    /// Makes a mapper for one appearance.
    public init(appearance: RingAppearance) {
        self.appearance = appearance
        self.track = appearance.trackColor
        self.head = appearance.headColor
        self.shadowKeep = 1 - clamp01(appearance.shadow)
    }

    /// Draws progress `p` (1 = one full lap) on a circle of `out.count` LEDs, in position order.
    @inlinable
    public func drawCircle(progress p: Double, into out: UnsafeMutableBufferPointer<LinearRGB>) {
        draw(progress: p, into: out, wraps: true)
    }

    /// Draws progress `p` on a straight strip of `out.count` LEDs filled from position 0; values
    /// past 1 show a full strip.
    @inlinable
    public func drawBar(progress p: Double, into out: UnsafeMutableBufferPointer<LinearRGB>) {
        draw(progress: Swift.min(p, 1), into: out, wraps: false)
    }

    /// Draws progress `p` on one circle of a pie as the seed's pie is drawn: a plain wedge from
    /// 12 o'clock in the gradient, no head, no shadow; values past 1 show the full circle. (The
    /// circles of a pie differ in LED count, so a head or shadow per circle made a staggered
    /// spoke of pastel heads, and a dark one at 100 %.)
    @inlinable
    public func drawWedge(progress p: Double, into out: UnsafeMutableBufferPointer<LinearRGB>) {
        draw(progress: Swift.min(p, 1), into: out, wraps: true, plain: true)
    }

    /// The layered picture of the seeds' activity ring, sampled at each LED: track, then the
    /// fill's laps (the latest lap that reached an LED on top), then the head's shadow on what
    /// lies just ahead of the head, then the head itself, on top of everything.
    ///
    /// Positions are in LED units along the fill: the fill covers [0, P) with P = p·N, and LED k
    /// shows its latest lap, at fill position x = k + lap·N. The head is a disc one LED wide
    /// centred on the cap centre h = P − ½ (round caps) or on the last lit LED (square caps).
    @inlinable
    func draw(progress p: Double, into out: UnsafeMutableBufferPointer<LinearRGB>, wraps: Bool, plain: Bool = false) {
        let n = out.count
        guard n > 0 else { return }
        let nf = Float(n)
        let value = p.isFinite ? Swift.min(Swift.max(p, 0), RingState.maxProgress) : 0
        let P = Float(value) * nf
        let soft = appearance.cap == .round
        // Round caps light any LED the fill has entered; square caps an LED at least half covered,
        // except that any value above 0 lights the first LED as the head (a hard cap has no
        // partial light to show 1 % with).
        guard P > 0 else {
            for k in 0..<n { out[k] = track }
            return
        }
        let turns = appearance.laps == .turn
        // Where the gradient starts: at 12 o'clock on the first lap; past 100 %, one turn behind
        // the head, so the gradient turns with it.
        let gradientStart: Float = wraps && turns ? Swift.max(0, P - nf) : 0
        let gradient = appearance.gradient
        let scale: Float
        switch gradient.span {
        case .ring:
            // Around the whole circle (a bar: along the whole bar, so its last LED is the end).
            scale = wraps ? 1 / nf : 1 / Swift.max(nf - 1, 1)
        case .fill:
            // Stretched so the LED before the head reaches the end colour (past 100 % with the
            // turning gradient: over the last turn).
            scale = 1 / Swift.max((turns ? Swift.min(P, nf) : P) - 1, 1)
        }
        // The head's centre, in fill positions.
        let h: Float = soft ? P - 0.5 : Swift.max((P - 0.5).rounded(.down), 0) + 0.5
        // The shadow appears as the ring closes (from one LED before 100 %) and then stays:
        // continuous, and nothing is shadowed on a ring that is far from closing.
        let shadowAmount: Float = wraps && n > 2 && !plain ? (1 - shadowKeep) * clamp01(P - (nf - 1)) : 0
        let hk = h.truncatingRemainder(dividingBy: nf)
        let span = 1 / scale
        // The head's own colour only as the ring closes (the seed's end cap from 0.95); before,
        // the head is the fill's colour where it is.
        let strength = plain ? 0 : appearance.headStrength(at: value)
        // A one-LED ring hands the head to no neighbour: it keeps the head once half lit.
        let slope: Float = n == 1 ? 2 : ProgressMapper.headSlope

        @inline(__always) func fill(_ x: Float) -> LinearRGB {
            // The first lap's seam at 12 o'clock is the start colour by construction (x = 0);
            // the turning gradient clamps, so one turn behind the head is the start colour.
            let u = (x - gradientStart) / span
            return gradient.color(at: turns ? clamp01(u) : u)
        }

        for k in 0..<n {
            let kf = Float(k)
            let reach = soft ? P - kf : (k == 0 ? Swift.max(P - 0.5, 0) : P - 0.5 - kf)
            guard soft ? reach > 0 : reach >= 0 else {
                out[k] = track
                continue
            }
            // The latest lap that reached this LED, and its fill position.
            let lap = wraps ? (soft ? (reach / nf).rounded(.up) - 1 : (reach / nf).rounded(.down)) : 0
            let x = kf + lap * nf
            let coverage: Float = soft ? Swift.min(P - x, 1) : 1
            // Distance ahead of the head's centre, round the circle: the shadow falls on the
            // LED under the leading edge and fades out over the next one.
            var shade: Float = 1
            if shadowAmount > 0 {
                var d = kf + 0.5 - hk
                if d < 0 { d += nf }
                shade = 1 - shadowAmount * clamp01(2 - d)
            }
            var c = fill(x)
            var under = track
            if coverage < 1 {
                under = lap >= 1 ? fill(x - nf) : track
                c = under.mixed(with: c, amount: coverage)
            }
            if shade < 1 { c = c.scaled(by: shade) }
            // The head on top, a third of an LED at full strength on each side of its centre and
            // fading out over the next two thirds: a slow move changes no LED by more than half
            // of full light per third of an LED (a head full within half an LED, as before, made
            // the LED it enters jump by two thirds), and the LED nearest the head always shows at
            // least three quarters of it. Only lit positions carry it.
            var e = Swift.abs(x + 0.5 - h)
            // On a one-LED ring the lap underneath is the same LED: it keeps the head too.
            if lap >= 1 { e = Swift.min(e, Swift.abs(x - nf + 0.5 - h)) }
            let reachOfHead: Float = soft ? clamp01(slope * (1 - e)) : (e < 0.5 ? 1 : 0)
            let w = reachOfHead * strength
            if soft && coverage < 1 && w > 0 {
                // The LED the fill is entering: its covered part lies under the head, so it turns
                // from what is beneath straight to the head, at the head's pace, rather than
                // taking the fill's light and the head's at once.
                let headed = under.scaled(by: shade).mixed(with: head, amount: reachOfHead)
                out[k] = strength >= 1 ? headed : c.mixed(with: headed, amount: strength)
                continue
            }
            out[k] = w >= 1 ? head : (w > 0 ? c.mixed(with: head, amount: w) : c)
        }
    }

    /// How fast the head's weight changes per LED of travel: 1.5 keeps a third of an LED's move
    /// within half of full light on any LED, and the head LED at three quarters or more.
    @usableFromInline static let headSlope: Float = 1.5

    /// Lights every one of `out.count` LEDs in the gradient, as a full ring (`wraps`) or bar
    /// shows it, without track, head or shadow: a look that is a status (`LookFill.ring`).
    @inlinable
    public func drawWhole(into out: UnsafeMutableBufferPointer<LinearRGB>, wraps: Bool) {
        let n = out.count
        guard n > 0 else { return }
        let nf = Float(n)
        // The same positions the full fill gives them: around the circle, or end to end.
        let scale: Float = wraps && appearance.gradient.span == .ring ? 1 / nf : 1 / Swift.max(nf - 1, 1)
        for k in 0..<n { out[k] = appearance.gradient.color(at: Float(k) * scale) }
    }

    /// Draws the indeterminate spinner with its tail at `tail` turns from 12 o'clock, on a circle
    /// of `out.count` LEDs: an arc of `appearance.spinner.arc` of the ring, start colour at the
    /// tail and end colour at the leading edge.
    @inlinable
    public func drawSpinner(tail: Double, into out: UnsafeMutableBufferPointer<LinearRGB>) {
        let n = out.count
        guard n > 0 else { return }
        let nf = Float(n)
        let length = clamp01(appearance.spinner.arc) * nf
        let turns = tail.isFinite ? tail - tail.rounded(.down) : 0
        let T = Float(turns) * nf
        let soft = appearance.cap == .round
        for k in 0..<n {
            // k and T are both in [0, N), so one conditional add wraps d (no fmodf per LED).
            var d = Float(k) - T
            if d < 0 { d += nf }
            // Overlap of the LED's arc [d, d+1) with the spinner's arc [0, L) and its wrap [N, N+L).
            let direct = Swift.max(0, Swift.min(d + 1, length) - d)
            let wrapped = Swift.max(0, Swift.min(d + 1, nf + length) - Swift.max(d, nf))
            var coverage = Swift.min(1, direct + wrapped)
            if !soft { coverage = coverage >= 0.5 ? 1 : 0 }
            guard coverage > 0 else {
                out[k] = track
                continue
            }
            let u: Float = d + 1 > nf ? 0 : (d + 0.5) / Swift.max(length, 1)
            out[k] = track.mixed(with: appearance.gradient.color(at: Swift.min(u, 1)), amount: coverage)
        }
    }
}
