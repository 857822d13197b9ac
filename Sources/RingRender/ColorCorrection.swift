import RingModel

/// A per-channel scale of drive levels that makes an LED type's white look white: FastLED's
/// `setCorrection` idea, kept as named presets so a strip type can be chosen by name.
///
/// FastLED applies its correction bytes with `scale8` to PWM levels, and PWM is linear in light,
/// so a byte b is the linear factor b / 255 here (not an sRGB value to decode).
public struct ColorCorrection: Hashable, Sendable {
    /// The name the preset is chosen by (`typical-led-strip`).
    public let name: String
    /// The linear factor per channel, 0…1.
    public let factors: LinearRGB

    /// A correction from its name and FastLED-style bytes (`0xFFB0F0`).
    public init(name: String, hex: UInt32) {
        self.name = name
        self.factors = LinearRGB(r: Float((hex >> 16) & 0xFF) / 255, g: Float((hex >> 8) & 0xFF) / 255,
                                 b: Float(hex & 0xFF) / 255)
    }

    /// A correction from linear factors.
    public init(name: String, factors: LinearRGB) {
        self.name = name
        self.factors = factors
    }

    /// 5050 SMD strips and rings (FastLED `TypicalLEDStrip`, 0xFFB0F0): green is strong.
    public static let typicalLEDStrip = ColorCorrection(name: "typical-led-strip", hex: 0xFFB0F0)
    /// The same values under FastLED's other name, `TypicalSMD5050`.
    public static let typicalSMD5050 = ColorCorrection(name: "typical-smd5050", hex: 0xFFB0F0)
    /// 8 mm through-hole pixels (FastLED `Typical8mmPixel`, 0xFFE08C): blue is strong.
    public static let typical8mmPixel = ColorCorrection(name: "typical-8mm-pixel", hex: 0xFFE08C)
    /// Pixel strings, the same values (FastLED `TypicalPixelString`).
    public static let typicalPixelString = ColorCorrection(name: "typical-pixel-string", hex: 0xFFE08C)
    /// No correction (FastLED `UncorrectedColor`, 0xFFFFFF), the default.
    public static let uncorrected = ColorCorrection(name: "uncorrected", hex: 0xFFFFFF)

    /// Every strip-type preset, in the order help text lists them.
    public static let presets: [ColorCorrection] = [
        .uncorrected, .typicalLEDStrip, .typicalSMD5050, .typical8mmPixel, .typicalPixelString,
    ]

    /// A preset name that is neither a strip type nor a colour temperature.
    public struct UnknownName: Error, Equatable, Sendable {
        /// The name as given.
        public let name: String
    }

    /// Every preset and temperature name, for messages.
    public static var allNames: String {
        (presets + temperatures).map { $0.name }.joined(separator: ", ")
    }

    /// A preset, or several joined with `+` (a strip type and a colour temperature) combined;
    /// the first unknown part otherwise.
    public static func parse(combination text: String) -> Result<ColorCorrection, UnknownName> {
        var combined: ColorCorrection?
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let preset = ColorCorrection(named: String(part)) else { return .failure(UnknownName(name: String(part))) }
            combined = combined.map { $0.combined(with: preset) } ?? preset
        }
        return combined.map { .success($0) } ?? .failure(UnknownName(name: text))
    }

    /// The strip-type or colour-temperature preset called `name`; case, `-`, `_` and spaces are
    /// ignored so `TypicalLEDStrip` and `typical-led-strip` both match. Nil for an unknown name.
    public init?(named name: String) {
        let key = ColorCorrection.key(name)
        guard let found = (ColorCorrection.presets + ColorCorrection.temperatures)
            .first(where: { ColorCorrection.key($0.name) == key }) else { return nil }
        self = found
    }

    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }
}
