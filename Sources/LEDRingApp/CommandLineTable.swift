import LEDHardware
import LEDPresentation
import LEDRingControl
import LEDWire
import RingModel

/// What an option takes after its name.
enum OptionValue: Sendable, Equatable {
    /// Nothing: a switch (`--json`).
    case flag
    /// Free text, shown as the placeholder (`--duration S`).
    case text(String)
    /// A file's path (`--config FILE`): completion offers files.
    case file(String)
    /// A directory (`--svg-dir DIR`): completion offers directories.
    case directory(String)
    /// One of these words and nothing else (`--shape ring|pie|bar`); `shown` stands for them
    /// when they are too many to show (`--driver KIND`).
    case choice([String], shown: String = "WORD")
    /// Usually one of these names, but not only (`--correction` also takes `A+B`; `--effect flash 5`).
    case named(String, [String])
    /// A board id from the built-in catalogue, or `auto`; looked up only when asked, so parsing
    /// a command line never reads the catalogue.
    case board
}

/// One option of the command line: the name the parser matches, the names it also answers to,
/// what it takes and one line saying what it does.
struct OptionSpec: Sendable, Equatable {
    let name: String
    let aliases: [String]
    let value: OptionValue
    let summary: String

    init(_ name: String, aliases: [String] = [], _ value: OptionValue, _ summary: String) {
        self.name = name
        self.aliases = aliases
        self.value = value
        self.summary = summary
    }

    /// A switch.
    init(_ name: String, aliases: [String] = [], _ summary: String) {
        self.init(name, aliases: aliases, .flag, summary)
    }

    /// Whether a value follows the name.
    var takesValue: Bool { value != .flag }

    /// Every name it answers to, the main one first.
    var names: [String] { [name] + aliases }

    /// The words a value may be, when there is a list of them.
    var choices: [String] {
        switch value {
        case .choice(let words, _), .named(_, let words): return words
        case .board: return ["auto"] + ((try? BoardCatalog.builtIn())?.boards.map { $0.id } ?? [])
        case .flag, .text, .file, .directory: return []
        }
    }

    /// How the value is shown after the name: `FILE`, `ring|pie|bar`, or `MODE` when the
    /// choices would not fit (they are then said in `described`).
    var placeholder: String? {
        switch value {
        case .flag: return nil
        case .text(let shown), .file(let shown), .directory(let shown), .named(let shown, _): return shown
        case .choice(let words, let shown):
            let joined = words.joined(separator: "|")
            return joined.count <= 24 ? joined : shown
        case .board: return "NAME|auto"
        }
    }

    /// The summary, with the choices that did not fit in the placeholder.
    var described: String {
        if case .choice(let words, let shown) = value, placeholder == shown {
            return summary + "; \(shown) is one of " + words.joined(separator: ", ")
        }
        return summary
    }

    /// `-h, --help`, `--color, --colour #RRGGBB` or `--format json|text`, as a help or man page
    /// lists it: a short name first, then the main one.
    var shown: String {
        let short = aliases.filter { !$0.hasPrefix("--") }, long = aliases.filter { $0.hasPrefix("--") }
        return (short + [name] + long).joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "")
    }
}

/// Options that belong together and are parsed by one piece of code (`ColorOptions`,
/// `OutputConfig`), shared by the commands that take them.
struct OptionGroup: Sendable {
    let title: String
    let options: [OptionSpec]
}

/// One verb: how it is written, what it does and the options it takes.
struct VerbSpec: Sendable {
    let name: String
    /// Its forms, each `ledring VERB …`; a "\n" continues a long form on the next line.
    let usage: [String]
    /// One line, for the man page's list and the completion scripts.
    let summary: String
    /// What `ledring VERB --help` says under the usage.
    let about: String
    /// Its own options.
    let options: [OptionSpec]
    /// The shared groups it takes as well.
    let groups: [OptionGroup]
    /// The fixed words it takes (power: on, off), offered by completion.
    let words: [String]
    /// Whether it takes file names (check-config FILE).
    let takesFiles: Bool

