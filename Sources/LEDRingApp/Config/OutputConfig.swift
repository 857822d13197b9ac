import LEDHardware
import LEDWire

/// Where frames go: the config's `output` section, with the same names as the command line.
struct OutputConfig: Sendable, Equatable {
    /// The driver (`ws2812-spi`, …, or `simulate`); nil means none was chosen.
    var driver: DriverKind?
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

    /// Keys the `output` object may have.
    static let keys = ["driver", "device", "spiHz", "order", "board", "dumpWire", "format"]

    /// These settings with every value `other` sets taking its place (the command line over the file).
    func overridden(by other: OutputConfig) -> OutputConfig {
        var out = self
        if let driver = other.driver { out.driver = driver }
        if let device = other.device { out.device = device }
        if let spiHz = other.spiHz { out.spiHz = spiHz }
        if let order = other.order { out.order = order }
        if let board = other.board { out.board = board }
        if let dumpWire = other.dumpWire { out.dumpWire = dumpWire }
        if let format = other.format { out.format = format }
        return out
    }

    /// Reads the `output` section.
    static func read(_ value: JSONValue, at path: String, into reader: inout ConfigReader) -> OutputConfig {
        var out = OutputConfig()
        guard let members = reader.object(value, at: path, known: keys) else { return out }
        func at(_ key: String) -> String { ConfigReader.join(path, key) }
        out.driver = reader.choice(members["driver"], at: at("driver"), as: DriverKind.self)
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
            let ids = (try? BoardCatalog.builtIn())?.boards.map(\.id) ?? []
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
