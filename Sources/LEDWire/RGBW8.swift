import RingModel

/// An 8-bit colour with a separate white channel, as SK6812 RGBW and `/dev/leds` RGBW carry it.
public struct RGBW8: Hashable, Sendable {
    /// Red drive level.
    public var r: UInt8
    /// Green drive level.
    public var g: UInt8
    /// Blue drive level.
    public var b: UInt8
    /// White drive level.
    public var w: UInt8

    /// Makes a colour from four drive levels.
    @inlinable
    public init(r: UInt8, g: UInt8, b: UInt8, w: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.w = w
    }

    /// The three colour channels, dropping white.
    @inlinable
    public var rgb: RGB8 { RGB8(r: r, g: g, b: b) }
}
