import RingModel

/// Colour-temperature presets: the tint a white light source of that kind has, FastLED's
/// `ColorTemperature` values. They multiply with a strip correction (see `combined(with:)`) to
/// make the ring's white warmer or cooler.
extension ColorCorrection {
    /// 1900 K candle light (0xFF9329).
    public static let candle = ColorCorrection(name: "candle", hex: 0xFF9329)
    /// 2600 K 40 W tungsten bulb (0xFFC58F).
    public static let tungsten40W = ColorCorrection(name: "tungsten-40w", hex: 0xFFC58F)
    /// 2850 K 100 W tungsten bulb (0xFFD6AA).
    public static let tungsten100W = ColorCorrection(name: "tungsten-100w", hex: 0xFFD6AA)
    /// 3200 K halogen (0xFFF1E0).
    public static let halogen = ColorCorrection(name: "halogen", hex: 0xFFF1E0)
    /// 5200 K carbon arc (0xFFFAF4).
    public static let carbonArc = ColorCorrection(name: "carbon-arc", hex: 0xFFFAF4)
    /// 5400 K high-noon sun (0xFFFFFB).
    public static let highNoonSun = ColorCorrection(name: "high-noon-sun", hex: 0xFFFFFB)
    /// 6000 K direct sunlight (0xFFFFFF): no change.
    public static let directSunlight = ColorCorrection(name: "direct-sunlight", hex: 0xFFFFFF)
    /// 7000 K overcast sky (0xC9E2FF).
    public static let overcastSky = ColorCorrection(name: "overcast-sky", hex: 0xC9E2FF)
    /// 20000 K clear blue sky (0x409CFF).
    public static let clearBlueSky = ColorCorrection(name: "clear-blue-sky", hex: 0x409CFF)

    /// Every colour-temperature preset, warm to cool.
    public static let temperatures: [ColorCorrection] = [
        .candle, .tungsten40W, .tungsten100W, .halogen, .carbonArc, .highNoonSun, .directSunlight,
        .overcastSky, .clearBlueSky,
    ]

    /// This correction followed by `other` (a strip type and a colour temperature): the factors
    /// multiply, as FastLED combines its correction and temperature.
    public func combined(with other: ColorCorrection) -> ColorCorrection {
        ColorCorrection(name: name + "+" + other.name,
                        factors: LinearRGB(r: factors.r * other.factors.r, g: factors.g * other.factors.g,
                                           b: factors.b * other.factors.b))
    }
}
