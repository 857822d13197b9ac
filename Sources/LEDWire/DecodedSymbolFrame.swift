/// What an SPI symbol stream looks like to the first LED: the waveform bit by bit, and the
/// colours those bits spell.
public struct DecodedSymbolFrame: Hashable, Sendable {
    /// Low time before the first rising edge, in ns (the leading zero bytes).
    public var leadingLowNs: Double
    /// Every data bit in wire order. The last bit's `lowNs` runs to the end of the frame and
    /// so equals `trailingLowNs`.
    public var bits: [SymbolBit]
    /// Low time after the last falling edge, in ns: the latch the chip sees.
    public var trailingLowNs: Double
    /// The colours, one per LED, channels put back from wire order (w is 0 for RGB chips).
    public var pixels: [RGBW8]

    /// Makes a decoded frame.
    public init(leadingLowNs: Double, bits: [SymbolBit], trailingLowNs: Double, pixels: [RGBW8]) {
        self.leadingLowNs = leadingLowNs
        self.bits = bits
        self.trailingLowNs = trailingLowNs
        self.pixels = pixels
    }
}
