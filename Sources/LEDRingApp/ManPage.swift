
/// `ledring help --man`: ledring(1) in roff, made from `CommandLineTable` (the table the parsers
/// read), so the page names every verb and option the program takes and no other; the package's
/// page is this (tools/package.sh).
enum ManPage {
    /// The page; `date` (YYYY-MM-DD) goes in its header when given.
    static func roff(date: String?) -> String {
        var out = ".TH LEDRING 1 \"\(date ?? "")\" \"ledring \(LEDRingApp.version)\" \"User Commands\"\n"
        // No hyphenation, no justification: options and paths are copied from a man page.
        out += ".nh\n.ad l\n"
        out += ".SH NAME\nledring \\- progress values as light on addressable LED rings\n"

        out += ".SH SYNOPSIS\n"
        out += forms(["ledring --simulate [options]", "ledring --driver KIND [options]"] + CommandLineTable.verbs.map { $0.usage[0] })

        out += ".SH DESCRIPTION\n"
        out += text("""
            ledring shows progress values (0.8 is 80 % of a ring, 1.3 a second lap) as light on addressable \
            LED rings, pies and bars: the one-shot command draws them once, here (--simulate) or on the LEDs \
            (--driver KIND); `ledring run` is the service, which keeps the rings and takes requests on its \
            control socket (and over MQTT and HTTP when its config asks), and the other verbs are sent to it.
            """)
        out += text("Every option may also be written --name=value. Options such as --socket may come before the verb. "
                    + "`ledring VERB --help` prints one verb's help; `ledring completion bash|zsh|fish` a shell completion script.")

        out += ".SH OPTIONS\n"
        out += text("The one-shot command's options. `ledring run` takes the HARDWARE and COLOUR AND POWER options too, over its config file's.")
        for group in CommandLineTable.oneShot {
            out += ".SS \(group.title)\n" + options(group.options)
        }

        out += ".SH COMMANDS\n"
        for verb in CommandLineTable.verbs {
            out += ".SS \(escaped(verb.name))\n" + forms(verb.usage) + text(verb.about) + options(verb.options)
            if !verb.groups.isEmpty {
                out += text("And the " + CommandLineTable.list(verb.groups.map { $0.title }) + " options (OPTIONS above).")
            }
        }

        out += ".SH EXIT STATUS\n"
        out += text("As in sysexits.h, so that scripts and systemd can tell failures apart:")
        for code in ExitCode.allCases {
            out += ".TP\n.B \(code.rawValue)\n" + escaped(meaning(code)) + "\n"
        }

        out += ".SH ENVIRONMENT\n"
        for (name, meaning) in environment {
            out += ".TP\n.B \(escaped(name))\n" + escaped(meaning) + "\n"
        }

        out += ".SH FILES\n"
        for (path, meaning) in files {
            out += ".TP\n.I \(escaped(path))\n" + escaped(meaning) + "\n"
        }

        out += ".SH SEE ALSO\n.BR ledring\\-setup (8),\n.I /usr/share/doc/ledring/examples\n"
        return out
    }

    static let environment: [(String, String)] = [
        ("NO_COLOR", "set to anything but the empty string: no colour escapes; on a terminal the one-shot command prints the text format instead of the picture (a --format given still wins)"),
        ("TERM", "dumb: the same as NO_COLOR"),
        ("LEDRING_SOCKET", "the control socket, when neither --socket nor the config names one"),
        ("XDG_RUNTIME_DIR", "without LEDRING_SOCKET, the socket is $XDG_RUNTIME_DIR/ledring.sock (else /run/ledring/ledring.sock for root, /tmp/ledring-UID.sock for others)"),
        ("XDG_STATE_HOME", "the state file is $XDG_STATE_HOME/ledring/state.json when neither --state nor the config names one"),
        ("HOME", "without XDG_STATE_HOME, the state file is ~/.local/state/ledring/state.json (root: /var/lib/ledring/state.json)"),
        ("SOURCE_DATE_EPOCH", "the date in the header of this page (ledring help --man)"),
    ]

    static let files: [(String, String)] = [
        ("/etc/ledring/config.json", "the service's configuration (ledring check-config lists its problems)"),
        (DaemonPaths.serviceState, "the values, looks and brightness the service keeps over a restart"),
        (DaemonPaths.serviceSocket, "the service's control socket"),
    ]

    /// What each exit status means; a new one must be said here (the switch has no default).
    static func meaning(_ code: ExitCode) -> String {
        switch code {
        case .ok: return "done"
        case .usage: return "the command line was wrong: the message names the option and the fix"
        case .dataError: return "the data was refused: a request the service turned down (an unknown ring, a value out of range)"
        case .unavailable: return "a device or the service is not there (no SPI device, no ledring service on the socket)"
        case .software: return "something went wrong inside ledring"
        case .ioError: return "reading or writing failed"
        case .noPermission: return "no permission for a device, the socket or a file"
        case .config: return "the configuration is wrong (check-config lists every problem)"
        }
    }

    /// Usage forms, each filled with a hanging indent, `ledring VERB` in bold.
    static func forms(_ forms: [String]) -> String {
        var out = ".PP\n.in +4n\n"
        for form in forms {
            let flat = String(form.map { $0 == "\n" ? " " : $0 })
            let words = flat.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            var line = escaped(flat)
            if words.count >= 2, words[0] == "ledring" {
                // The verb (or the one-shot's first option) in bold, the rest as written.
                line = "\\fBledring \(escaped(words[1]))\\fR" + (words.count > 2 ? " " + escaped(words[2]) : "")
            }
            out += ".ti -4n\n" + line + "\n"
        }
        return out + ".in -4n\n"
    }

    /// Options as a tagged list.
    static func options(_ options: [OptionSpec]) -> String {
        var out = ""
        for option in options {
            let short = option.aliases.filter { !$0.hasPrefix("--") }, long = option.aliases.filter { $0.hasPrefix("--") }
            let names = (short + [option.name] + long).map { "\\fB" + escaped($0) + "\\fR" }.joined(separator: ", ")
            out += ".TP\n" + names + (option.placeholder.map { " \\fI" + escaped($0) + "\\fR" } ?? "") + "\n"
            out += escaped(option.described) + "\n"
        }
        return out
    }

    /// Prose as a paragraph; lines that begin with spaces (examples) kept as they are.
    static func text(_ prose: String) -> String {
        var out = ".PP\n"
        var verbatim = false
        for line in prose.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.first == " "
            if indented != verbatim {
                out += indented ? ".nf\n" : ".fi\n"
                verbatim = indented
            }
            out += escaped(String(line)) + "\n"
        }
        return out + (verbatim ? ".fi\n" : "")
    }

    /// `text` safe in roff: backslashes and hyphens escaped (a `\-` is a minus, as options need
    /// to be copied), anything outside ASCII as a `\[uXXXX]` glyph, a leading `.` or `'` kept
    /// from being read as a request.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                if scalar.value < 0x80 {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// `SOURCE_DATE_EPOCH` (seconds since 1970, UTC) as YYYY-MM-DD; nil when unset or not a number.
    static func date(sourceDateEpoch: String?) -> String? {
        guard let text = sourceDateEpoch, let seconds = Int(text), seconds >= 0 else { return nil }
        // Days to a civil date (Howard Hinnant's algorithm), no C library or Foundation needed.
        let z = seconds / 86_400 + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