    init(_ name: String, usage: [String], summary: String, about: String, options: [OptionSpec],
         groups: [OptionGroup] = [], words: [String] = [], takesFiles: Bool = false) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.about = about
        self.options = options
        self.groups = groups
        self.words = words
        self.takesFiles = takesFiles
    }

    /// Every option it takes: its own, then its groups'.
    var allOptions: [OptionSpec] { options + groups.flatMap { $0.options } }

    /// `usage: ledring set … | ledring set …` on one line, for error messages.
    var usageLine: String {
        "usage: " + usage.map { form in
            // One line, runs of spaces (the help's alignment) as one.
            var line = ""
            for character in form {
                let c: Character = character == "\n" ? " " : character
                if c == " " && line.last == " " { continue }
                line.append(c)
            }
            return line
        }.joined(separator: " | ")
    }
}

/// The one table of the command line's verbs and options. The parsers read it (`ArgumentReader`
/// refuses any option of a verb that is not here, with the nearest name as a suggestion, and
/// knows from it which options take a value), and `--help` of each verb, the completion
/// scripts and the man page are made from it, so none of them can name an option the parser
/// does not take, or miss one it does.
enum CommandLineTable {
    // MARK: Options several commands share

    static let help = OptionSpec("--help", aliases: ["-h"], "this text")
    static let clientSocket = OptionSpec("--socket", .file("PATH"),
                                         "the service's control socket (default: $LEDRING_SOCKET, $XDG_RUNTIME_DIR/ledring.sock, /run/ledring/ledring.sock)")
    static let json = OptionSpec("--json", "print the service's reply as it came, one JSON line")
    static let transitionDuration = OptionSpec("--duration", .text("S"), "animate over S seconds: 1.5, 90s, 1m30s (default: at once)")
    static let curve = OptionSpec("--curve", .choice(Curve.allCases.map { $0.rawValue }, shown: "CURVE"), "the animation's curve (default easeInOut)")
    static let drivers = DriverKind.allCases.filter { $0 != .simulate }.map { $0.rawValue }

    /// What a notification takes: `notify`'s own options, and `timer`'s after `--notify`.
    static let notice: [OptionSpec] = [
        OptionSpec("--look", .text("NAME"), "show the config's look NAME"),
        OptionSpec("--color", aliases: ["--colour"], .text("#RRGGBB"), "or show this colour"),
        OptionSpec("--effect", .named("E", ["pulse", "blink", "flash", "none"]), "the colour's effect: pulse, blink, \"flash N\" or none"),
        OptionSpec("--period", .text("S"), "the effect's period in seconds"),
        OptionSpec("--value", .text("V"), "the value shown meanwhile (0.8, 80%, or the ring's own units)"),
        OptionSpec("--for", .text("DURATION"), "how long it shows: 30s, 5m (required)"),
        OptionSpec("--priority", .text("N"), "-100…100; higher wins, a later one of equal priority replaces"),
        OptionSpec("--key", .text("K"), "a name to end it by (notify --clear --key K)"),
    ]

    // MARK: The one-shot command's groups

    static let values = OptionGroup(title: "VALUES", options: [
        OptionSpec("--set", .text("RING=VALUE"), "show VALUE on RING: a fraction (0.8; 1.3 is a second lap) or 80%"),
        OptionSpec("--spin", .text("RING"), "show the indeterminate spinner on RING"),
        OptionSpec("--duration", .text("TIME"), "animate --set values over this long: 1.5, 90s, 1m30s (default: jump)"),
        curve,
    ])

