import LEDHardware
import LEDWire
import RingRender

/// The colour and power options of the command line, one parser and one set of ranges for the
/// one-shot command and `ledring run` alike: `--brightness`, `--gamma`, `--dither`,
/// `--correction`, `--max-milliamps`, `--white`, `--hdr`. Each is nil until given, so the
/// daemon can lay them over its config file and the one-shot over its defaults.
struct ColorOptions: Sendable, Equatable {
    /// Overall light, 0…1.
    var brightness: Double?
    /// Output gamma, 1…4.
    var gamma: Double?
    /// Temporal dithering.
    var dither: Dithering?
    /// Colour correction for the strip type (and colour temperature).
    var correction: ColorCorrection?
    /// Supply budget, mA, 1…1 000 000.
    var maxMilliamps: Double?
    /// How RGBW chips get their white level.
    var white: WhiteExtraction?
    /// APA102/SK9822 high dynamic range.
    var hdr: Bool?

    /// Reads one colour option into these settings; false when `name` is not one of them.
    mutating func parseOption(_ name: String, value: () throws(CommandError) -> String) throws(CommandError) -> Bool {
        switch name {
        case "--brightness":
            brightness = try ValueParser.fraction(try value(), option: name)
        case "--gamma":
            gamma = try ValueParser.number(try value(), option: name, in: 1...4,
                                           hint: "2.2 shows sRGB colours as a monitor would; WLED uses 2.8")
        case "--dither": dither = try ValueParser.choice(try value(), option: name, as: Dithering.self)
        case "--correction":
            switch ColorCorrection.parse(combination: try value()) {
            case .success(let parsed): correction = parsed
            case .failure(let unknown):
                throw .usage("--correction \"\(unknown.name)\": unknown; use one of \(ColorCorrection.allNames), or STRIP+TEMPERATURE")
            }
        case "--max-milliamps":
            maxMilliamps = try ValueParser.number(try value(), option: name, in: 1...1_000_000,
                                                  hint: "give the supply's spare current in mA, e.g. --max-milliamps 2000")
        case "--white":
            let text = try value()
            guard let mode = WhiteExtraction(named: text) else {
                throw .usage("--white \"\(text)\": unknown; use \(WhiteExtraction.names.dropLast().joined(separator: ", ")) or \(WhiteExtraction.names[WhiteExtraction.names.count - 1])")
            }
            white = mode
        case "--hdr": hdr = true
        default: return false
        }
        return true
    }
}
