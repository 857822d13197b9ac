import LEDJSON
import LEDWire
import Testing
@testable import LEDRingApp

/// The colour and power settings come from one table (`ColorSetting`): the config file and the
/// command line take the same settings with the same ranges, `--help` and the config's keys list
/// them all, and the layers go over each other file → command line.
@Suite struct ColorSettingTests {
    /// One good value of each setting as the command line writes it and as the file does.
    static let same: [(setting: ColorSetting, words: [String], json: String)] = [
        (.brightness, ["--brightness", "40%"], #""brightness": 0.4"#),
        (.gamma, ["--gamma", "2.8"], #""gamma": 2.8"#),
        (.dither, ["--dither", "off"], #""dither": "off""#),
        (.correction, ["--correction", "typical-led-strip+tungsten-100w"], #""correction": "typical-led-strip+tungsten-100w""#),
        (.maxMilliamps, ["--max-milliamps", "300.4"], #""maxMilliamps": 300.4"#),
        (.white, ["--white", "accurate-warm"], #""white": "accurate-warm""#),
        (.hdr, ["--hdr"], #""hdr": true"#),
    ]

    /// One value of each setting that both must refuse, and what each says of it.
    static let refused: [(words: [String], json: String, commandLine: String, config: String)] = [
        (["--brightness", "2"], #""brightness": 2"#, "--brightness 2: must be 0…1 (or 0%…100%)", "brightness: must be 0…1, got 2"),
        (["--gamma", "9"], #""gamma": 9"#, "--gamma 9: must be 1…4; 2.2 shows sRGB colours as a monitor would; WLED uses 2.8",
         "gamma: must be 1…4, got 9"),
        (["--gamma", "x"], #""gamma": "x""#, #"--gamma "x": not a number; 2.2 shows sRGB colours as a monitor would; WLED uses 2.8"#,
         #"gamma: must be a number 1…4, got "x""#),
        (["--dither", "sometimes"], #""dither": "sometimes""#, #"--dither "sometimes": unknown; use one of auto, on, off"#,
         #"dither: must be one of auto, on, off, got "sometimes""#),
        (["--correction", "typical-led-strip+bulb"], #""correction": "typical-led-strip+bulb""#,
         #"--correction "bulb": unknown; use one of \#(ColorSetting.corrections)"#,
         #"correction: must be one of \#(ColorSetting.corrections), got "typical-led-strip+bulb""#),
        (["--max-milliamps", "0"], #""maxMilliamps": 0"#,
         "--max-milliamps 0: must be 1…1000000; give the supply's spare current in mA, e.g. --max-milliamps 2000",
         "maxMilliamps: must be 1…1000000, got 0"),
        (["--white", "grey"], #""white": "grey""#, #"--white "grey": unknown; use one of none, min, accurate, accurate-warm, accurate-neutral, accurate-cold"#,
         #"white: must be one of none, min, accurate, accurate-warm, accurate-neutral, accurate-cold, got "grey""#),
    ]

    static func commandLine(_ words: [String]) throws(CommandError) -> ColorOptions {
        var options = ColorOptions()
        var rest = words.dropFirst()[...]
        let taken = try options.parseOption(words[0]) { () throws(CommandError) -> String in
            guard let next = rest.popFirst() else { throw .usage("no value") }
            return next
        }
        #expect(taken, "\(words[0]) is not taken as a colour option")
        return options
    }

    static func file(_ member: String) throws -> ColorOptions {
        try DaemonConfig.parse(Array("{\(member)}".utf8)).color
    }

    @Test(arguments: same.indices)
    func theFileAndTheCommandLineTakeTheSameValue(_ i: Int) throws {
        let (setting, words, json) = Self.same[i]
        let fromLine = try Self.commandLine(words), fromFile = try Self.file(json)
        #expect(fromLine == fromFile, "\(setting.key)")
        #expect(fromLine != ColorOptions(), "\(setting.key): the value was not kept")
    }

    @Test(arguments: refused.indices)
    func theFileAndTheCommandLineRefuseTheSameValue(_ i: Int) {
        let (words, json, commandLine, config) = Self.refused[i]
        let error = commandError { () throws(CommandError) in try Self.commandLine(words) }
        #expect(error?.message == commandLine && error?.code == .usage)
        #expect(DaemonConfig.problems("{\(json)}") == [config])
    }

    /// Every setting of the table is in the file's keys, in `run`'s options and the one-shot's,
    /// and each of those lists has nothing of the colour group the table does not have.
    @Test func everySettingIsInEveryList() {
        #expect(Self.same.map { $0.setting } == ColorSetting.allCases)
        let run = CommandLineTable.options(of: "run"), oneShot = CommandLineTable.options(of: nil)
        for setting in ColorSetting.allCases {
            #expect(DaemonConfig.keys.contains(setting.key))
            #expect(CommandLineTable.find(setting.option.name, in: run) == setting.option)
            #expect(CommandLineTable.find(setting.option.name, in: oneShot) == setting.option)
            #expect(CommandLineTable.helpText(CommandLineTable.verb("run")!).contains(setting.option.shown))
        }
        #expect(CommandLineTable.colour.options == ColorSetting.options)
    }

    /// Layers: the defaults, then the file, then the command line; a setting the command line
    /// leaves out keeps the file's.
    @Test func theCommandLineGoesOverTheFileWhichGoesOverTheDefaults() throws {
        let config = try DaemonConfig.parse(Array(#"{"gamma": 2.8, "brightness": 0.5, "hdr": true}"#.utf8))
        let line = try Self.commandLine(["--brightness", "20%"])
        let settings = FrameSettings(config: config, color: line, fps: 30)
        #expect(settings.brightness == 0.2 && settings.gamma == 2.8 && settings.hdr)
        #expect(settings.dither == FrameSettings().dither && settings.maxMilliamps == nil)
        #expect(FrameSettings(config: try DaemonConfig.defaults(), color: ColorOptions(), fps: 30) == FrameSettings(fps: 30))
    }
}
