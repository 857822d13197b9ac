/// One concrete SPI symbol layout: how long a symbol is and how many of its leading bits are
/// high for a data 0 and for a data 1.
public struct SymbolScheme: Hashable, Sendable, CustomStringConvertible {
    /// The symbol length.
    public let width: SymbolWidth
    /// Leading high SPI bits in the symbol of a data 0.
    public let zeroHighBits: Int
    /// Leading high SPI bits in the symbol of a data 1.
    public let oneHighBits: Int

    /// Makes a scheme; the encoder only builds ones where `1 ≤ zero < one < width`, so every
    /// symbol starts high and ends low.
    public init(width: SymbolWidth, zeroHighBits: Int, oneHighBits: Int) {
        self.width = width
        self.zeroHighBits = zeroHighBits
        self.oneHighBits = oneHighBits
    }

    /// The symbol bits for one data bit, right-aligned in a byte: `highBits` ones then zeros.
    public func pattern(for bit: Bool) -> UInt8 {
        let high = bit ? oneHighBits : zeroHighBits
        let ones = UInt16((1 << high) - 1)
        return UInt8(truncatingIfNeeded: ones << UInt16(width.bits - high))
    }

    /// E.g. "4-bit 1000/1110".
    public var description: String {
        func text(_ bit: Bool) -> String {
            let high = bit ? oneHighBits : zeroHighBits
            return String(repeating: "1", count: high) + String(repeating: "0", count: width.bits - high)
        }
        return "\(width.bits)-bit \(text(false))/\(text(true))"
    }
}
