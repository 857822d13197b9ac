/// A colour in linear light: 0 is dark, 1 is the channel's full drive; values above 1 are allowed
/// in intermediate maths and clamped when a frame is quantised.
public struct LinearRGB: Hashable, Sendable {
    /// Red light, linear.
    public var r: Float
    /// Green light, linear.
    public var g: Float
    /// Blue light, linear.
    public var b: Float

    /// Makes a linear colour from its three channels.
    @inlinable
    public init(r: Float, g: Float, b: Float) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// No light.
    public static let black = LinearRGB(r: 0, g: 0, b: 0)
    /// Every channel at full drive.
    public static let white = LinearRGB(r: 1, g: 1, b: 1)

    /// Every channel multiplied by `factor`: dimming in linear light keeps the hue.
    @inlinable
    public func scaled(by factor: Float) -> LinearRGB {
        LinearRGB(r: r * factor, g: g * factor, b: b * factor)
    }

    /// The straight blend from `self` (at 0) to `other` (at 1), in linear light, which is how
    /// light from two sources adds up physically (the right way to antialias a partly lit LED).
    @inlinable
    public func mixed(with other: LinearRGB, amount t: Float) -> LinearRGB {
        LinearRGB(r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t)
    }

    /// The largest of the three channels.
    @inlinable
    public var maxChannel: Float { Swift.max(r, Swift.max(g, b)) }
}
