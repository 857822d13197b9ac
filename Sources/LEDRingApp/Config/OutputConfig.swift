import LEDHardware
import LEDPresentation
import LEDRingControl
import LEDJSON
import LEDWire

/// Where frames go: the config's `output` section, with the same names as the command line.
struct OutputConfig: Sendable, Equatable {
    /// The driver (`ws2812-spi`, …, or `simulate`); nil means none was chosen.
    var driver: DriverKind?
    /// With `simulate`: the driver it stands in for (`--simulate --driver apa102-spi`, or
    /// `--simulate` over a config's driver), so frames are limited by that chip's current model
    /// and printed as that chip would get them. nil: a WS2812B.
    var simulates: DriverKind?
    /// The driver whose chip the frames are made for: the real one, or the one simulated.
    var chipDriver: DriverKind? { driver == .simulate ? simulates : driver }
    /// The device node; nil uses the board's default.
    var device: String?
    /// The SPI clock to request.
    var spiHz: UInt32?
    /// The chip's colour order, as written (checked with `ColorOrder`).
    var order: String?
    /// A board id or `auto`.
    var board: String?
    /// Append each frame's wire bytes to this file instead of the device.
    var dumpWire: String?
    /// How `simulate` prints frames on standard output.
    var format: SimulatedFormat?
    /// GPIO drivers: the data line (offset or name).
    var gpioData: String?
    /// GPIO drivers: the clock line (offset or name).
    var gpioClock: String?
    /// GPIO drivers: the chip's label; nil uses the board's.
    var gpioChip: String?

    /// Keys the `output` object may have.
    static let keys = ["driver", "device", "spiHz", "order", "board", "dumpWire", "format", "gpioData", "gpioClock",
                       "gpioChip"]

    /// These settings with every value `other` sets taking its place (the command line over the file).
    func overridden(by other: OutputConfig) -> OutputConfig {
        var out = self
        if let driver = other.driver {
            // --simulate over a file's real driver simulates that driver's chip.
            if driver == .simulate, let mine = self.driver, mine != .simulate { out.simulates = mine }
            out.driver = driver
        }
        if let simulates = other.simulates { out.simulates = simulates }
        if let device = other.device { out.device = device }
        if let spiHz = other.spiHz { out.spiHz = spiHz }
        if let order = other.order { out.order = order }
        if let board = other.board { out.board = board }
        if let dumpWire = other.dumpWire { out.dumpWire = dumpWire }
        if let format = other.format { out.format = format }
        if let gpioData = other.gpioData { out.gpioData = gpioData }
        if let gpioClock = other.gpioClock { out.gpioClock = gpioClock }
        if let gpioChip = other.gpioChip { out.gpioChip = gpioChip }
        return out
    }

    /// Reads one output option of the command line (`--driver`, `--device`, `--spi-hz`,
    /// `--order`, `--board`, `--dump-wire`, `--gpio-data`, `--gpio-clock`, `--gpio-chip`,
    /// `--simulate`) into these settings; false when `name` is not one of them. One parser for
    /// the one-shot command and `ledring run`, so both accept the same words.
    mutating func parseOption(_ name: String, value: () throws(CommandError) -> String) throws(CommandError) -> Bool {
        func choose(_ kind: DriverKind) throws(CommandError) {
            // --simulate with one --driver: frames for that driver's chip, printed, no device.
            if let driver, (driver == .simulate) != (kind == .simulate), simulates == nil {
                simulates = driver == .simulate ? kind : driver
                self.driver = .simulate
                return
            }
            if let simulates, kind != .simulate, kind != simulates {
                throw .usage("--driver \(kind.rawValue): --simulate already stands in for --driver \(simulates.rawValue); choose one driver")
            }
            if let driver, driver != kind {
                throw .usage("--\(kind == .simulate ? "simulate" : "driver " + kind.rawValue) after "
                             + "\(driver == .simulate ? "--simulate" : "--driver " + driver.rawValue): choose one output")
            }
            driver = kind
        }
        switch name {
        case "--simulate": try choose(.simulate)
        case "--driver":
            let text = try value()
            let kind: DriverKind
            do {
                kind = try DriverKind(named: text)
            } catch {
                // WS2812 on GPIO is a wiring choice, not a typo: say why and what instead.
                if error.kind == .invalidConfiguration, text.hasSuffix("-gpio") || text == "neopixel" {
                    throw CommandError("--driver \(text): \(error.description)", code: .config)
                }
                throw .usage("--driver \"\(text)\": unknown; use one of \(DriverKind.allCases.map { $0.rawValue }.joined(separator: ", "))")
            }
            try choose(kind)
        case "--device": device = try value()
        case "--dump-wire": dumpWire = try value()
        case "--spi-hz":
            spiHz = UInt32(try ValueParser.integer(try value(), option: name, in: 100_000...100_000_000))
        case "--order":
            let text = try value()
            do {
                _ = try ColorOrder(text)
            } catch {
                throw .usage("--order \"\(text)\": \(error.message)")
            }
            order = text
        case "--board": board = try value()
        case "--gpio-data": gpioData = try value()
        case "--gpio-clock": gpioClock = try value()
        case "--gpio-chip": gpioChip = try value()
        default: return false
        }
        return true
    }

