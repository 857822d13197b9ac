import LEDHardware
import LEDJSON
import LEDRingControl
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
        guard let setting = ColorSetting.withOption(name) else { return false }
        let text: String? = setting.isSwitch ? nil : try value()
        do throws(SettingProblem) {
            try setting.read(text.map(SettingInput.word) ?? .given, into: &self)
        } catch {
            throw .usage(error.commandLine(option: name, text: text ?? "", hint: setting.hint))
        }
        return true
    }

    /// Reads the config file's colour keys from `members` (top level), each problem with its key.
    static func read(_ members: JSONMembers, into reader: inout JSONReader) -> ColorOptions {
        var out = ColorOptions()
        for setting in ColorSetting.allCases {
            guard let value = members[setting.key] else { continue }
            do throws(SettingProblem) {
                try setting.read(.json(value), into: &out)
            } catch {
                reader.report(setting.key, error.config(got: value))
            }
        }
        return out
    }
}

/// The one table of the colour and power settings: for each, its config key, its command-line
/// option with the help line, and the one reading of its value, so the config file, the command
/// line, `--help`, the man page, completion and `check-config` all take the same words with the
/// same ranges (a setting added here is in all of them; one left out is in none).
enum ColorSetting: CaseIterable, Sendable {
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

    /// Whether the command line gives it alone (`--hdr`), not with a value.
    var isSwitch: Bool { !option.takesValue }

    /// The setting whose option is `name`.
    static func withOption(_ name: String) -> ColorSetting? {
        allCases.first { $0.option.name == name }
    }

    /// What a correction may be: a preset, or a strip's and a temperature's joined.
    static var corrections: String { ColorCorrection.allNames + ", or STRIP+TEMPERATURE" }

    /// The config keys, in the table's order.
    static var keys: [String] { allCases.map { $0.key } }

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

/// A value given to a setting: a word of the command line, the option alone (a switch), or a
/// value of the config file.
enum SettingInput {
    case word(String)
    case given
    case json(JSONValue)

    /// A finite number in `range`.
    func number(in range: ClosedRange<Double>) throws(SettingProblem) -> Double {
        let value: Double
        switch self {
        case .word(let text):
            guard let parsed = Double(text), parsed.isFinite else { throw .notA("number", range: range) }
            value = parsed
        case .json(.number(let n)) where n.isFinite: value = n
        case .json, .given: throw .notA("number", range: range)
        }
        guard range.contains(value) else { throw .outOfRange(range) }
        return value
    }

    /// 0…1, on the command line also `35%`: there the check `ledring brightness` gets from every
    /// front end, which names the value as `name`.
    func fraction(name: String) throws(SettingProblem) -> Double {
        guard case .word(let text) = self else { return try number(in: 0...1) }
        do throws(RequestError) {
            return try Request.fraction(text, name: name)
        } catch {
            throw .said(error.message)
        }
    }

    /// A word `parse` knows (`choices` says which there are).
    func choice<T>(_ choices: String, _ parse: (String) throws(SettingProblem) -> T?) throws(SettingProblem) -> T {
        let text: String
        switch self {
        case .word(let word): text = word
        case .json(.string(let string)): text = string
        case .json, .given: throw .unknown(nil, choices: choices)
        }
        guard let value = try parse(text) else { throw .unknown(nil, choices: choices) }
        return value
    }

    /// A switch: given alone on the command line, `true` or `false` in the file.
    func flag() throws(SettingProblem) -> Bool {
        switch self {
        case .given: return true
        case .json(.bool(let on)): return on
        case .word, .json: throw .notTrueOrFalse
        }
    }
}

/// Why a setting's value was refused, said as the command line or the config file says it.
enum SettingProblem: Error, Equatable {
    /// Not of the setting's kind at all ("number").
    case notA(String, range: ClosedRange<Double>)
    /// A number outside its range.
    case outOfRange(ClosedRange<Double>)
    /// A word that is not one of `choices`; `part` is the unknown part of a combination.
    case unknown(String?, choices: String)
    /// A switch given something else than true or false.
    case notTrueOrFalse
    /// Already said in full (the protocol's own check, which names the option itself).
    case said(String)

    /// `--gamma 9: must be 1…4; 2.2 shows …`.
    func commandLine(option: String, text: String, hint: String?) -> String {
        let tail = hint.map { "; " + $0 } ?? ""
        switch self {
        case .notA(let kind, _): return "\(option) \(ValueParser.quoted(text)): not a \(kind)\(tail)"
        case .outOfRange(let range): return "\(option) \(text): must be \(ValueParser.describe(range))\(tail)"
        case .unknown(let part, let choices): return "\(option) \(ValueParser.quoted(part ?? text)): unknown; use one of \(choices)\(tail)"
        case .notTrueOrFalse: return "\(option) takes no value; write \(option) alone"
        case .said(let message): return message
        }
    }

    /// `must be 1…4, got 9`, after the key.
    func config(got value: JSONValue) -> String {
        switch self {
        case .notA(let kind, let range): return "must be a \(kind) \(JSONReader.describe(range)), got \(value.shown)"
        case .outOfRange(let range): return "must be \(JSONReader.describe(range)), got \(value.shown)"
        case .unknown(_, let choices): return "must be one of \(choices), got \(value.shown)"
        case .notTrueOrFalse: return "must be true or false, got \(value.shown)"
        case .said(let message): return message
        }
    }
}
