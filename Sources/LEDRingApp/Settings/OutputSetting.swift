import LEDHardware
import LEDPresentation
import LEDWire

/// The one table of the output settings (where frames go): for each, its key in the config's
/// `output` section, its command-line option with the help line, and the one check of its value,
/// so the file and the command line (the one-shot and `ledring run` alike) take the same words,
/// `--help`, the man page and completion list what the parser takes, and the layers go over
/// each other in one place (`OutputConfig.overridden(by:)`).
enum OutputSetting: SettingTable {
    typealias Layer = OutputConfig

    case simulate, driver, gpioData, gpioClock, gpioChip, device, spiHz, order, board, dumpWire, format

    /// The key in the config's `output` section; nil: the command line's alone (`--simulate` is
    /// `"driver": "simulate"` in the file).
    var fileKey: String? {
        switch self {
        case .simulate: return nil
        case .driver: return "driver"
        case .gpioData: return "gpioData"
        case .gpioClock: return "gpioClock"
        case .gpioChip: return "gpioChip"
        case .device: return "device"
        case .spiHz: return "spiHz"
        case .order: return "order"
        case .board: return "board"
        case .dumpWire: return "dumpWire"
        case .format: return "format"
        }
    }

    /// The command line's option in the HARDWARE group, with its placeholder and help line; nil
    /// for `format`, which `ledring run` takes as its own option (`runFormat`) because the
    /// one-shot's `--format` is its picture's (ansi and svg too).
    var option: OptionSpec? {
        switch self {
        case .simulate:
            return OptionSpec("--simulate", "show the rings as they would light, here (with --driver KIND: limited and printed as that driver's chip gets them)")
        case .driver:
            return OptionSpec("--driver", .choice(CommandLineTable.drivers, shown: "KIND"),
                              "light real LEDs with this driver (apa102-gpio, sk9822-gpio: clocked on any two GPIO lines)")
        case .gpioData: return OptionSpec("--gpio-data", .text("L"), "the data line for *-gpio drivers (offset like 23 or name like GPIO23)")
        case .gpioClock: return OptionSpec("--gpio-clock", .text("L"), "the clock line for *-gpio drivers")
        case .gpioChip: return OptionSpec("--gpio-chip", .text("LABEL"), "the GPIO chip's label (default: the board's, e.g. pinctrl-bcm2711)")
        case .device: return OptionSpec("--device", .file("PATH"), "default: the board's first SPI node (/dev/spidev0.0) or /dev/leds0")
        case .spiHz: return OptionSpec("--spi-hz", .text("N"), "SPI clock to request (default 3600000 for WS2812/SK6812, 4000000 APA102)")
        case .order: return OptionSpec("--order", .text("ORDER"), "colour order on the wire: GRB, RGB, BRG, ... (GRBW for RGBW chips)")
        case .board: return OptionSpec("--board", .board, "the board, for its real SPI clock (default auto; see ledring boards)")
        case .dumpWire: return OptionSpec("--dump-wire", .file("FILE"), "append each frame's exact wire bytes to FILE instead of a device")
        case .format: return nil
        }
    }

    /// `ledring run --format`: how `simulate` prints frames, as the file's `format` says it.
    static let runFormat = OptionSpec("--format", .choice(serviceFormats.map { $0.rawValue }), "how --simulate prints frames (default text)")

    /// The formats a service prints in: not `ansi`, since a service has no terminal to draw on.
    static let serviceFormats = SimulatedFormat.allCases.filter { $0 != .ansi }

    /// The option's name (`--format` is `ledring run`'s).
    var optionName: String? { (option ?? Self.runFormat).name }
    /// Whether the command line gives it alone (`--simulate`), not with a value.
    var isSwitch: Bool { option?.takesValue == false }
    /// The output options need no hint beyond what each check says.
    var hint: String? { nil }

    /// The HARDWARE group's options, in the table's order.
    static var options: [OptionSpec] { allCases.compactMap { $0.option } }

    /// Reads `input` into its place in `output`: the one check of this setting's value.
    func read(_ input: SettingInput, into output: inout OutputConfig) throws(SettingProblem) {
        switch self {
        case .simulate: if try input.flag() { output.driver = .simulate }
        case .driver:
            let choices = DriverKind.allCases.map { $0.rawValue }.joined(separator: ", ")
            output.driver = try input.choice(choices) { name throws(SettingProblem) in
                do throws(HardwareError) {
                    return try DriverKind(named: name)
                } catch {
                    // WS2812 on GPIO is a wiring choice, not a typo: say why and what instead.
                    guard error.kind == .invalidConfiguration, name.hasSuffix("-gpio") || name == "neopixel" else { return nil }
                    throw .impossible(error.description)
                }
            }
        case .gpioData: output.gpioData = try input.text()
        case .gpioClock: output.gpioClock = try input.text()
        case .gpioChip: output.gpioChip = try input.text()
        case .device: output.device = try input.text()
        case .spiHz: output.spiHz = UInt32(try input.integer(in: 100_000...100_000_000))
        case .order:
            let text = try input.text()
            do {
                _ = try ColorOrder(text)
            } catch {
                throw .invalid(error.message)
            }
            output.order = text
        case .board:
            // The catalogue is read only when a board is named, not to parse every command line.
            let ids = (try? BoardCatalog.builtIn())?.boards.map { $0.id } ?? []
            output.board = try input.choice("auto, " + ids.joined(separator: ", ")) { $0 == "auto" || ids.contains($0) ? $0 : nil }
        case .dumpWire: output.dumpWire = try input.text()
        case .format:
            let choices = Self.serviceFormats.map { $0.rawValue }.joined(separator: ", ") + " (ansi draws on a terminal, which a service has not)"
            output.format = try input.choice(choices) { word in
                SimulatedFormat(rawValue: word).flatMap { Self.serviceFormats.contains($0) ? $0 : nil }
            }
        }
    }

    /// `output` with this setting as `other` gives it, when it does.
    func take(from other: OutputConfig, into output: inout OutputConfig) {
        switch self {
        case .simulate: break
        case .driver:
            if let driver = other.driver {
                // --simulate over a file's real driver simulates that driver's chip.
                if driver == .simulate, let mine = output.driver, mine != .simulate { output.simulates = mine }
                output.driver = driver
            }
            output.simulates = other.simulates ?? output.simulates
        case .gpioData: output.gpioData = other.gpioData ?? output.gpioData
        case .gpioClock: output.gpioClock = other.gpioClock ?? output.gpioClock
        case .gpioChip: output.gpioChip = other.gpioChip ?? output.gpioChip
        case .device: output.device = other.device ?? output.device
        case .spiHz: output.spiHz = other.spiHz ?? output.spiHz
        case .order: output.order = other.order ?? output.order
        case .board: output.board = other.board ?? output.board
        case .dumpWire: output.dumpWire = other.dumpWire ?? output.dumpWire
        case .format: output.format = other.format ?? output.format
        }
    }
}
