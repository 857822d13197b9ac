import Glibc
import LEDRingControl
import LEDJSON
import LEDRingNet
import LEDSystem
import LEDWire
import RingModel

/// A checked `ledring run` configuration: the rings, the output and the service settings.
struct DaemonConfig: Sendable {
    /// The rings, laid out on one chain.
    var layout: RingLayout
    /// Where frames go.
    var output = OutputConfig()
    /// The colour and power settings the file gives (`brightness`, `gamma`, …: `ColorSetting`'s
    /// keys), laid under the command line's.
    var color = ColorOptions()
    /// Frames per second while something moves.
    var fps = 30.0
    /// GPIO inputs and power switch (checked and stored; wiring comes with the GPIO layer).
    var gpio = GPIOConfig()
    /// The control socket.
    var socket = SocketConfig()
    /// Where target values are kept across restarts; nil uses the default.
    var statePath: String?
    /// The MQTT bridge; nil (no `mqtt` section) leaves it off.
    var mqtt: MQTTSettings?
    /// The HTTP API and live page; nil (no `http` section) leaves them off.
    var http: HTTPSettings?
    /// Where rings' values come from by themselves (files read every so often).
    var sources: [SourceConfig] = []

    /// The keys of one look under `looks`.
    static let lookKeys = ["gradient", "effect", "period", "fill"]
    /// Keys the top-level object may have.
    static let keys = ["rings", "output"] + ColorSetting.fileKeys
        + ["fps", "gpio", "socket", "state", "mqtt", "http", "looks", "sources"]

    /// The three activity rings with every other setting at its default.
    static func defaults() throws(ConfigError) -> DaemonConfig {
        do {
            return DaemonConfig(layout: try RingLayout(rings: Palette.activityRings()))
        } catch {
            throw ConfigError(file: "built-in rings", problems: [ConfigProblem(path: "rings", message: OneShotOptions.explain(error))])
        }
    }

    /// Largest config file read, bytes: far more than any real chain needs (16 384 one-LED rings
    /// fit), and it bounds the memory checking a file can take.
    static let maxFileBytes = 1 << 20

    /// Most looks in one config: each is a gradient table of 12 KB, kept once whatever the number
    /// of rings (WLED keeps at most 250 presets).
    static let maxLooks = 256

    /// Reads and checks the file at `path`.
    static func load(path: String) throws(ConfigError) -> DaemonConfig {
        func failure(_ message: String) -> ConfigError {
            ConfigError(file: path, problems: [ConfigProblem(path: "", message: message)])
        }
        let bytes: [UInt8]
        do throws(BoundedFile.Problem) {
            bytes = try BoundedFile.read(path, limit: maxFileBytes)
        } catch {
            switch error {
            case .cannotOpen(let errno):
                throw failure("cannot read the config file (\(errno)); check the path and its permissions")
            case .notRegular(let kind): throw failure("is not a regular file (\(kind)); give the path of a JSON config file")
            case .tooLarge(let size?):
                throw failure("the file is \(size) bytes; a config may be at most 1 MiB (\(maxFileBytes) bytes)")
            case .tooLarge(nil): throw failure("the file is over 1 MiB; a config may be at most \(maxFileBytes) bytes")
            case .readFailed(let errno): throw failure("cannot read the config file (\(errno))")
            }
        }
        return try parse(bytes, file: path)
    }

