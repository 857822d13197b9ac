/// One edge the kernel saw on a requested input line.
public struct GPIOEdgeEvent: Hashable, Sendable {
    /// The line's index in the request (the order of `GPIOLineSelection.lines`).
    public var index: Int
    /// Which way the line went.
    public var edge: GPIOEdge
    /// When, in nanoseconds of `CLOCK_MONOTONIC` (the kernel's default event clock).
    public var timestampNanoseconds: UInt64

    /// Creates an event.
    public init(index: Int, edge: GPIOEdge, timestampNanoseconds: UInt64) {
        self.index = index
        self.edge = edge
        self.timestampNanoseconds = timestampNanoseconds
    }
}
