import LEDJSON
import LEDRingControl
import RingModel

/// One entry of the config's `sources`: where a ring's value comes from without anyone sending
/// it: a file read every so often (`{"ring": "batt", "file": "/sys/class/power_supply/BAT0/capacity",
/// "every": 60}`), a command run every so often (`{"ring": "disk", "command": ["df", "--output=pcent",
/// "/"], "every": "5m"}`) or an MQTT topic on the `mqtt` section's broker (`{"ring": "print",
/// "mqtt": "octoPrint/progress/printing", "value": "/progress"}`).
struct SourceConfig: Equatable, Sendable {
    /// The ring it feeds.
    var ring: String
    /// The file read, for a file source.
    var file: String?
    /// The program and its arguments (no shell), for a command source.
    var command: [String]?
    /// Seconds between reads of a file or runs of a command (0.1 s … a day; default 10 s).
    var every = 10.0
    /// Seconds a command may run before it is stopped; nil: `every` or 10 s, whichever is less.
    var timeout: Double?
    /// A JSON Pointer (RFC 6901) to the number in a JSON file; nil: the first number in the text.
    var value: String?
    /// The input's own scale, mapped onto one lap; nil: the number is sent as `set` takes it (laps,
    /// a percentage, or the ring's own units when it has a `range`).
    var range: ValueRange?
    /// Seconds without a good value after which the ring shows that it is stale; nil: never.
    var stale: Double?
    /// What a stale ring shows: a look's name, or nil for the spinner.
    var staleLook: String?
    /// The topic filter (MQTT wildcards allowed), for an MQTT source.
    var mqtt: String?
    /// A JSON Pointer to a state word (`"/_event"`) whose value `looks` maps to a look.
    var state: String?
    /// State → look name (or `default`); states not listed change nothing.
    var looks: [String: String] = [:]
    /// State → a notification shown when that state comes (`{"PrintDone": {"look": "done",
    /// "for": "1m"}}`), over the source's ring unless it names rings.
    var notices: [String: Notice] = [:]

    /// How the log names it.
    var label: String { file ?? command.map { "command " + $0.joined(separator: " ") } ?? "mqtt \(mqtt ?? "")" }
    /// How long a command may run: never past its next run.
    var commandTimeout: Double { timeout ?? Swift.min(every, 10) }
    /// Whether it is read on a schedule (a file or a command), not handed messages.
    var isPolled: Bool { file != nil || command != nil }
    /// Whether it reads a number (else only a state): unless it says only `state`.
    var readsValue: Bool { value != nil || state == nil }

    static let keys = ["ring", "file", "mqtt", "every", "value", "state", "looks", "range", "stale", "whenStale", "command", "timeout", "notify"]

    /// Reads `sources` (an array), checking each entry's ring and look against the config's;
    /// `broker` says whether the config has an `mqtt` section for MQTT sources to subscribe on.
    static func readAll(_ value: JSONValue, at path: String, ringNames: [String], ranged: Set<String> = [], looks: [String], broker: Bool,
                        into reader: inout ConfigReader) -> [SourceConfig] {
        guard case .array(let items) = value else {
            reader.report(path, "must be a list of sources, e.g. [{\"ring\": \"batt\", \"file\": \"/sys/class/power_supply/BAT0/capacity\", \"every\": 60}]")
            return []
        }
        return items.enumerated().compactMap { i, item in
            read(item, at: ConfigReader.join(path, index: i), ringNames: ringNames, ranged: ranged, looks: looks, broker: broker, into: &reader)
        }
    }

