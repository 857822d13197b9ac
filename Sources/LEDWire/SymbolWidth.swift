/// How many SPI bits stand for one LED data bit.
public enum SymbolWidth: Int, Hashable, Sendable, CaseIterable {
    /// Four SPI bits per data bit: two data bits per SPI byte, half the buffer of `eightBit`,
    /// so longer chains fit in one spidev transfer. Preferred wherever the clock allows it.
    case fourBit = 4
    /// Eight SPI bits per data bit: one data bit per SPI byte, for faster clocks.
    case eightBit = 8

    /// SPI bits per symbol.
    public var bits: Int { rawValue }
}
