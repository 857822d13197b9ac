import RingRender

/// `ledring check-config FILE`: checks a config file and lists every problem, for users and CI.
enum CheckConfigCommand {
    /// Returns the exit status and the text to print on standard output.
    static func run(_ arguments: [String]) throws(CommandError) -> (ExitCode, String) {
        guard arguments.count == 1, let file = arguments.first, !file.hasPrefix("-") else {
            throw .usage("check-config: give one config file, e.g. ledring check-config /etc/ledring/config.json")
        }
        let config: DaemonConfig
        do {
            config = try DaemonConfig.load(path: file)
        } catch {
            throw error.commandError
        }
        let rings = config.layout.rings.map { "\($0.name) (\($0.ledCount) LEDs)" }.joined(separator: ", ")
        return (.ok, "\(file): OK — \(config.layout.ledCount) LEDs: \(rings)\n")
    }
}
