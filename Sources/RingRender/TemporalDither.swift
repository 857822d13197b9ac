import RingModel

/// Temporal dithering to 8 bits: each LED's rounding error is carried to its next frame, so the
/// average over a few frames equals the exact drive level and a slow fade at low brightness has
/// no visible steps.
///
/// Errors are kept in 8-bit steps, one float per channel per LED, in buffers made once. A frame is
/// quantised into a pending error buffer and `commit()` makes it current; that lets the current
/// limiter try a frame, scale it and quantise it again without carrying the rejected try's error.
public struct TemporalDither: Sendable {
    /// The error each LED carries into the next frame, in 8-bit steps (−0.5…0.5).
    public private(set) var error: [LinearRGB]
    private var pending: [LinearRGB]
    /// Each LED's exact drive level in the last committed frame, to tell a changing LED from a
    /// still one.
    private var previous: [LinearRGB]
    private var pendingPrevious: [LinearRGB]
    /// Whether LEDs whose level did not change since the last frame are dithered too. Off, a still
    /// LED is rounded plainly and so sends the same bytes every frame, whatever else animates.
    public var dithersStillLEDs = true
    /// The lowest exact level, in 8-bit steps, at which a channel is dithered; below it the
    /// channel is rounded plainly (see `minimumLevel(fps:)`).
    public var minimumLevel: Float = 0
    private var pendingResidual: Float = 0
    /// How far, in 8-bit steps, the last committed frame's channels sit from a whole level, if it
    /// was dithered (0 when it was not): exact while below `refreshThreshold`, and a lower bound
    /// once above it, where measuring stops (only the comparison matters).
    public private(set) var residual: Float = 0

    /// How far from a whole 8-bit level a channel must be for dithering it to be worth refreshing
    /// for: below 1/32 of a step the average moves by less than the eye or the LED resolves.
    public static let refreshThreshold: Float = 1.0 / 32

    /// A dither stage for `count` LEDs, with no error carried yet.
    public init(count: Int) {
        error = Array(repeating: .black, count: Swift.max(count, 0))
        pending = error
        // NaN never equals anything, so every LED counts as changing on the first frame.
        previous = Array(repeating: LinearRGB(r: .nan, g: .nan, b: .nan), count: Swift.max(count, 0))
        pendingPrevious = previous
    }

    /// The lowest level worth dithering at `fps` frames per second, in 8-bit steps.
    ///
    /// A dithered channel alternates between two neighbouring levels, at up to half the frame
    /// rate. That alternation is a flicker of one step, and a step is a large part of a low level
    /// (level 2 → 3 is 50 %). At 30 fps the flicker is at 15 Hz, where the eye sees a few percent,
    /// so only levels of 32 and up (one step ≤ 3 %) are dithered; the eye's sensitivity falls
    /// steeply with frequency, so each doubling of the frame rate halves the level (16 at 60 fps,
    /// 8 at 120 fps). Below the level a slow fade steps, but one step at a time in one direction:
    /// it never flickers back and forth.
    public static func minimumLevel(fps: Double) -> Float {
        guard fps.isFinite, fps > 0 else { return 255 }
        return Float(Swift.min(Swift.max(32 * 30 / fps, 1), 255))
    }

    /// True while the last frame was dithered and some LED still sits between two levels, so
    /// showing more frames brings its average closer: a daemon keeps refreshing (at a low rate)
    /// only then.
    public var needsRefresh: Bool { residual > TemporalDither.refreshThreshold }

    /// Forgets every carried error (the next dithered frame starts from plain rounding).
    public mutating func reset() {
        for i in error.indices { error[i] = .black }
        residual = 0
    }

