import LEDJSON
import LEDRingControl
import RingModel

/// `http.webhooks`: routes other services call when something happens, each off unless
/// configured and each with its own secret (they do not take the API's token, which GitHub
/// cannot send): `POST /api/hooks/github` and `POST /api/hooks/alertmanager`.
public struct WebhookSettings: Equatable, Sendable {
    /// GitHub's `workflow_run` and `check_suite` events: a build light.
    public var github: GitHub?
    /// Alertmanager's notifications: a notification while an alert fires.
    public var alertmanager: Alertmanager?
    /// Largest body a webhook route reads, bytes: GitHub's payloads run to tens of kilobytes,
    /// beyond `http.maxBodyBytes` (which stays the limit of every other route).
    public var maxBodyBytes = 256 * 1024

    /// None configured.
    public init() {}

    /// Keys the `webhooks` object may have.
    public static let keys = ["github", "alertmanager", "maxBodyBytes"]

    /// `{"secretFile": "/etc/ledring/github-secret", "ring": "build", "running": "spin",
    /// "looks": {"success": "passed", "failure": "failed"}, "workflows": ["CI"], "branches": ["main"]}`.
    public struct GitHub: Equatable, Sendable {
        /// The webhook's secret, which signs each delivery (`X-Hub-Signature-256`).
        public var secret: String?
        /// File whose first line is the secret.
        public var secretFile: String?
        /// The ring that shows the build.
        public var ring: String
        /// What the ring shows while a run is queued or in progress: `spin`, or a look's name.
        public var running = "spin"
        /// The look for each conclusion (`success`, `failure`, `cancelled`, …); a conclusion
        /// without its own look uses `failure`'s, or for `neutral` and `skipped` `success`'s.
        public var looks: [String: String] = [:]
        /// Only runs of these workflows (by name); empty: all. `check_suite` events name no
        /// workflow, so with a filter they are ignored.
        public var workflows: [String] = []
        /// Only runs on these branches; empty: all.
        public var branches: [String] = []

        /// A build light on `ring`.
        public init(ring: String, secret: String? = nil, secretFile: String? = nil) {
            self.ring = ring
            self.secret = secret
            self.secretFile = secretFile
        }

        /// Keys the `github` object may have.
        public static let keys = ["secret", "secretFile", "ring", "running", "looks", "workflows", "branches"]
        /// The conclusions GitHub reports for a finished run or suite.
        public static let conclusions = ["success", "failure", "cancelled", "timed_out", "action_required", "neutral",
                                         "skipped", "stale", "startup_failure"]

        /// The look a run that ended with `conclusion` gets, if any.
        public func look(for conclusion: String) -> String? {
            if let look = looks[conclusion] { return look }
            switch conclusion {
            case "success", "": return nil
            case "neutral", "skipped": return looks["success"]
            default: return looks["failure"]
            }
        }
    }

    /// `{"tokenFile": "/etc/ledring/alertmanager-token", "rings": ["alarm"], "look": "alert",
    /// "priority": 50}` or with `"color": "#ff2020", "effect": "pulse"` instead of a look.
    public struct Alertmanager: Equatable, Sendable {
        /// The bearer token Alertmanager sends (`http_config.authorization`).
        public var token: String?
        /// File whose first line is the token.
        public var tokenFile: String?
        /// The rings a firing alert takes over; empty: all.
        public var rings: [String] = []
        /// The look it shows, or nil for `color`.
        public var look: String?
        /// The colour it shows, or nil for `look`.
        public var color: RGB8?
        /// The effect on the colour.
        public var effect: Effect = .none
        /// Its priority among notifications (-100…100).
        public var priority = 50

        /// An alert light in `color` (red unless given).
        public init(token: String? = nil, tokenFile: String? = nil) {
            self.token = token
            self.tokenFile = tokenFile
        }

        /// Keys the `alertmanager` object may have.
        public static let keys = ["token", "tokenFile", "rings", "look", "color", "effect", "period", "priority"]