    /// Checks a config document, reporting every problem at once.
    static func parse(_ bytes: [UInt8], file: String = "config") throws(ConfigError) -> DaemonConfig {
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue.parse(bytes)
        } catch {
            throw ConfigError(file: file, problems: [ConfigProblem(path: "", message: "not valid JSON: \(error)")])
        }
        var reader = ConfigReader()
        let config = read(document, into: &reader)
        if let config, reader.problems.isEmpty { return config }
        return try failure(file: file, reader.problems)
    }

    private static func failure(file: String, _ problems: [ConfigProblem]) throws(ConfigError) -> DaemonConfig {
        throw ConfigError(file: file, problems: problems.isEmpty
            ? [ConfigProblem(path: "", message: "the rings do not make a valid layout")] : problems)
    }

    /// Reads the whole document; nil when the rings could not be built (the problems say why).
    static func read(_ document: JSONValue, into reader: inout ConfigReader) -> DaemonConfig? {
        guard let members = reader.object(document, at: "", known: keys) else { return nil }
        var rings: [RingSpec]? = Palette.activityRings()
        if let value = members["rings"] {
            rings = RingConfig.readAll(value, at: "rings", into: &reader)
        }
        var layout: RingLayout?
        if let rings {
            do {
                layout = try RingLayout(rings: rings)
            } catch {
                // Names and sizes were checked with paths already; this is the backstop.
                reader.report("rings", OneShotOptions.explain(error))
            }
        }
        let read = readLooks(members["looks"], at: "looks", into: &reader)
        let looks = read ?? []
        for (i, ring) in (rings ?? []).enumerated() where read != nil {
            if let look = ring.look, !looks.contains(where: { $0.name == look }) {
                let known = looks.isEmpty ? "the config has no \"looks\"" : "the looks are \(looks.map { $0.name }.joined(separator: ", "))"
                reader.report("rings[\(i)].look", "no look called \"\(look)\"; \(known)")
            }
        }
        guard var layout else {
            // Still read the rest, so every problem in the file is listed at once.
            if let stand = try? RingLayout(rings: Palette.activityRings()) {
                var unused = DaemonConfig(layout: stand)
                unused.readSettings(members, ringNames: (rings ?? []).map { $0.name }, into: &reader)
            }
            return nil
        }
        layout.looks = looks
        var config = DaemonConfig(layout: layout)
        config.readSettings(members, ringNames: layout.rings.map { $0.name }, into: &reader)
        return config
    }

    /// `"looks": {"failed": {"gradient": "#ff2020", "effect": "pulse", "period": 1.5}, …}`,
    /// shared by every ring; `"fill": "value"` for a look that colours the value, not the ring.
    /// nil when there are more than `maxLooks` (refused before any is built).
    static func readLooks(_ value: JSONValue?, at path: String, into reader: inout ConfigReader) -> [Look]? {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            reader.report(path, "must be an object of named looks, e.g. {\"failed\": {\"gradient\": \"#ff2020\", \"effect\": \"pulse\"}}")
            return []
        }
        guard members.pairs.count <= maxLooks else {
            reader.report(path, "has \(members.pairs.count) looks; at most \(maxLooks) are supported (each costs 12 KB of gradient)")
            return nil
        }
        var looks: [Look] = []
        for member in members.pairs {
            let lookPath = ConfigReader.join(path, member.key)
            if Request.builtInLooks.contains(member.key) || !RingLayout.isValidName(member.key) {
                reader.report(lookPath, "a look's name must be letters, digits, - and _ (not default or none), got \"\(member.key)\"")
                continue
            }
            guard let m = reader.object(member.value, at: lookPath, known: DaemonConfig.lookKeys) else { continue }
            let gradient = RingConfig.readGradient(m["gradient"], at: ConfigReader.join(lookPath, "gradient"), into: &reader)
            var period: Double?
            if let raw = m["period"] {
                do throws(RequestError) {
                    period = try Request.duration(raw, name: "period")
                } catch {
                    reader.report(ConfigReader.join(lookPath, "period"), error.message)
                }
            }
            var effect = Effect.none
            if let text = reader.string(m["effect"], at: ConfigReader.join(lookPath, "effect")) {
                do throws(RequestError) {
                    effect = try Request.effect(text, period: period)
                } catch {
                    reader.report(ConfigReader.join(lookPath, "effect"), error.message)
                }
            }
            if m["gradient"] == nil && m["effect"] == nil {
                reader.report(lookPath, "gives neither a gradient nor an effect; add one, e.g. {\"gradient\": \"#ff2020\", \"effect\": \"pulse\"}")
            }
            // A look is a status and lights the whole ring unless it tints the value's fill.
            var fill = LookFill.ring
            if let text = reader.string(m["fill"], at: ConfigReader.join(lookPath, "fill")) {
                if let chosen = LookFill(rawValue: text) {
                    fill = chosen
                } else {
                    reader.report(ConfigReader.join(lookPath, "fill"),
                                  "must be \"ring\" (every LED, seen whatever the value; the default) or \"value\" (only the value's fill), got \"\(text)\"")
                }
            }
            looks.append(Look(name: member.key, gradient: gradient, effect: effect, fill: fill))
        }
        return looks
    }

    /// Reads everything but the rings.
    mutating func readSettings(_ members: JSONMembers, ringNames: [String], into reader: inout ConfigReader) {
        var config = self
        if let value = members["output"] { config.output = OutputConfig.read(value, at: "output", into: &reader) }
        config.color = ColorOptions.read(members, into: &reader)
        config.fps = reader.number(members["fps"], at: "fps", in: 1...240) ?? config.fps
        if let value = members["gpio"] {
            config.gpio = GPIOConfig.read(value, at: "gpio", ringNames: ringNames, into: &reader)
        }
        if let value = members["socket"] { config.socket = SocketConfig.read(value, at: "socket", into: &reader) }
        config.statePath = reader.string(members["state"], at: "state")
        if let value = members["mqtt"] {
            config.mqtt = MQTTSettings.read(value, at: "mqtt", into: &reader)
        }
        if let value = members["http"] {
            config.http = HTTPSettings.read(value, at: "http", ringNames: ringNames, looks: layout.looks.map { $0.name }, into: &reader)
        }
        if let value = members["sources"] {
            config.sources = SourceConfig.readAll(value, at: "sources", ringNames: ringNames,
                                                  ranged: Set(layout.rings.filter { $0.range != nil }.map { $0.name }),
                                                  looks: layout.looks.map { $0.name }, broker: members["mqtt"] != nil, into: &reader)
        }
        self = config
    }
}
