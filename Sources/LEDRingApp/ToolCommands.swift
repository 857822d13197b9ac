import LEDHardware
import LEDWire
import RingModel

/// `ledring boards` and `ledring doctor`: the commands that tell a user about their machine.
enum ToolCommands {
    /// `ledring boards [--dir DIR]`: every known board, its SPI pins and LED outputs.
    static func boards(_ arguments: [String]) throws(CommandError) -> (ExitCode, String) {
        var reader = ArgumentReader(arguments, verb: "boards")
        var directory: String?
        while let (name, attached) = try reader.next() {
            switch name {
            case "--dir": directory = try reader.value(for: name, attached: attached)
            case "--help": throw .usage(CommandLineTable.verb("boards")?.usageLine ?? "")
            default: throw reader.unexpected(name)
            }
        }
        let catalog: BoardCatalog
        do throws(HardwareError) {
            if let directory {
                catalog = try BoardCatalog.load(directory: directory)
            } else {
                catalog = try BoardCatalog.builtIn()
            }
        } catch {
            throw CommandError(error.description, code: .config)
        }
        var out = ""
        let width = catalog.boards.map { $0.id.count }.max() ?? 0
        for board in catalog.boards {
            out += board.id + String(repeating: " ", count: width - board.id.count + 2) + board.displayName + "\n"
            for port in board.spi {
                out += "    SPI  \(port.device): MOSI pin \(port.mosi.header) (\(port.mosi.name)), "
                    + "SCLK pin \(port.sclk.header) (\(port.sclk.name))\n"
            }
            if let pio = board.pio {
                out += "    PIO  \(pio.device): \(pio.overlay)\n"
            }
            if !board.gpioChipLabels.isEmpty {
                out += "    GPIO chip label: \(board.gpioChipLabels.joined(separator: ", "))\n"
            }
        }
        return (.ok, out)
    }

    /// `ledring doctor [--root DIR] [--device PATH] [--driver KIND] [--leds N]`: checks the
    /// machine and prints one line per check with the fix; exit 0 when all pass, 69 otherwise.
    static func doctor(_ arguments: [String]) throws(CommandError) -> (ExitCode, String) {
        var reader = ArgumentReader(arguments, verb: "doctor")
        var root = "/"
        var device: String?
        var kind = DriverKind.ws2812SPI
        var leds = 52
        while let (name, attached) = try reader.next() {
            func value() throws(CommandError) -> String { try reader.value(for: name, attached: attached) }
            switch name {
            case "--root": root = try value()
            case "--device": device = try value()
            case "--driver": kind = try ValueParser.choice(try value(), option: name, as: DriverKind.self)
            case "--leds": leds = try ValueParser.integer(try value(), option: name, in: 1...RingLayout.maxChainLEDs)
            case "--help": throw .usage(CommandLineTable.verb("doctor")?.usageLine ?? "")
            default: throw reader.unexpected(name)
            }
        }
        // The frame that must fit spidev's buffer in one transfer (self-clocked chips only).
        var frameSize: Int?
        if let chip = kind.clocklessChip,
           let encoder = try? SPISymbolEncoder(chip: chip, clockHz: PiSPIClock.recommendedRequestHz) {
            frameSize = encoder.encodedLength(ledCount: leds)
        }
        let report = Doctor.run(root: root, frameSize: frameSize, spiDevice: device)
        return (ExitCode(rawValue: report.exitCode) ?? .unavailable, report.formatted())
    }
}
