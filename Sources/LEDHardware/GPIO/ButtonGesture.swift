/// Tells a press from a long press by how long the (debounced) button is held. A long press
/// fires as soon as the button has been held long enough, so the person sees the effect while
/// still holding it; the release after it does nothing more.
public struct ButtonGesture: Hashable, Sendable {
    /// What the button did.
    public enum Gesture: Hashable, Sendable {
        /// Pressed and released before the long-press time.
        case press
        /// Held for at least the long-press time.
        case longPress
    }

    /// How long a press must last to be a long press, in nanoseconds.
    public let longPressNanoseconds: UInt64
    private var pressedAt: UInt64?
    private var longPressFired = false

    /// Creates the recogniser (default long press: 0.8 s).
    public init(longPressNanoseconds: UInt64 = 800_000_000) {
        self.longPressNanoseconds = longPressNanoseconds
    }

    /// Whether the button is held now.
    public var isPressed: Bool { pressedAt != nil }

    /// When `tick` must be called to fire a long press, while the button is held.
    public var deadlineNanoseconds: UInt64? {
        guard let pressedAt, !longPressFired else { return nil }
        return pressedAt &+ longPressNanoseconds
    }

    /// The button went down at `timestamp`.
    public mutating func press(at timestamp: UInt64) {
        pressedAt = timestamp
        longPressFired = false
    }

    /// The button came up at `timestamp`: a press, or a long press not yet reported.
    public mutating func release(at timestamp: UInt64) -> Gesture? {
        guard let start = pressedAt else { return nil }
        pressedAt = nil
        if longPressFired { return nil }
        return timestamp &- start >= longPressNanoseconds ? .longPress : .press
    }

    /// Fires the long press once the button has been held long enough at `now`.
    public mutating func tick(now: UInt64) -> Gesture? {
        guard let deadline = deadlineNanoseconds, now >= deadline else { return nil }
        longPressFired = true
        return .longPress
    }
}
