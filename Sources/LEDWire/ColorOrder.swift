/// The order in which a chip expects its colour channels on the wire ("GRB" for WS2812,
/// "BGR" for APA102, "GRBW" for SK6812 RGBW, …).
public struct ColorOrder: Hashable, Sendable, CustomStringConvertible {
    /// One colour channel of a pixel.
    public enum Channel: UInt8, Hashable, Sendable {
        /// Red.
        case red
        /// Green.
        case green
        /// Blue.
        case blue
        /// White (RGBW chips only).
        case white
    }

    /// The channels in wire order: three for RGB chips, four for RGBW chips.
    public let channels: [Channel]

    /// Parses a permutation of "RGB" or "RGBW", in either case ("grb", "GRBW", …).
    public init(_ text: String) throws(WireError) {
        var parsed: [Channel] = []
        for character in text.uppercased() {
            switch character {
            case "R": parsed.append(.red)
            case "G": parsed.append(.green)
            case "B": parsed.append(.blue)
            case "W": parsed.append(.white)
            default:
                throw Self.invalid(text)
            }
        }
        let isRGB = parsed.count == 3 && !parsed.contains(.white)
        let isRGBW = parsed.count == 4 && parsed.contains(.white)
        guard isRGB || isRGBW, Set(parsed).count == parsed.count else { throw Self.invalid(text) }
        channels = parsed
    }

    private static func invalid(_ text: String) -> WireError {
        WireError(.invalidColorOrder,
                  "colour order \"\(text)\" is not valid; use the three letters R, G, B once each "
                  + "(e.g. GRB for WS2812, BGR for APA102) or add W for RGBW strips (e.g. GRBW)")
    }

    private init(checked channels: [Channel]) { self.channels = channels }

    /// Red, green, blue.
    public static let rgb = ColorOrder(checked: [.red, .green, .blue])
    /// Green, red, blue: WS2812, WS2812B, WS2813, SK6812.
    public static let grb = ColorOrder(checked: [.green, .red, .blue])
    /// Blue, green, red: APA102 and SK9822.
    public static let bgr = ColorOrder(checked: [.blue, .green, .red])
    /// Green, red, blue, white: most SK6812 RGBW strips.
    public static let grbw = ColorOrder(checked: [.green, .red, .blue, .white])
    /// Red, green, blue, white: the Pi 5 `/dev/leds` byte layout.
    public static let rgbw = ColorOrder(checked: [.red, .green, .blue, .white])

    /// True when the order carries a white channel.
    public var hasWhite: Bool { channels.count == 4 }

    /// Bytes per pixel on the wire (3 or 4).
    public var bytesPerPixel: Int { channels.count }

    /// The order as upper-case letters, e.g. "GRB".
    public var description: String {
        String(channels.map { channel -> Character in
            switch channel {
            case .red: "R"
            case .green: "G"
            case .blue: "B"
            case .white: "W"
            }
        })
    }

    /// The level of `channel` in `colour`.
    @inlinable
    public static func level(of channel: Channel, in colour: RGBW8) -> UInt8 {
        switch channel {
        case .red: colour.r
        case .green: colour.g
        case .blue: colour.b
        case .white: colour.w
        }
    }

    /// Writes `level` into `channel` of `colour` (decoders rebuild colours with it).
    @inlinable
    public static func set(_ channel: Channel, of colour: inout RGBW8, to level: UInt8) {
        switch channel {
        case .red: colour.r = level
        case .green: colour.g = level
        case .blue: colour.b = level
        case .white: colour.w = level
        }
    }
}
