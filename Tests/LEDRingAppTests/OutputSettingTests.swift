import LEDHardware
import LEDJSON
import Testing
@testable import LEDRingApp

/// The output settings come from one table (`OutputSetting`): the config's `output` section and
/// the command line take the same settings with the same checks, `--help` and the section's keys
/// list them all, and the command line goes over the file setting by setting.
@Suite struct OutputSettingTests {
    /// One good value of each setting as `ledring run` writes it and as the file does.
    static let same: [(setting: OutputSetting, words: [String], json: String)] = [
        (.simulate, ["--simulate"], #""driver": "simulate""#),
        (.driver, ["--driver", "apa102-spi"], #""driver": "apa102-spi""#),
        (.gpioData, ["--gpio-data", "GPIO23"], #""gpioData": "GPIO23""#),
        (.gpioClock, ["--gpio-clock", "24"], #""gpioClock": "24""#),
        (.gpioChip, ["--gpio-chip", "pinctrl-rp1"], #""gpioChip": "pinctrl-rp1""#),
        (.device, ["--device", "/dev/spidev1.0"], #""device": "/dev/spidev1.0""#),
        (.spiHz, ["--spi-hz", "2400000"], #""spiHz": 2400000"#),
        (.order, ["--order", "GRBW"], #""order": "GRBW""#),
        (.board, ["--board", "rpi5"], #""board": "rpi5""#),
        (.dumpWire, ["--dump-wire", "/tmp/wire.bin"], #""dumpWire": "/tmp/wire.bin""#),
        (.format, ["--format", "json"], #""format": "json""#),
    ]

    /// Values both must refuse, and what each says of them.
    static let refused: [(words: [String], json: String, commandLine: String, config: String)] = [
        (["--spi-hz", "5"], #""spiHz": 5"#, "--spi-hz 5: must be 100000…100000000", "output.spiHz: must be 100000…100000000, got 5"),
        (["--spi-hz", "100000001"], #""spiHz": 100000001"#, "--spi-hz 100000001: must be 100000…100000000",
         "output.spiHz: must be 100000…100000000, got 100000001"),
        (["--spi-hz", "3.6e6x"], #""spiHz": "3.6e6x""#, #"--spi-hz "3.6e6x": not a whole number; give one from 100000 to 100000000"#,
         #"output.spiHz: must be a whole number 100000…100000000, got "3.6e6x""#),
        (["--order", "XYZ"], #""order": "XYZ""#,
         #"--order "XYZ": colour order "XYZ" is not valid; use the three letters R, G, B once each (e.g. GRB for WS2812, BGR for APA102) or add W for RGBW strips (e.g. GRBW)"#,
         #"output.order: colour order "XYZ" is not valid; use the three letters R, G, B once each (e.g. GRB for WS2812, BGR for APA102) or add W for RGBW strips (e.g. GRBW), got "XYZ""#),
        (["--device", ""], #""device": """#, #"--device "": empty; give a value"#, #"output.device: must be a non-empty string, got """#),
        (["--format", "ansi"], #""format": "ansi""#,
         #"--format "ansi": unknown; use one of text, json, svg (ansi draws on a terminal, which a service has not)"#,
         #"output.format: must be one of text, json, svg (ansi draws on a terminal, which a service has not), got "ansi""#),
    ]

    static func commandLine(_ words: [String]) throws(CommandError) -> OutputConfig {
        try DaemonOptions(words).output
    }

    static func file(_ member: String) throws -> OutputConfig {
        try DaemonConfig.parse(Array(#"{"output": {\#(member)}}"#.utf8)).output
    }

    @Test(arguments: same.indices)
    func theFileAndTheCommandLineTakeTheSameValue(_ i: Int) throws {
        let (setting, words, json) = Self.same[i]
        let fromLine = try Self.commandLine(words), fromFile = try Self.file(json)
        #expect(fromLine == fromFile, "\(words)")
        #expect(fromLine != OutputConfig(), "\(setting): the value was not kept")
        // Laid over an empty file, and an empty command line over the file, it stays.
        #expect(OutputConfig().overridden(by: fromLine) == fromLine && fromFile.overridden(by: OutputConfig()) == fromFile)
    }

    @Test(arguments: refused.indices)
    func theFileAndTheCommandLineRefuseTheSameValue(_ i: Int) {
        let (words, json, commandLine, config) = Self.refused[i]
        let error = commandError { () throws(CommandError) in try Self.commandLine(words) }
        #expect(error?.message == commandLine && error?.code == .usage)
        #expect(DaemonConfig.problems(#"{"output": {\#(json)}}"#) == [config])
    }

    /// WS2812 on GPIO cannot be timed from userspace: both say why, and the command line exits 78
    /// (a configuration that cannot work), not 64 (a typo).
    @Test func ws2812OnGPIOIsRefusedWithTheReasonByBoth() throws {
        let error = commandError { () throws(CommandError) in try Self.commandLine(["--driver", "ws2812-gpio"]) }
        #expect(error?.code == .config && error?.message.hasPrefix("--driver ws2812-gpio: ") == true)
        let problems = DaemonConfig.problems(#"{"output": {"driver": "ws2812-gpio"}}"#)
        #expect(problems.count == 1 && problems[0].hasPrefix("output.driver: ") && !problems[0].contains("must be one of"))
    }

    @Test func everySettingIsInEveryList() {
        #expect(Self.same.map { $0.setting } == OutputSetting.allCases)
        let run = CommandLineTable.options(of: "run"), oneShot = CommandLineTable.options(of: nil)
        for setting in OutputSetting.allCases {
            if let key = setting.fileKey { #expect(OutputConfig.keys.contains(key)) }
            let option = setting.option ?? OutputSetting.runFormat
            #expect(CommandLineTable.find(option.name, in: run) == option, "\(option.name)")
            if setting != .format { #expect(CommandLineTable.find(option.name, in: oneShot) == option, "\(option.name)") }
        }
        #expect(CommandLineTable.hardware.options == OutputSetting.options)
    }

    /// Setting by setting, the command line wins and the file keeps what the line leaves out;
    /// `--simulate` over a file's real driver simulates that driver's chip.
    @Test func theCommandLineGoesOverTheFileSettingBySetting() throws {
        let file = try Self.file(#""driver": "apa102-spi", "device": "/dev/spidev1.0", "spiHz": 2000000, "order": "BGR""#)
        let line = try Self.commandLine(["--simulate", "--spi-hz", "1000000"])
        let out = file.overridden(by: line)
        #expect(out.driver == .simulate && out.simulates == .apa102SPI && out.chipDriver == .apa102SPI)
        #expect(out.device == "/dev/spidev1.0" && out.spiHz == 1_000_000 && out.order == "BGR")
    }
}
