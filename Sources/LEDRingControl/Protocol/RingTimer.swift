
/// A ring that drains (or fills, `up`) in real time over `duration`, then switches to the look
/// `then`. Kept on the controller's monotonic clock while running; the state file carries its
/// start on the wall clock across a restart, so a restart or reload does not disturb it.
public struct RingTimer: Equatable, Sendable {
    /// When it started (monotonic seconds; moved on by a pause).
    public var start: Double
    /// How long it runs, seconds.
    public var duration: Double
    /// Whether the ring fills instead of draining.
    public var up: Bool
    /// When it was paused, or nil while running.
    public var pausedAt: Double?
    /// The look to switch to at the end, if any.
    public var then: String?
    /// The notification to show from the end on, if any (it covers the timer's ring unless it
    /// names rings).
    public var notice: Notice?

    /// A timer.
    public init(start: Double, duration: Double, up: Bool = false, pausedAt: Double? = nil, then: String? = nil,
                notice: Notice? = nil) {
        self.start = start
        self.duration = duration
        self.up = up
        self.pausedAt = pausedAt
        self.then = then
        self.notice = notice
    }

    /// Longest timer: a day.
    public static let maxDuration = 86_400.0

    /// Seconds run by `t`.
    public func elapsed(at t: Double) -> Double {
        Swift.min(duration, Swift.max(0, (pausedAt ?? t) - start))
    }

    /// Seconds left at `t`.
    public func remaining(at t: Double) -> Double { duration - elapsed(at: t) }

    /// The ring's value at `t`: the part left (draining) or done (`up`), in laps.
    public func value(at t: Double) -> Double {
        guard duration > 0 else { return up ? 1 : 0 }
        let done = elapsed(at: t) / duration
        return up ? done : 1 - done
    }

    /// When it ends, or nil while paused.
    public var end: Double? { pausedAt == nil ? start + duration : nil }
}

/// What a `timer` request does to a ring's timer.
public enum TimerAction: Equatable, Sendable {
    /// Starts (or restarts) it; at the end the ring switches to the `then` look and/or `notify`
    /// is shown.
    case start(duration: Double, up: Bool, then: String?, notify: Notice? = nil)
    /// Holds it where it is.
    case pause
    /// Lets a paused one run on.
    case resume
    /// Removes it: the ring shows its own value again.
    case cancel
}