        /// The notification a firing alert called `key` shows: for as long as it may (a day),
        /// renewed each time Alertmanager sends it again, until it is resolved.
        public func notice(key: String) -> Notice {
            Notice(rings: rings, look: look, color: look == nil ? color ?? RGB8(r: 255, g: 32, b: 32) : nil, effect: effect,
                   duration: Notice.maxDuration, priority: priority, key: key)
        }
    }

    /// Reads `http.webhooks`; `ringNames` and `looks`, when given, are what the rings and looks
    /// named must be (the `http` section alone does not know them).
    static func read(_ value: JSONValue, at path: String, ringNames: [String]?, looks: [String]?,
                     into reader: inout JSONReader) -> WebhookSettings {
        var s = WebhookSettings()
        guard let m = reader.object(value, at: path, known: keys) else { return s }
        func at(_ key: String) -> String { JSONReader.join(path, key) }
        s.maxBodyBytes = reader.integer(m["maxBodyBytes"], at: at("maxBodyBytes"), in: 1024...1_048_576) ?? s.maxBodyBytes
        if let g = m["github"] { s.github = readGitHub(g, at: at("github"), ringNames: ringNames, looks: looks, into: &reader) }
        if let a = m["alertmanager"] {
            s.alertmanager = readAlertmanager(a, at: at("alertmanager"), ringNames: ringNames, looks: looks, into: &reader)
        }
        return s
    }

    private static func readGitHub(_ value: JSONValue, at path: String, ringNames: [String]?, looks: [String]?,
                                   into reader: inout JSONReader) -> GitHub? {
        guard let m = reader.object(value, at: path, known: GitHub.keys) else { return nil }
        func at(_ key: String) -> String { JSONReader.join(path, key) }
        let ring = reader.string(m["ring"], at: at("ring"))
        if m["ring"] == nil {
            reader.report(path, "says no \"ring\"; name the ring that shows the build, e.g. \"ring\": \"\(ringNames?.first ?? "build")\"")
        } else if let ring, let ringNames, !ringNames.contains(ring) {
            reader.report(at("ring"), RequestError.unknownRing(ring, known: ringNames).message)
        }
        var g = GitHub(ring: ring ?? "")
        readSecret(m, at: path, inline: "secret", file: "secretFile", into: &reader, inlineValue: &g.secret, fileValue: &g.secretFile,
                   why: "GitHub signs each delivery with the webhook's secret", spaces: true)
        if let running = reader.string(m["running"], at: at("running")) {
            g.running = running
            if running != "spin" { checkLook(running, at: at("running"), looks: looks, alternative: "\"spin\"", into: &reader) }
        }
        if let raw = m["looks"] {
            if let pairs = raw.members {
                for pair in pairs.pairs {
                    let where_ = at("looks") + "." + pair.key
                    guard GitHub.conclusions.contains(pair.key) else {
                        reader.report(where_, "is not a conclusion GitHub reports; use \(GitHub.conclusions.joined(separator: ", "))")
                        continue
                    }
                    guard let look = reader.string(pair.value, at: where_) else { continue }
                    checkLook(look, at: where_, looks: looks, alternative: nil, into: &reader)
                    g.looks[pair.key] = look
                }
            } else {
                reader.report(at("looks"), "must map conclusions to looks, e.g. {\"success\": \"passed\", \"failure\": \"failed\"}, got \(raw.shown)")
            }
        }
        g.workflows = reader.strings(m["workflows"], at: at("workflows"), example: "\"CI\"") ?? []
        g.branches = reader.strings(m["branches"], at: at("branches"), example: "\"main\"") ?? []
        return g
    }

