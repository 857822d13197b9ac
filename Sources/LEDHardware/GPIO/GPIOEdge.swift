/// The direction of a level change on an input line.
public enum GPIOEdge: String, Hashable, Sendable {
    /// Low to high.
    case rising
    /// High to low.
    case falling

    /// The level the line has after this edge.
    public var level: Bool { self == .rising }
}