    static let rings = OptionGroup(title: "RINGS", options: [
        OptionSpec("--rings", .text("NAME:N,..."), "rings on the chain, in chain order, e.g. move:24,exercise:16 (default: move 24, exercise 16, stand 12)"),
        OptionSpec("--shape", .choice(RingShape.allCases.map { $0.rawValue }), "one ring, a pie of rings 24/16/12/1, or a straight bar, named \"progress\""),
        OptionSpec("--leds", .text("N"), "LEDs in the single ring or bar (default 24)"),
        OptionSpec("--cap", .choice(CapStyle.allCases.map { $0.rawValue }), "soft head that lights partly, or whole LEDs only (default round)"),
        OptionSpec("--span", .choice(GradientSpan.allCases.map { $0.rawValue }), "gradient around the circle, or stretched over the fill (default ring)"),
        OptionSpec("--reverse-spin", "the spinner sweeps back and forth"),
        OptionSpec("--laps", .choice(LapStyle.allCases.map { $0.rawValue }), "past 100 % the gradient turns with the head (default), or runs back and forth"),
        OptionSpec("--shadow", .text("S"), "the head's shadow past 100 %, 0…1 (default 0.35)"),
        OptionSpec("--highlight", .text("H"), "the head's lift towards white, 0…1 (default 0.2)"),
    ])

    /// `OutputSetting`'s options: where frames go.
    static let hardware = OptionGroup(title: "HARDWARE", options: OutputSetting.options)

    /// `ColorSetting`'s options: light, colour and the supply budget.
    static let colour = OptionGroup(title: "COLOUR AND POWER", options: ColorSetting.options)

    static let output = OptionGroup(title: "OUTPUT", options: [
        OptionSpec("--format", .choice(SimulatedFormat.allCases.map { $0.rawValue }),
                   "picture on a terminal (ansi, the default there unless NO_COLOR or TERM=dumb), text, one JSON object per frame, or one SVG picture (with --frames 1)"),
        OptionSpec("--svg-dir", .directory("DIR"), "one SVG picture per frame into DIR (frame-00000.svg, …)"),
        OptionSpec("--frames", .text("N"), "show N frames (default: until the rings settle; on a terminal, until Ctrl-C)"),
        OptionSpec("--fps", .text("F"), "frames per second; frame k shows t = k/F (default 30)"),
        OptionSpec("--realtime", "pace frames in real time even when output is not a terminal"),
    ])

    static let general = OptionGroup(title: "GENERAL", options: [
        help,
        OptionSpec("--version", aliases: ["-V"], "the version"),
    ])

    /// The one-shot command's options (`ledring --simulate …`, `ledring --driver KIND …`).
    static let oneShot: [OptionGroup] = [values, rings, hardware, colour, output, general]

    // MARK: The verbs

