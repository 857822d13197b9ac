/// One ring's value over time: the target, the transition towards it, and whether it spins.
///
/// Time is passed in (seconds on any monotonic clock the caller owns); nothing here reads a clock.
public struct RingState: Hashable, Sendable {
    /// Largest value a ring shows: 100 laps (the renderer draws no more, a ring's range maps no further).
    public static let maxProgress: Double = 100

    /// The value the ring is heading for.
    public private(set) var target: Double
    /// The value the current transition started from.
    public private(set) var from: Double
    /// When the current transition started.
    public private(set) var startTime: Double
    /// How long it lasts, seconds (0 jumps).
    public private(set) var duration: Double
    /// Its timing curve.
    public private(set) var curve: Curve
    /// When the spinner started, or nil when the ring shows its value.
    public private(set) var spinningSince: Double?

    /// A ring resting at `value`.
    public init(value: Double = 0) {
        target = value
        from = value
        startTime = 0
        duration = 0
        curve = .linear
        spinningSince = nil
    }

    /// The value shown at time `t`.
    public func shown(at t: Double) -> Double {
        guard duration > 0, t < startTime + duration else { return target }
        let x = Swift.max(0, t - startTime) / duration
        return from + (target - from) * curve.value(at: x)
    }

    /// Heads for `value` from what is shown at `t`, over `duration` seconds; stops any spinner.
    public mutating func set(_ value: Double, at t: Double, duration: Double = 0, curve: Curve = .easeInOut) {
        from = shown(at: t)
        target = value
        startTime = t
        self.duration = duration.isFinite ? Swift.max(0, duration) : 0
        self.curve = curve
        spinningSince = nil
    }

    /// Starts the indeterminate spinner at `t` (the value is kept for when it stops).
    public mutating func spin(at t: Double) {
        if spinningSince == nil { spinningSince = t }
    }

    /// Stops the spinner; the ring shows its value again.
    public mutating func stopSpinning() {
        spinningSince = nil
    }

    /// When the current transition ends (the start time for a jump); spinners are not counted.
    public var transitionEnd: Double { startTime + duration }

    /// Whether the picture can still change after `t` (a transition running, or a spinner).
    public func isAnimating(at t: Double) -> Bool {
        spinningSince != nil || (duration > 0 && t < startTime + duration)
    }
}
