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
    @usableFromInline let start: LinearRGB
    @usableFromInline let shadowKeep: Float

    /// Largest value drawn: 100 laps.
    public static let maxProgress: Double = 100

    /// Makes a mapper for one appearance.
    public init(appearance: RingAppearance) {
        self.appearance = appearance
        self.track = appearance.trackColor
        self.head = appearance.headColor
        self.start = appearance.gradient.startColor
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

    @inlinable
    func draw(progress p: Double, into out: UnsafeMutableBufferPointer<LinearRGB>, wraps: Bool) {
        let n = out.count
        guard n > 0 else { return }
        let nf = Float(n)
        let value = p.isFinite ? Swift.min(Swift.max(p, 0), ProgressMapper.maxProgress) : 0
        // Everything below works in LED units: the head sits at position P.
        let P = Float(value) * nf
        let soft = appearance.cap == .round
        // Lit amount of the layer whose leading edge is at x (x < P): soft caps blend by coverage,
        // hard caps light an LED once half of it is covered.
        let threshold: Float = soft ? 0 : 0.5
        guard P > threshold else {
            for k in 0..<n { out[k] = track }
            return
        }
        // The head: the last LED that is (partly) lit, and how much of it is covered.
        let headX = soft ? (P.rounded(.up) - 1) : (P - 0.5).rounded(.down)
        let headCoverage: Float = soft ? Swift.min(P - headX, 1) : 1
        let gradient = appearance.gradient
        // `ring`: locations around the whole circle (a bar: along the whole bar, last LED = end).
        // `fill`: stretched so the LED before the head reaches the end colour.
        let ringScale: Float = wraps ? 1 / nf : 1 / Swift.max(nf - 1, 1)
        let fillScale: Float = 1 / Swift.max(P - 1, 1)
        let scale = gradient.span == .ring ? ringScale : fillScale

        @inline(__always) func fill(_ x: Float, position k: Int) -> LinearRGB {
            // Start cap: 12 o'clock always shows the start colour, never the end colour (the
            // seeds' fix for the seam where the gradient's ends meet).
            if k == 0 { return start }
            if x == headX { return head }
            let c = gradient.color(at: x * scale)
            // Soft caps hand the highlight over from the previous LED as the head enters the next
            // one, so a slow transition never jumps.
            if soft, x == headX - 1 { return c.mixed(with: head, amount: 1 - headCoverage) }
            return c
        }

        for k in 0..<n {
            let kf = Float(k)
            // The most recent lap that reached this LED: leading edge x = k + j·N < P.
            // Soft caps light any LED the head has entered (reach > 0); hard caps light an LED once
            // half of it is covered (reach ≥ 0 with the threshold taken off).
            let reach = P - threshold - kf
            guard soft ? reach > 0 : reach >= 0 else {
                out[k] = track
                continue
            }
            let lap = wraps ? (soft ? (reach / nf).rounded(.up) - 1 : (reach / nf).rounded(.down)) : 0
            let x = kf + lap * nf
            let coverage: Float = soft ? Swift.min(P - x, 1) : 1
            let under = lap >= 1 ? fill(x - nf, position: k) : track
            out[k] = coverage >= 1 ? fill(x, position: k) : under.mixed(with: fill(x, position: k), amount: coverage)
        }

        // Shadow: once the ring has closed (p ≥ 1 − 1/N) the earlier lap just ahead of the head is
        // dimmed so the head stands out, as the activity-ring seed does with `.shadow`.
        guard wraps, n > 1, P >= nf - 1, shadowKeep < 1 else { return }
        let headK = Int(headX.truncatingRemainder(dividingBy: nf))
        let aheadK = (headK + 1) % n
        if soft {
            // The shadow covers [P, P+1): the uncovered part of the head LED and, as the head
            // advances, more and more of the next LED.
            let headLap = (headX / nf).rounded(.down)
            let under = headLap >= 1 ? fill(headX - nf, position: headK) : track
            out[headK] = under.scaled(by: shadowKeep).mixed(with: fill(headX, position: headK), amount: headCoverage)
            out[aheadK] = out[aheadK].scaled(by: 1 - (1 - shadowKeep) * headCoverage)
        } else {
            out[aheadK] = out[aheadK].scaled(by: shadowKeep)
        }
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
