
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
        // The files the config names, read as `ledring run` reads them at start, so a missing
        // password or secret file is found here and not by the service exiting 78.
        let files = NetworkFrontEnds.fileProblems(http: config.http, mqtt: config.mqtt)
        if !files.isEmpty {
            throw CommandError(files.map { "\(file): \($0)" }.joined(separator: "\n"), code: .config)
        }
        // One line a terminal can show: the first rings by name, then how many more.
        let all = config.layout.rings
        let named = all.prefix(8).map { "\($0.name) (\($0.ledCount) LEDs)" }.joined(separator: ", ")
        let rings = all.count > 8 ? named + " and \(all.count - 8) more rings" : named
        let looks = config.layout.looks.isEmpty ? "" : "; \(config.layout.looks.count) looks"
        return (.ok, "\(file): OK — \(config.layout.ledCount) LEDs: \(rings)\(looks)\n")
    }
}
