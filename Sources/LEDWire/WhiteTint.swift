import RingModel

/// The colour of an RGBW LED's white emitter, as the R, G, B drive fractions that make the same
/// light: full white (255) looks like (r, g, b) · 255 on the colour emitters.
///
/// The presets are estimates: the sRGB colour of a black body at the nominal temperature of each
/// SK6812 RGBW white variant (Mitchell Charity's blackbody table: 3000 K #ffb46b, 4500 K #ffdbba,
/// 6500 K #fff9fd), made linear, with the white LED as bright as the red emitter. A measured
/// tint (match the white LED with R, G, B by eye or meter) is better where colour matters.
public struct WhiteTint: Hashable, Sendable {
    /// Red fraction.
    public var r: Float
    /// Green fraction.
    public var g: Float
    /// Blue fraction.
    public var b: Float

    /// Makes a tint from drive fractions (0 for a channel the white LED has none of).
    public init(r: Float, g: Float, b: Float) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// A tint from an sRGB colour as people write it, made linear (drive fractions).
    public init(srgb colour: RGB8) {
        let linear = SRGB.linear(colour)
        self.init(r: linear.r, g: linear.g, b: linear.b)
    }

    /// Warm white, about 3000 K (SK6812 RGBW "WW").
    public static let warm = WhiteTint(srgb: RGB8(r: 0xFF, g: 0xB4, b: 0x6B))
    /// Neutral white, about 4500 K (SK6812 RGBW "NW"), the default.
    public static let neutral = WhiteTint(srgb: RGB8(r: 0xFF, g: 0xDB, b: 0xBA))
    /// Cold white, about 6500 K (SK6812 RGBW "CW").
    public static let cold = WhiteTint(srgb: RGB8(r: 0xFF, g: 0xF9, b: 0xFD))
}