    static let verbs: [VerbSpec] = [
        VerbSpec("run", usage: ["ledring run [--config FILE] [--socket PATH] [--state PATH] [--stdin] [--fps F]\n(--simulate [--format json|text|svg] | --driver KIND [hardware options])"],
                 summary: "the service: rings fed through a control socket",
                 about: """
                 The service: renders the rings from the config and takes requests on the control socket
                 (ledring set/get/…, the text protocol, MQTT and HTTP when configured). The command line's
                 HARDWARE and COLOUR AND POWER options go over the config file's. See docs/service.md
                 in the sources.
                 """,
                 options: [
                    OptionSpec("--config", .file("FILE"), "the config file (default: the default rings and the command line's output)"),
                    OptionSpec("--socket", .file("PATH"), "the control socket, over the config's (default: $LEDRING_SOCKET, $XDG_RUNTIME_DIR/ledring.sock, /run/ledring/ledring.sock for root)"),
                    OptionSpec("--state", .file("PATH"), "the state file, over the config's (default: $XDG_STATE_HOME/ledring/state.json, ~/.local/state/ledring/state.json or /var/lib/ledring/state.json)"),
                    OptionSpec("--stdin", "take requests on standard input too"),
                    OutputSetting.runFormat,
                    OptionSpec("--fps", .text("F"), "frames per second while animating, 1…240 (default 30)"),
                    help,
                 ],
                 groups: [hardware, colour]),
        VerbSpec("set", usage: ["ledring set RING=VALUE… [--duration S] [--curve C] [--socket PATH] [--json]",
                                "ledring set RING VALUE…            (as the text protocol takes it)"],
                 summary: "send values to the running service",
                 about: """
                 VALUE is a percentage (80%) or a fraction of one lap (0.8; 1.3 is 130 %, 50 is 50 laps),
                 or a number in the ring's own units when its config gives a "range" (co2=812).
                 Exit 0 done, 65 refused (unknown ring, bad value), 69 no service running.
                 """,
                 options: [transitionDuration, curve, clientSocket, json, help]),
        VerbSpec("get", usage: ["ledring get [--socket PATH] [--json]"], summary: "each ring's value and target",
                 about: "Prints each ring's value and target.", options: [clientSocket, json, help]),
        VerbSpec("status", usage: ["ledring status [--socket PATH] [--json]"], summary: "the driver, frame rate, power estimate, clients and front ends",
                 about: "Prints the driver, frame rate, power estimate, clients and front ends.", options: [clientSocket, json, help]),
        VerbSpec("reset", usage: ["ledring reset [--duration S] [--curve C] [--socket PATH] [--json]"], summary: "every ring to 0",
                 about: "Sets every ring to 0 (animated over \(Request.defaultResetDuration) s, linear, unless --duration and --curve say otherwise; MQTT, HTTP, the page and a button reset the same way).",
                 options: [transitionDuration, curve, clientSocket, json, help]),
        VerbSpec("spin", usage: ["ledring spin RING… [--socket PATH] [--json]"], summary: "the indeterminate spinner on rings",
                 about: "Shows the indeterminate spinner on each RING until `ledring stop` or a new value.", options: [clientSocket, json, help]),
        VerbSpec("stop", usage: ["ledring stop [RING…] [--socket PATH] [--json]"], summary: "stop spinners",
                 about: "Stops the spinner on each RING (all rings when none is named).", options: [clientSocket, json, help]),
        VerbSpec("brightness", usage: ["ledring brightness VALUE [--socket PATH] [--json]"], summary: "overall light",
                 about: "Overall light, 0…1 or 0%…100%.", options: [clientSocket, json, help]),
        VerbSpec("power", usage: ["ledring power on|off [RING… [--duration S]] [--socket PATH] [--json]"], summary: "the LEDs, or some rings, off and on",
                 about: """
                 Without RING: every LED off (or on again), not saved. With RINGs: those rings go dark (over
                 --duration S), their value and look kept, and that is saved across a restart.
                 """,
                 options: [OptionSpec("--duration", .text("S"), "with RINGs: fade over S seconds: 1.5, 90s, 1m30s"), clientSocket, json, help],
                 words: ["on", "off"]),
        VerbSpec("look", usage: ["ledring look RING… NAME [--socket PATH] [--json]"], summary: "switch rings to a look",
                 about: """
                 Switches each RING to the look NAME from the config's "looks" (default: the ring's own look;
                 none: no look; or a colour #RRGGBB [pulse|blink]). Kept across restarts.
                 """,
                 options: [clientSocket, json, help]),
        VerbSpec("notify", usage: ["ledring notify [RING…] (--look NAME | --color #RRGGBB [--effect E] [--period S]) [--value V]\n--for DURATION [--priority N] [--key K] [--socket PATH] [--json]",
                                   "ledring notify --clear [--key K]"],
                 summary: "a notification over rings for a while",
                 about: """
                 Takes over the RINGs (all when none is named) until DURATION (30s, 5m) has passed, then gives
                 back exactly what was there. Higher --priority wins; a later one of equal priority replaces.
                 Effects: pulse, blink, "flash N", none. Kept across a restart with the time it has left.
                 """,
                 options: notice + [OptionSpec("--clear", "end every notification (with --key K: only that one)"), clientSocket, json, help]),
        VerbSpec("timer", usage: ["ledring timer RING (DURATION | --until HH:MM) [--up] [--then LOOK]\n[--notify (--look NAME | --color #RRGGBB [--effect E]) --for DURATION …]\n[--socket PATH] [--json]",
                                  "ledring timer RING pause|resume|cancel"],
                 summary: "a ring that drains (or fills) in real time",
                 about: """
                 The ring drains over DURATION (25m, 1h30m), or until the time of day HH:MM, in real time, or
                 fills with --up; at the end it switches to LOOK and shows the notification given after
                 --notify (its options as notify takes them). A restart or reload does not disturb it;
                 `ledring get` shows the time left.
                 """,
                 options: [
                    OptionSpec("--until", .text("HH:MM"), "run until this time of day (24-hour, today or tomorrow) instead of for DURATION"),
                    OptionSpec("--up", "fill instead of drain"),
                    OptionSpec("--then", .text("LOOK"), "the look to switch to at the end"),
                    OptionSpec("--notify", "a notification at the end: the options after it are notify's"),
                 ] + notice + [clientSocket, json, help],
                 words: ["pause", "resume", "cancel"]),
        VerbSpec("feed", usage: ["ledring feed RING [--range MIN:MAX] [--duration S] [--socket PATH]"],
                 summary: "numbers on standard input, one per line, become a ring's value",
                 about: """
                 Each number read on standard input, one per line, becomes RING's value: lines that come
                 faster than the service takes them collapse into the latest, a line that is not a number is
                 said and skipped, the end of input leaves the last value. Without --range a number is read
                 as set reads it (0.5 is half a ring, 3 is three laps, 30% a percentage), e.g.
                 pv -n big.iso 2>&1 >/mnt/usb/big.iso | ledring feed copy --range 0:100
                 """,
                 options: [
                    OptionSpec("--range", .text("MIN:MAX"), "the input's own scale, mapped onto one lap (e.g. 0:100 for percentages)"),
                    OptionSpec("--duration", .text("S"), "each change animates over S seconds (default 0.25)"),
                    clientSocket, help,
                 ]),
        VerbSpec("boards", usage: ["ledring boards [--dir DIR]"], summary: "the boards ledring knows, with their SPI pins",
                 about: "Lists the boards ledring knows, with their SPI pins and clocks.",
                 options: [OptionSpec("--dir", .directory("DIR"), "more board files (JSON) to read"), help]),
        VerbSpec("doctor", usage: ["ledring doctor [--root DIR] [--device PATH] [--driver KIND] [--leds N]"],
                 summary: "check SPI, permissions, bufsiz and clocks",
                 about: "Checks SPI, permissions, bufsiz and clocks; one line per check, exit 0 when all pass.",
                 options: [
                    OptionSpec("--root", .directory("DIR"), "the root of the system to check (default /)"),
                    OptionSpec("--device", .file("PATH"), "the SPI device to check (default: the board's)"),
                    OptionSpec("--driver", .choice(drivers, shown: "KIND"), "the driver the checks are for (default ws2812-spi)"),
                    OptionSpec("--leds", .text("N"), "LEDs on the chain, for the frame size (default 52)"),
                    help,
                 ]),
        VerbSpec("check-config", usage: ["ledring check-config FILE"], summary: "list every problem in a config file",
                 about: "Lists every problem in a config file, each with its place and the fix; exit 78 if any.",
                 options: [help], takesFiles: true),
        VerbSpec("help", usage: ["ledring help [VERB]", "ledring help --man"], summary: "this help, one verb's, or the manual page",
                 about: "Prints the general help, one verb's help as ledring VERB --help does, or with --man the manual page as roff (man -l <(ledring help --man)).",
                 options: [OptionSpec("--man", "the manual page, ledring(1), as roff; SOURCE_DATE_EPOCH sets its date"), help]),
        VerbSpec("version", usage: ["ledring version"], summary: "the version (also -V, --version)",
                 about: "Prints the version, as -V and --version do.", options: [help]),
        VerbSpec("completion", usage: ["ledring completion bash|zsh|fish"], summary: "a shell completion script",
                 about: """
                 Prints a completion script for the shell, made from the table the command line is parsed by:
                   bash  ledring completion bash > ~/.local/share/bash-completion/completions/ledring
                   zsh   ledring completion zsh > ~/.zfunc/_ledring   (with fpath+=(~/.zfunc) before compinit)
                   fish  ledring completion fish > ~/.config/fish/completions/ledring.fish
                 or for this shell only: source <(ledring completion bash)
                 """,
                 options: [help], words: CompletionScript.shells),
    ]

