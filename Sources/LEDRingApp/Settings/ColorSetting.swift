import LEDWire
import RingRender

/// The one table of the colour and power settings: for each, its config key, its command-line
/// option with the help line, and the one reading of its value, so the config file, the command
/// line, `--help`, the man page, completion and `check-config` all take the same words with the
/// same ranges (a setting added here is in all of them; one left out is in none).
enum ColorSetting: SettingTable {
    typealias Layer = ColorOptions

    case brightness, gamma, dither, correction, maxMilliamps, white, hdr

    /// The key in the config file's top level.
    var key: String {
        switch self {
        case .brightness: return "brightness"
        case .gamma: return "gamma"
        case .dither: return "dither"
        case .correction: return "correction"
        case .maxMilliamps: return "maxMilliamps"
        case .white: return "white"
        case .hdr: return "hdr"
        }
    }

    /// The command line's option, with its placeholder and what `--help` says of it.
    var option: OptionSpec {
        switch self {
        case .brightness: return OptionSpec("--brightness", .text("B"), "overall light, 0…1 or 0%…100% (default 1)")
        case .gamma: return OptionSpec("--gamma", .text("G"), "output gamma, 1…4 (default 2.2: the sRGB colours as a monitor shows them)")
        case .dither:
            return OptionSpec("--dither", .choice(Dithering.allCases.map { $0.rawValue }),
                              "temporal dithering (default auto: only changing LEDs, only levels where a step cannot be seen flickering)")
        case .correction:
            return OptionSpec("--correction", .named("NAME", (ColorCorrection.presets + ColorCorrection.temperatures).map { $0.name }),
                              "strip white point, optionally +temperature (typical-led-strip+tungsten-100w)")
        case .maxMilliamps: return OptionSpec("--max-milliamps", .text("N"), "supply budget for the LEDs (default 500, safe on a Pi's 5 V pin)")
        case .white: return OptionSpec("--white", .choice(WhiteExtraction.names, shown: "MODE"), "RGBW white (default min)")
        case .hdr: return OptionSpec("--hdr", "APA102/SK9822: use the 5-bit current field for finer low levels")
        }
    }

    /// What the command line adds to a refused value: how to choose one.
    var hint: String? {
        switch self {
        case .gamma: return "2.2 shows sRGB colours as a monitor would; WLED uses 2.8"
        case .maxMilliamps: return "give the supply's spare current in mA, e.g. --max-milliamps 2000"
        case .brightness, .dither, .correction, .white, .hdr: return nil
        }
    }

    var fileKey: String? { key }
    var optionName: String? { option.name }
    /// Whether the command line gives it alone (`--hdr`), not with a value.
    var isSwitch: Bool { !option.takesValue }

    /// What a correction may be: a preset, or a strip's and a temperature's joined.
    static var corrections: String { ColorCorrection.allNames + ", or STRIP+TEMPERATURE" }

    /// The command line's options, in the table's order.
    static var options: [OptionSpec] { allCases.map { $0.option } }

    /// Reads `input` into its place in `options`: the one check of this setting's value.
    func read(_ input: SettingInput, into options: inout ColorOptions) throws(SettingProblem) {
        switch self {
        case .brightness: options.brightness = try input.fraction(name: option.name)
        case .gamma: options.gamma = try input.number(in: 1...4)
        case .dither: options.dither = try input.choice(Dithering.allCases.map { $0.rawValue }.joined(separator: ", ")) { Dithering(rawValue: $0) }
        case .correction:
            options.correction = try input.choice(ColorSetting.corrections) { text throws(SettingProblem) in
                switch ColorCorrection.parse(combination: text) {
                case .success(let parsed): return parsed
                // The part that is unknown, so `typical-led-strip+tungsten` names `tungsten`.
                case .failure(let unknown): throw .unknown(unknown.name, choices: ColorSetting.corrections)
                }
            }
        case .maxMilliamps: options.maxMilliamps = try input.number(in: 1...1_000_000)
        case .white: options.white = try input.choice(WhiteExtraction.names.joined(separator: ", ")) { WhiteExtraction(named: $0) }
        case .hdr: options.hdr = try input.flag()
        }
    }
}
