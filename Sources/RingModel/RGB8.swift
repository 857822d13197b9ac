/// An 8-bit-per-channel colour as it goes to an LED driver (drive levels, not sRGB).
public struct RGB8: Hashable, Sendable {
    /// Red drive level.
    public var r: UInt8
    /// Green drive level.
    public var g: UInt8
    /// Blue drive level.
    public var b: UInt8

    /// How many drive levels a channel has: the steps a ring's light can change by, which pace a
    /// slow timer's frames.
    public static let levels = 256

    /// Makes a colour from three drive levels.
    @inlinable
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// All channels off.
    public static let black = RGB8(r: 0, g: 0, b: 0)

    /// `#rrggbb` in lower case, the form frames are printed and compared in.
    public var hex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = "#"
        for byte in [r, g, b] {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }

    /// Parses `#rrggbb` or `rrggbb` (either case); nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(r: UInt8(truncatingIfNeeded: value >> 16),
                  g: UInt8(truncatingIfNeeded: value >> 8),
                  b: UInt8(truncatingIfNeeded: value))
    }
}
