import LEDJSON
import LEDWire
import RingRender

/// The colour and power settings one layer gives: the config file, or the command line (the
/// one-shot command and `ledring run` alike). Each is nil until that layer gives it, so the
/// layers go over each other (`applied(to:)`): defaults, then the file, then the command line.
/// What each setting is called, takes and means is `ColorSetting`'s, the one table of them.
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

    /// Reads one command-line option into these settings; false when `name` is no colour option.
    mutating func parseOption(_ name: String, value: () throws(CommandError) -> String) throws(CommandError) -> Bool {
        try ColorSetting.parse(option: name, value: value, into: &self) != nil
    }

    /// Reads the config file's colour keys from `members` (top level), each problem with its key.
    static func read(_ members: JSONMembers, into reader: inout JSONReader) -> ColorOptions {
        var out = ColorOptions()
        ColorSetting.read(members, at: "", into: &out, reader: &reader)
        return out
    }
}
