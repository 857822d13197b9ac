import LEDHardware
import LEDPresentation
import LEDWire

/// `ledring run [--config FILE] [--socket PATH] [--state PATH] [--stdin] [output options]`.
struct DaemonOptions: Sendable {
    /// The config file; nil runs the default rings with the command line's output.
    var configPath: String?
    /// The control socket, over the config and the default.
    var socketPath: String?
    /// The state file, over the config and the default.
    var statePath: String?
    /// Also read requests from standard input.
    var readStdin = false
    /// Output settings from the command line, over the config's.
    var output = OutputConfig()
    /// Frames per second, over the config's.
    var fps: Double?
    /// Brightness, gamma, dithering, correction, supply budget, RGBW white and HDR, over the
    /// config's: the one-shot command's options, parsed by the same code.
    var color = ColorOptions()
    /// Print help.
    var help = false

    /// Parses the arguments after `run`.
    init(_ arguments: [String]) throws(CommandError) {
        var reader = ArgumentReader(arguments, verb: "run")
        while let (name, attached) = try reader.next() {
            func value() throws(CommandError) -> String { try reader.value(for: name, attached: attached) }
            switch name {
            case "--config": configPath = try value()
            case "--socket":
                let path = try value()
                if let problem = SocketConfig.problem(withPath: path) { throw .usage("--socket \"\(path)\": \(problem)") }
                socketPath = path
            case "--state": statePath = try value()
            case "--stdin": readStdin = true
            case "--fps": fps = try ValueParser.number(try value(), option: name, in: 1...240, hint: "e.g. --fps 30")
            case "--help": help = true
            default:
                if try color.parseOption(name, value: value) { continue }
                guard try output.parseOption(name, value: value) else { throw reader.unexpected(name) }
            }
        }
    }
}