    static func read(_ value: JSONValue, at path: String, ringNames: [String], ranged: Set<String> = [], looks: [String], broker: Bool,
                     into reader: inout ConfigReader) -> SourceConfig? {
        guard let m = reader.object(value, at: path, known: keys) else { return nil }
        let before = reader.problems.count
        let ring = reader.string(m["ring"], at: ConfigReader.join(path, "ring"))
        if m["ring"] == nil {
            reader.report(path, "says no \"ring\"; name the ring it feeds, e.g. \"ring\": \"\(ringNames.first ?? "batt")\"")
        } else if let ring, !ringNames.contains(ring) {
            reader.report(ConfigReader.join(path, "ring"), RequestError.unknownRing(ring, known: ringNames).message)
        }
        let file = reader.string(m["file"], at: ConfigReader.join(path, "file"))
        let topic = reader.string(m["mqtt"], at: ConfigReader.join(path, "mqtt"))
        let command = m["command"].flatMap { SourceConfig.command($0, at: ConfigReader.join(path, "command"), into: &reader) }
        let given = ["file", "command", "mqtt"].filter { m[$0] != nil }
        if given.isEmpty {
            reader.report(path, "says where the value comes from with \"file\": PATH, \"command\": [PROGRAM, ARGS…] or \"mqtt\": TOPIC, e.g. \"file\": \"/sys/class/power_supply/BAT0/capacity\"")
        } else if given.count > 1 {
            reader.report(path, "gives \(given.map { "\"\($0)\"" }.joined(separator: " and ")); a source reads one of them (write one source each)")
        } else if let file, !file.hasPrefix("/") {
            reader.report(ConfigReader.join(path, "file"), "must be an absolute path (the service's directory is not yours), got \"\(file)\"")
        }
        if let topic, !SourceConfig.isTopicFilter(topic) {
            reader.report(ConfigReader.join(path, "mqtt"),
                          "must be an MQTT topic filter: levels split by /, + for one whole level, # only as the last level, e.g. \"octoPrint/event/#\"; got \"\(topic)\"")
        }
        if m["mqtt"] != nil && !broker {
            reader.report(ConfigReader.join(path, "mqtt"), "needs the \"mqtt\" section: the broker to subscribe on (its host and port)")
        }
        if m["mqtt"] != nil && m["every"] != nil {
            reader.report(ConfigReader.join(path, "every"), "applies to file and command sources; an MQTT source takes each message as it comes")
        }
        var source = SourceConfig(ring: ring ?? "", file: file)
        source.mqtt = topic
        source.command = command
        if let raw = m["every"] { source.every = seconds(raw, "every", at: path, into: &reader) ?? 10 }
        if let raw = m["timeout"] {
            if m["command"] == nil {
                reader.report(ConfigReader.join(path, "timeout"), "applies to command sources: how long a command may run")
            } else if let timeout = seconds(raw, "timeout", at: path, into: &reader) {
                if timeout > source.every {
                    reader.report(ConfigReader.join(path, "timeout"),
                                  "must not be longer than \"every\" (\(DurationText.format(source.every))): a command still running when the next run is due would be skipped; got \(DurationText.format(timeout))")
                } else {
                    source.timeout = timeout
                }
            }
        }
        if let raw = m["stale"] { source.stale = seconds(raw, "stale", at: path, into: &reader) }
        if let pointer = reader.string(m["value"], at: ConfigReader.join(path, "value")) {
            if JSONValue.isPointer(pointer) {
                source.value = pointer
            } else {
                reader.report(ConfigReader.join(path, "value"), "must be a JSON Pointer like \"/progress\" or \"/battery/level\" (\"\" for the whole document), got \"\(pointer)\"")
            }
        }
        if let pointer = reader.string(m["state"], at: ConfigReader.join(path, "state")) {
            if JSONValue.isPointer(pointer) {
                source.state = pointer
            } else {
                reader.report(ConfigReader.join(path, "state"), "must be a JSON Pointer like \"/_event\" or \"/state\", got \"\(pointer)\"")
            }
        }
        if let raw = m["looks"] {
            if case .object(let pairs) = raw {
                for pair in pairs.pairs {
                    let at = ConfigReader.join(ConfigReader.join(path, "looks"), pair.key)
                    guard let look = reader.string(pair.value, at: at) else { continue }
                    if look == "default" || looks.contains(look) {
                        source.looks[pair.key] = look
                    } else {
                        reader.report(at, "no look called \"\(look)\"; " + (looks.isEmpty ? "the config has no \"looks\"" : "the looks are \(looks.joined(separator: ", ")), or default"))
                    }
                }
            } else {
                reader.report(ConfigReader.join(path, "looks"), "must map states to looks, e.g. {\"PrintFailed\": \"failed\", \"PrintDone\": \"done\"}")
            }
            if m["state"] == nil { reader.report(ConfigReader.join(path, "looks"), "needs \"state\": a JSON Pointer to the state word the looks are chosen by") }
        } else if m["state"] != nil && m["notify"] == nil {
            reader.report(ConfigReader.join(path, "state"), "needs \"looks\" (which look each state shows, e.g. {\"PrintFailed\": \"failed\"}) or \"notify\"")
        }
        if let raw = m["notify"] {
            source.notices = SourceConfig.notices(raw, at: ConfigReader.join(path, "notify"), ring: ring ?? "", ringNames: ringNames,
                                                  ranged: ranged, looks: looks, into: &reader)
            if m["state"] == nil { reader.report(ConfigReader.join(path, "notify"), "needs \"state\": a JSON Pointer to the state word the notifications are chosen by") }
        }
        if let raw = m["range"] {
            if case .array(let bounds) = raw, bounds.count == 2, case .number(let min) = bounds[0], case .number(let max) = bounds[1], min < max {
                source.range = ValueRange(min: min, max: max)
            } else {
                reader.report(ConfigReader.join(path, "range"), "must be [min, max] with min below max, e.g. [0, 100]")
            }
        }
        if let look = reader.string(m["whenStale"], at: ConfigReader.join(path, "whenStale")), look != "spin" {
            if looks.contains(look) {
                source.staleLook = look
            } else {
                reader.report(ConfigReader.join(path, "whenStale"),
                              "must be \"spin\" or a look from \"looks\"" + (looks.isEmpty ? " (the config has none)" : " (\(looks.joined(separator: ", ")))")
                              + ", got \"\(look)\"")
            }
        }
        if m["whenStale"] != nil && m["stale"] == nil {
            reader.report(ConfigReader.join(path, "whenStale"), "needs \"stale\": the seconds without a value after which it applies")
        }
        return reader.problems.count == before ? source : nil
    }

    /// State word → notification: each the socket's notify object without `verb` (rings default
    /// to the source's), checked as a `notify` request is.
    static func notices(_ raw: JSONValue, at path: String, ring: String, ringNames: [String], ranged: Set<String>, looks: [String],
                        into reader: inout ConfigReader) -> [String: Notice] {
        guard case .object(let pairs) = raw else {
            reader.report(path, "must map states to notifications, e.g. {\"PrintDone\": {\"look\": \"done\", \"for\": \"1m\"}}")
            return [:]
        }
        var notices: [String: Notice] = [:]
        let keys = (Request.jsonKeys["notify"] ?? []).filter { $0 != "verb" && $0 != "clear" }
        for pair in pairs.pairs {
            let at = ConfigReader.join(path, pair.key)
            guard var members = reader.object(pair.value, at: at, known: keys) else { continue }
            if members["rings"] == nil { members["rings"] = .array([.string(ring)]) }
            do throws(RequestError) {
                let request = try Request.parseNotifyJSON(members)
                try request.validate(rings: ringNames, ranged: ranged, looks: looks)
                if case .notify(let notice) = request { notices[pair.key] = notice }
            } catch {
                reader.report(at, error.message)
            }
        }
        return notices
    }

    /// A command: a list of strings, the program first (found on `PATH`, or an absolute path);
    /// nil after reporting what is wrong.
    static func command(_ raw: JSONValue, at path: String, into reader: inout ConfigReader) -> [String]? {
        let example = "e.g. [\"cat\", \"/sys/class/power_supply/BAT0/capacity\"] (no shell: for pipes, [\"sh\", \"-c\", \"…\"])"
        guard case .array(let items) = raw, !items.isEmpty else {
            reader.report(path, "must be the program and its arguments as a list of strings, \(example)")
            return nil
        }
        var argv: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let word) = item, !word.unicodeScalars.contains("\u{0}") else {
                reader.report(ConfigReader.join(path, index: i), "must be a string without NUL, \(example)")
                return nil
            }
            argv.append(word)
        }
        let program = argv[0]
        if program.isEmpty {
            reader.report(ConfigReader.join(path, index: 0), "names no program, \(example)")
            return nil
        }
        if program.contains(Character("/")) && !program.hasPrefix("/") {
            reader.report(ConfigReader.join(path, index: 0),
                          "must be a program on PATH (\"cat\") or an absolute path (the service's directory is not yours), got \"\(program)\"")
            return nil
        }
        return argv
    }

    /// Whether `filter` is an MQTT topic filter (MQTT 3.1.1, 4.7): not empty, no NUL, `+` only as
    /// a whole level, `#` only as the whole last level.
    static func isTopicFilter(_ filter: String) -> Bool {
        guard !filter.isEmpty, filter.utf8.count <= 65_535, !filter.unicodeScalars.contains("\u{0}") else { return false }
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in levels.enumerated() {
            if level.contains(Character("#")) && (level != "#" || i != levels.count - 1) { return false }
            if level.contains(Character("+")) && level != "+" { return false }
        }
        return true
    }

    /// Seconds written as a number or a duration string (`"1m"`): 0.1 s … a day.
    private static func seconds(_ raw: JSONValue, _ key: String, at path: String, into reader: inout ConfigReader) -> Double? {
        let at = ConfigReader.join(path, key)
        do throws(RequestError) {
            let value = try Request.duration(raw, limit: 86_400, name: key)
            guard value >= 0.1 else {
                reader.report(at, "must be at least 0.1 s, got \(JSONValue.format(value))")
                return nil
            }
            return value
        } catch {
            reader.report(at, error.message)
            return nil
        }
    }
}