    private static func readAlertmanager(_ value: JSONValue, at path: String, ringNames: [String]?, looks: [String]?,
                                         into reader: inout JSONReader) -> Alertmanager? {
        guard let m = reader.object(value, at: path, known: Alertmanager.keys) else { return nil }
        func at(_ key: String) -> String { JSONReader.join(path, key) }
        var a = Alertmanager()
        readSecret(m, at: path, inline: "token", file: "tokenFile", into: &reader, inlineValue: &a.token, fileValue: &a.tokenFile,
                   why: "Alertmanager sends it as Authorization: Bearer <token> (http_config.authorization)")
        if let rings = reader.strings(m["rings"], at: at("rings"), example: "\"alarm\"") {
            if let ringNames {
                for ring in rings where !ringNames.contains(ring) {
                    reader.report(at("rings"), RequestError.unknownRing(ring, known: ringNames).message)
                }
            }
            a.rings = rings
        }
        if let look = reader.string(m["look"], at: at("look")) {
            checkLook(look, at: at("look"), looks: looks, alternative: nil, into: &reader)
            a.look = look
        }
        if let text = reader.string(m["color"], at: at("color")) {
            do throws(RequestError) { a.color = try Request.color(text) } catch { reader.report(at("color"), error.message) }
        }
        if m["look"] != nil && m["color"] != nil { reader.report(at("color"), "give look or color, not both") }
        if m["look"] != nil && (m["effect"] != nil || m["period"] != nil) {
            reader.report(at("effect"), "goes with color; a look brings its own effect")
        }
        let period = reader.number(m["period"], at: at("period"), in: 0.05...3600)
        if let text = reader.string(m["effect"], at: at("effect")) {
            do throws(RequestError) { a.effect = try Request.effect(text, period: period) } catch { reader.report(at("effect"), error.message) }
        }
        a.priority = reader.integer(m["priority"], at: at("priority"), in: Notice.priorities) ?? a.priority
        return a
    }

    /// A secret given inline or in a file: exactly one of them. Inline it is non-empty, without
    /// control characters or spaces at its ends (a file's first line is trimmed the same way);
    /// spaces inside only where `spaces` (GitHub takes any secret: its docs' example is "It's a
    /// Secret to Everybody"; a bearer token goes in an Authorization header, and has none).
    private static func readSecret(_ m: JSONMembers, at path: String, inline: String, file: String, into reader: inout JSONReader,
                                   inlineValue: inout String?, fileValue: inout String?, why: String, spaces: Bool = false) {
        let inlinePath = JSONReader.join(path, inline), filePath = JSONReader.join(path, file)
        inlineValue = reader.string(m[inline], at: inlinePath)
        if let secret = inlineValue {
            if spaces {
                if secret.isEmpty || secret.first!.isWhitespace || secret.last!.isWhitespace
                    || secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                    reader.report(inlinePath, "must be non-empty, without control characters or spaces at its ends")
                }
            } else if secret.isEmpty || secret.contains(where: { $0.isWhitespace }) {
                reader.report(inlinePath, "must be non-empty without spaces")
            }
        }
        fileValue = reader.string(m[file], at: filePath)
        if let f = fileValue, !f.hasPrefix("/") { reader.report(filePath, "must be an absolute path, got \"\(LogText.escaped(f, limit: 60))\"") }
        if m[inline] != nil && m[file] != nil { reader.report(filePath, "give \(inline) or \(file), not both") }
        if m[inline] == nil && m[file] == nil {
            reader.report(path, "needs \"\(file)\" (or \"\(inline)\"): \(why); the webhook takes no request without it")
        }
    }

    private static func checkLook(_ look: String, at path: String, looks: [String]?, alternative: String?, into reader: inout JSONReader) {
        guard let looks, !looks.contains(look), !Request.builtInLooks.contains(look) else { return }
        let known = looks.isEmpty ? "the config has no \"looks\"" : "the looks are \(looks.joined(separator: ", "))"
        reader.report(path, "no look called \"\(LogText.escaped(look, limit: 40))\"; \(known)" + (alternative.map { ", or \($0)" } ?? ""))
    }
}