    /// The driver settings for a chain of `ledCount` LEDs on `board`.
    func driverSettings(kind: DriverKind, ledCount: Int, board: Board?) -> DriverSettings {
        var settings = DriverSettings(kind: kind, ledCount: ledCount, device: device, spiHz: spiHz,
                                      colorOrder: order.flatMap { try? ColorOrder($0) }, board: board,
                                      dumpPath: dumpWire)
        settings.gpioData = gpioData.map(GPIOLineID.init(parsing:))
        settings.gpioClock = gpioClock.map(GPIOLineID.init(parsing:))
        settings.gpioChip = gpioChip
        return settings
    }

    /// Reads the `output` section.
    static func read(_ value: JSONValue, at path: String, into reader: inout ConfigReader) -> OutputConfig {
        var out = OutputConfig()
        guard let members = reader.object(value, at: path, known: keys) else { return out }
        func at(_ key: String) -> String { ConfigReader.join(path, key) }
        if case .string(let name)? = members["driver"], name.hasSuffix("-gpio") || name == "neopixel",
           DriverKind(rawValue: name) == nil {
            // WS2812 on GPIO: say why it cannot work and what to wire instead.
            do {
                out.driver = try DriverKind(named: name)
            } catch {
                reader.report(at("driver"), error.description)
            }
        } else {
            out.driver = reader.choice(members["driver"], at: at("driver"), as: DriverKind.self)
        }
        out.gpioData = reader.string(members["gpioData"], at: at("gpioData"))
        out.gpioClock = reader.string(members["gpioClock"], at: at("gpioClock"))
        out.gpioChip = reader.string(members["gpioChip"], at: at("gpioChip"))
        out.device = reader.string(members["device"], at: at("device"))
        out.spiHz = reader.integer(members["spiHz"], at: at("spiHz"), in: 100_000...100_000_000).map(UInt32.init)
        if let order = reader.string(members["order"], at: at("order")) {
            do {
                _ = try ColorOrder(order)
                out.order = order
            } catch {
                reader.report(at("order"), "\(error.message), got \"\(order)\"")
            }
        }
        if let board = reader.string(members["board"], at: at("board")) {
            let ids = (try? BoardCatalog.builtIn())?.boards.map { $0.id } ?? []
            if board == "auto" || ids.contains(board) {
                out.board = board
            } else {
                reader.report(at("board"), "must be auto or one of \(ids.joined(separator: ", ")), got \"\(board)\"")
            }
        }
        out.dumpWire = reader.string(members["dumpWire"], at: at("dumpWire"))
        if let format = reader.choice(members["format"], at: at("format"), as: SimulatedFormat.self) {
            if format == .ansi {
                reader.report(at("format"), "must be json or text (a service has no terminal to draw on), got \"ansi\"")
            } else {
                out.format = format
            }
        }
        return out
    }
}
