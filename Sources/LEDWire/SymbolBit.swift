/// One data bit as a decoder saw it on the wire: its value and its pulse lengths.
public struct SymbolBit: Hashable, Sendable {
    /// The data bit the high time stands for.
    public var value: Bool
    /// From the rising edge to the falling edge, in ns.
    public var highNs: Double
    /// From the falling edge to the next rising edge (or the end of the frame), in ns.
    public var lowNs: Double

    /// Makes a decoded bit.
    public init(value: Bool, highNs: Double, lowNs: Double) {
        self.value = value
        self.highNs = highNs
        self.lowNs = lowNs
    }
}