    /// Quantises drive levels (0…1) into `output`: with the carried error when `dithered`, plainly
    /// (`ColorPipeline.quantise`) otherwise. The new error is pending until `commit()`.
    ///
    /// No channel goes more than one step above its exact level, and a channel at 0 stays dark:
    /// the current limiter relies on both. A lit LED keeps level 1 on its brightest channel, so
    /// below one step it holds steady instead of blinking.
    public mutating func quantise(_ drive: UnsafeBufferPointer<LinearRGB>, into output: UnsafeMutableBufferPointer<RGB8>,
                                  dithered: Bool) {
        let count = Swift.min(drive.count, output.count, error.count)
        var worst: Float = 0
        let still = dithersStillLEDs
        let lowest = minimumLevel
        error.withUnsafeBufferPointer { carried in
          previous.withUnsafeBufferPointer { before in
            pendingPrevious.withUnsafeMutableBufferPointer { now in
              pending.withUnsafeMutableBufferPointer { next in
                for i in 0..<count {
                    let x = drive[i]
                    now[i] = x
                    // A still LED (same exact level as last frame) is rounded plainly unless asked
                    // otherwise, so it sends the same bytes every frame.
                    guard dithered, still || x != before[i] else {
                        output[i] = ColorPipeline.quantise(x)
                        next[i] = .black
                        continue
                    }
                    let e = carried[i]
                    if lowest > 1 {
                        // Only channels bright enough that one step cannot be seen flickering are
                        // dithered; the rest keep their plain level (which already keeps a lit
                        // LED lit).
                        let plain = ColorPipeline.quantise(x)
                        var r = (level: plain.r, error: Float(0)), g = (level: plain.g, error: Float(0))
                        var b = (level: plain.b, error: Float(0))
                        // How far the dithered channels sit from a whole level (for `needsRefresh`).
                        var far: Float = 0
                        if x.r * 255 >= lowest { r = TemporalDither.channel(x.r, e.r); far = TemporalDither.fraction(x.r) }
                        if x.g * 255 >= lowest {
                            g = TemporalDither.channel(x.g, e.g)
                            far = Swift.max(far, TemporalDither.fraction(x.g))
                        }
                        if x.b * 255 >= lowest {
                            b = TemporalDither.channel(x.b, e.b)
                            far = Swift.max(far, TemporalDither.fraction(x.b))
                        }
                        output[i] = RGB8(r: r.level, g: g.level, b: b.level)
                        next[i] = LinearRGB(r: r.error, g: g.error, b: b.error)
                        worst = Swift.max(worst, far)
                        continue
                    }
                    var r = TemporalDither.channel(x.r, e.r), g = TemporalDither.channel(x.g, e.g)
                    var b = TemporalDither.channel(x.b, e.b)
                    if r.level == 0 && g.level == 0 && b.level == 0 {
                        let xr = clamp01(x.r), xg = clamp01(x.g), xb = clamp01(x.b)
                        if xr + xg + xb > 0 {
                            if xr >= xg && xr >= xb { r = TemporalDither.forced(xr, e.r) } else if xg >= xb {
                                g = TemporalDither.forced(xg, e.g)
                            } else { b = TemporalDither.forced(xb, e.b) }
                        }
                    }
                    output[i] = RGB8(r: r.level, g: g.level, b: b.level)
                    next[i] = LinearRGB(r: r.error, g: g.error, b: b.error)
                    // Only whether some LED is far enough from a whole level matters, so stop
                    // measuring once one is.
                    if worst <= TemporalDither.refreshThreshold {
                        let farthest = Swift.max(TemporalDither.fraction(x.r),
                                                 Swift.max(TemporalDither.fraction(x.g), TemporalDither.fraction(x.b)))
                        worst = Swift.max(worst, farthest)
                    }
                }
              }
            }
          }
        }
        pendingResidual = worst
    }

    /// Makes the last `quantise` the current frame: its error is carried from now on.
    public mutating func commit() {
        swap(&error, &pending)
        swap(&previous, &pendingPrevious)
        residual = pendingResidual
    }

    /// `x + 1.5·2²³`: adding it to a float of magnitude below 2²² leaves the float's mantissa
    /// holding x rounded to the nearest integer (ties to even) in its low bits, so
    /// `nearest(x) − 1.5·2²³` is x rounded and the low byte of its bit pattern is the rounded
    /// value for x in −0.5…255. (A literal, not a `static let`: reading a global costs a call.)
    @inline(__always)
    static func nearest(_ x: Float) -> Float { x + 12_582_912 }

    /// One dithered channel: the level nearest to exact + carried error, and the error left over.
    @inline(__always)
    static func channel(_ x: Float, _ carried: Float) -> (level: UInt8, error: Float) {
        let exact = clamp01(x) * 255
        // A dark channel stays dark, whatever error it carries: no ghost light on off LEDs.
        guard exact > 0 else { return (0, 0) }
        let wanted = exact + carried
        // wanted > −0.5 (exact > 0, carried ≥ −0.5): `nearest` rounds it without a libm call or a
        // checked float-to-integer conversion, the two costliest steps of the frame.
        let bounded = Swift.min(wanted, 255)
        let level = TemporalDither.nearest(bounded)
        return (UInt8(truncatingIfNeeded: level.bitPattern), Swift.min(Swift.max(bounded - (level - 12_582_912), -0.5), 0.5))
    }

    /// The brightest channel of a lit LED that would round to black: held at level 1.
    @inline(__always)
    static func forced(_ x: Float, _ carried: Float) -> (level: UInt8, error: Float) {
        (1, Swift.max(x * 255 + carried - 1, -0.5))
    }

    /// How far a channel's exact level is from the nearest whole level, in steps (0 when dark or full).
    @inline(__always)
    static func fraction(_ x: Float) -> Float {
        let exact = clamp01(x) * 255
        return Swift.abs(exact - (TemporalDither.nearest(exact) - 12_582_912))
    }
}
