/// Turns the raw edges of a bouncing contact into clean level changes: a new level counts once
/// it has held for the debounce window. A pure state machine fed with event timestamps, so
/// scripted bounces test it without sleeping.
///
/// A change is reported at the time the contact first reached the new level (the start of the
/// window), so press durations are measured from the real press, not from the end of the bounce.
public struct Debouncer: Hashable, Sendable {
    /// A confirmed level change.
    public struct Change: Hashable, Sendable {
        /// The new stable level.
        public var level: Bool
        /// When the contact first reached it, in nanoseconds.
        public var timestampNanoseconds: UInt64

        /// Creates a change.
        public init(level: Bool, timestampNanoseconds: UInt64) {
            self.level = level
            self.timestampNanoseconds = timestampNanoseconds
        }
    }

    /// How long a level must hold to count, in nanoseconds.
    public let windowNanoseconds: UInt64
    /// The last confirmed level.
    public private(set) var level: Bool
    /// Edges that were undone within the window (bounces), for diagnostics.
    public private(set) var ignoredBounces = 0
    private var pending: Change?

    /// Starts at `initialLevel` (read from the line when it was requested).
    ///
    /// - Parameter windowNanoseconds: 5–20 ms suits push buttons (default 10 ms).
    public init(initialLevel: Bool, windowNanoseconds: UInt64 = 10_000_000) {
        self.level = initialLevel
        self.windowNanoseconds = windowNanoseconds
    }

    /// When `tick` must be called to confirm a pending level if no further edge comes.
    public var deadlineNanoseconds: UInt64? {
        pending.map { $0.timestampNanoseconds &+ windowNanoseconds }
    }

    /// Feeds one raw edge: the contact is now at `newLevel`; returns the change this confirms,
    /// if the previous pending level had already held long enough.
    public mutating func feed(level newLevel: Bool, at timestamp: UInt64) -> Change? {
        let confirmed = tick(now: timestamp)
        if newLevel == level {
            // Back to the stable level within the window: the pending level was a bounce.
            if pending != nil { ignoredBounces += 1 }
            pending = nil
        } else if pending == nil {
            pending = Change(level: newLevel, timestampNanoseconds: timestamp)
        }
        // A repeated edge to the pending level (a missed opposite edge) keeps the first timestamp.
        return confirmed
    }

    /// Confirms the pending level once it has held for the window at `now`.
    public mutating func tick(now: UInt64) -> Change? {
        guard let candidate = pending, now >= candidate.timestampNanoseconds &+ windowNanoseconds else { return nil }
        pending = nil
        level = candidate.level
        return candidate
    }
}
