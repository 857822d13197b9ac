/// A 16-bit-per-channel drive level, for outputs with more than 8 bits of range (APA102's
/// 5-bit current field used as extra dynamic range).
public struct RGB16: Hashable, Sendable {
    /// Red drive level, 0…65535.
    public var r: UInt16
    /// Green drive level, 0…65535.
    public var g: UInt16
    /// Blue drive level, 0…65535.
    public var b: UInt16

    /// Makes a colour from three 16-bit drive levels.
    @inlinable
    public init(r: UInt16, g: UInt16, b: UInt16) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// All channels off.
    public static let black = RGB16(r: 0, g: 0, b: 0)
}
