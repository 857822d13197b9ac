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

    /// Keys the `output` object may have: `OutputSetting`'s.
    static var keys: [String] { OutputSetting.fileKeys }

    /// These settings with every value `other` sets taking its place (the command line over the file).
    func overridden(by other: OutputConfig) -> OutputConfig {
        var out = self
        for setting in OutputSetting.allCases { setting.take(from: other, into: &out) }
        return out
    }

    /// Reads one output option of the command line (`OutputSetting`'s: `--driver`, `--device`,
    /// …, `--simulate`, and `ledring run`'s `--format`) into these settings; false when `name` is
    /// none of them. One parser for the one-shot command and `ledring run`, and the same check
    /// of each value as the config file's.
    mutating func parseOption(_ name: String, value: () throws(CommandError) -> String) throws(CommandError) -> Bool {
        var given = OutputConfig()
        guard try OutputSetting.parse(option: name, value: value, into: &given) != nil else { return false }
        if let kind = given.driver { try choose(kind) } else { self = overridden(by: given) }
        return true
    }

    /// `--driver KIND` or `--simulate` given: with the other one, frames for that driver's chip,
    /// printed, no device; twice, a usage error.
    private mutating func choose(_ kind: DriverKind) throws(CommandError) {
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

    /// Reads the `output` section: each key with its setting's one check.
    static func read(_ value: JSONValue, at path: String, into reader: inout ConfigReader) -> OutputConfig {
        var out = OutputConfig()
        guard let members = reader.object(value, at: path, known: keys) else { return out }
        OutputSetting.read(members, at: path, into: &out, reader: &reader)
        return out
    }
}
