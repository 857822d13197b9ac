/// The sRGB transfer curve (IEC 61966-2-1): how the hex colours people write map to linear light.
///
/// RingRender uses the C maths library (`powf`, `cbrtf`) and no Foundation, so it stays small and
/// portable to any platform Swift runs on.
public enum SRGB {
    /// Decodes one sRGB-encoded channel (0…1) to linear light (0…1).
    @inlinable
    public static func toLinear(_ v: Float) -> Float {
        if v <= 0.04045 { return v / 12.92 }
        return pow((v + 0.055) / 1.055, 2.4)
    }

    /// Encodes one linear channel (0…1) with the sRGB curve.
    @inlinable
    public static func fromLinear(_ v: Float) -> Float {
        if v <= 0.0031308 { return v * 12.92 }
        return 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// The linear-light colour an 8-bit sRGB colour (a web/hex colour) stands for.
    @inlinable
    public static func linear(_ c: RGB8) -> LinearRGB {
        LinearRGB(r: toLinear(Float(c.r) / 255), g: toLinear(Float(c.g) / 255), b: toLinear(Float(c.b) / 255))
    }

    /// The nearest 8-bit sRGB colour to a linear-light colour (for showing it on a screen).
    @inlinable
    public static func encoded(_ c: LinearRGB) -> RGB8 {
        RGB8(r: quantise(fromLinear(clamp01(c.r))), g: quantise(fromLinear(clamp01(c.g))),
             b: quantise(fromLinear(clamp01(c.b))))
    }

    @inlinable
    static func quantise(_ v: Float) -> UInt8 { UInt8(v * 255 + 0.5) }
}

/// `x` limited to 0…1; NaN becomes 0 so a bad number can never light an LED.
@inlinable
public func clamp01(_ x: Float) -> Float {
    if !(x > 0) { return 0 }
    return x < 1 ? x : 1
}

/// `base` raised to `exponent` for positive bases (0 for base ≤ 0 or NaN).
@inlinable
public func pow(_ base: Float, _ exponent: Float) -> Float {
    if !(base > 0) { return 0 }
    return LibM.powf(base, exponent)
}