    /// The verb called `name`.
    static func verb(_ name: String) -> VerbSpec? {
        verbs.first { $0.name == name }
    }

    /// The options `verb` takes; nil: the one-shot command's.
    static func options(of verb: String?) -> [OptionSpec] {
        guard let verb else { return oneShot.flatMap { $0.options } }
        return self.verb(verb)?.allOptions ?? []
    }

    /// The option `name` (or one of its aliases) among `options`.
    static func find(_ name: String, in options: [OptionSpec]) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }

    /// Options that may come before a verb (`ledring --socket X set …`), and whether each takes a value.
    static let beforeVerb: [String: Bool] = ["--socket": true, "--config": true, "--state": true, "--json": false]

    // MARK: Messages

    /// The option of `options` that `word` was probably meant to be: one or two edits from it
    /// (fewer for short names), or the one option it begins.
    static func suggestion(for word: String, among options: [OptionSpec]) -> String? {
        guard word.hasPrefix("--"), word.count > 2 else { return nil }
        let names = options.flatMap { $0.names }.filter { $0.hasPrefix("--") }
        let allowed = min(2, (word.count - 2) / 3)
        let scored = names.map { ($0, VerbLine.distance(word, $0)) }.filter { $0.1 <= allowed }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        let begun = names.filter { $0.hasPrefix(word) }
        return word.count >= 5 && begun.count == 1 ? begun[0] : nil
    }

    /// `word` is no option of `verb` (nil: of the one-shot command): the nearest one, or which
    /// commands take it, and where to look.
    static func unknownOption(_ word: String, verb: String?) -> CommandError {
        var message = (verb.map { $0 + ": " } ?? "") + "unknown option \"\(word)\""
        if let near = suggestion(for: word, among: options(of: verb)) {
            return .usage(message + "; did you mean \(near)?")
        }
        var owners = verbs.filter { $0.name != verb && find(word, in: $0.allOptions) != nil }.map { $0.name }
        if verb != nil, find(word, in: options(of: nil)) != nil { owners.insert("--simulate", at: 0) }
        if !owners.isEmpty, owners.count <= 6 {
            message += " (an option of " + list(owners.map { $0.hasPrefix("-") ? "ledring \($0)" : $0 }) + ")"
        }
        guard let verb, let spec = self.verb(verb) else { return .usage(message + "; see `ledring --help`") }
        return .usage(message + "; " + spec.usageLine)
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
    }

    // MARK: Help

    /// `ledring VERB --help`: the usage, what it does, and every option it takes.
    static func helpText(_ spec: VerbSpec) -> String {
        var out = ""
        for (i, form) in spec.usage.enumerated() {
            out += (i == 0 ? "usage: " : "       ")
            out += String(form.flatMap { $0 == "\n" ? Array("\n" + String(repeating: " ", count: 11)) : [$0] }) + "\n"
        }
        out += spec.about + "\n"
        let lines = optionLines(spec.options)
        if !lines.isEmpty { out += "\noptions:\n" + lines }
        for group in spec.groups {
            out += "\n\(group.title.lowercased()) options (as the one-shot command takes them):\n" + optionLines(group.options)
        }
        return out
    }

    /// One line per option, its names padded to a column and what it does wrapped beside them.
    static func optionLines(_ options: [OptionSpec]) -> String {
        let column = 24
        let indent = String(repeating: " ", count: column)
        var out = ""
        for option in options {
            let shown = "  " + option.shown
            out += shown.count < column - 1 ? shown + String(repeating: " ", count: column - shown.count) : shown + "\n" + indent
            out += wrapped(option.described, width: 80 - column).joined(separator: "\n" + indent) + "\n"
        }
        return out
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
