/// Names one observer added to a `RingControl`, so it can be removed again.
public struct ObserverID: Hashable, Sendable {
    /// The number the control handed out.
    public let rawValue: UInt64

    /// Wraps a number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}
