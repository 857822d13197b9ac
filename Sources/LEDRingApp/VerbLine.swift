import LEDRingControl
/// The verbs of the command line, and the small kindnesses around them: global options before
/// the verb (`ledring --socket X set …`), "did you mean" for a mistyped verb, `--help` on every verb.
enum VerbLine {
    /// Every verb, in the table's order.
    static let verbs = CommandLineTable.verbs.map { $0.name }
    /// Options that may come before the verb, and whether each takes a value.
    static let globalOptions = CommandLineTable.beforeVerb

    /// `arguments` with global options written before a verb moved after it:
    /// `--socket X set move=1` → `set --socket X move=1`. Anything else is returned as it is.
    static func normalised(_ arguments: [String]) -> [String] {
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard let takesValue = globalOptions[name] else { break }
            i += takesValue && !word.contains("=") ? 2 : 1
        }
        guard i > 0, i < arguments.count, verbs.contains(arguments[i]) else { return arguments }
        return [arguments[i]] + arguments[..<i] + arguments[(i + 1)...]
    }

    /// The verb `word` was probably meant to be, if it is one or two edits from one.
    static func suggestion(for word: String) -> String? {
        guard !word.hasPrefix("-"), !verbs.contains(word) else { return nil }
        let scored = verbs.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < $0.0.count }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance: insertions, deletions, substitutions and swaps of two neighbours (`rnage`
    /// is one swap from `range`), each counting one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        for i in 1...a.count {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    next[j] = min(next[j], before[j - 2] + 1)
                }
            }
            before = row
            row = next
        }
        return row[b.count]
    }

    /// Whether the arguments after the verb ask for help.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { $0 == "-h" || $0 == "--help" }
    }

    /// The help text of one verb.
    static func help(_ verb: String) -> String {
        switch verb {
        case "run":
            return """
            usage: ledring run [--config FILE] [--socket PATH] [--state PATH] [--stdin] [--fps F]
                               (--simulate [--format json|text] | --driver KIND [hardware options])
            The service: renders the rings from the config and takes requests on the control socket
            (ledring set/get/…, the text protocol, MQTT and HTTP when configured). See README,
            "Running ledring as a service"; `ledring --help` lists the hardware options.

            """
        case "set":
            return """
            usage: ledring set RING=VALUE… [--duration S] [--curve C] [--socket PATH] [--json]
                   ledring set RING VALUE…            (as the text protocol takes it)
            VALUE is a percentage (80%) or a fraction of one lap (0.8; 1.3 is 130 %, 50 is 50 laps),
            or a number in the ring's own units when its config gives a "range" (co2=812).
            --duration animates over S (1.5, 90s, 1m30s) with --curve linear, easeIn, easeOut, easeInOut, spring.
            Exit 0 done, 65 refused (unknown ring, bad value), 69 no service running.

            """
        case "reset":
            return "usage: ledring reset [--duration S] [--curve C] [--socket PATH] [--json]\nSets every ring to 0 (animated over \(Request.defaultResetDuration) s, linear, unless --duration and --curve say otherwise; MQTT, HTTP, the page and a button reset the same way).\n"
        case "spin":
            return "usage: ledring spin RING… [--socket PATH] [--json]\nShows the indeterminate spinner on each RING until `ledring stop` or a new value.\n"
        case "stop":
            return "usage: ledring stop [RING…] [--socket PATH] [--json]\nStops the spinner on each RING (all rings when none is named).\n"
        case "timer":
            return """
            usage: ledring timer RING DURATION [--up] [--then LOOK] [--socket PATH] [--json]
                   ledring timer RING pause|resume|cancel
            The ring drains over DURATION (25m, 1h30m) in real time, or fills with --up; at the end it
            switches to LOOK. A restart or reload does not disturb it; `ledring get` shows the time left.

            """
        case "notify":
            return """
            usage: ledring notify [RING…] (--look NAME | --color #RRGGBB [--effect E] [--period S]) [--value V]
                                  --for DURATION [--priority N] [--socket PATH] [--json]
                   ledring notify --clear
            Takes over the RINGs (all when none is named) until DURATION (30s, 5m) has passed, then gives
            back exactly what was there. Higher --priority wins; a later one of equal priority replaces.
            Effects: pulse, blink, "flash N", none. Kept across a restart with the time it has left.

            """
        case "look":
            return "usage: ledring look RING… NAME [--socket PATH] [--json]\nSwitches each RING to the look NAME from the config's \"looks\" (default: the ring's own look; none: no look). Kept across restarts.\n"
        case "brightness":
            return "usage: ledring brightness VALUE [--socket PATH] [--json]\nOverall light, 0…1 or 0%…100%.\n"
        case "get", "status":
            return "usage: ledring \(verb) [--socket PATH] [--json]\n"
                + (verb == "get" ? "Prints each ring's value and target.\n"
                                 : "Prints the driver, frame rate, power estimate, clients and front ends.\n")
        case "boards":
            return "usage: ledring boards [--dir DIR]\nLists the boards ledring knows, with their SPI pins and clocks (DIR: more board files).\n"
        case "doctor":
            return "usage: ledring doctor [--root DIR] [--device PATH] [--driver KIND] [--leds N]\nChecks SPI, permissions, bufsiz and clocks; one line per check, exit 0 when all pass.\n"
        case "check-config":
            return "usage: ledring check-config FILE\nLists every problem in a config file, each with its place and the fix; exit 78 if any.\n"
        default:
            return Usage.text
        }
    }
}
