import LEDRingControl
import LEDJSON
import RingModel

/// Every topic the bridge uses and what its messages mean, as pure functions of the settings (so
/// parsing, state and discovery are tested without a broker).
///
/// Per device under `base` (`ledring/<device>`): `<ring>/set`, `<ring>/look`, `<ring>/timer`,
/// `<ring>/light` (Home Assistant's JSON light, `MQTTRingLight`) and `<ring>/state` (two levels),
/// and one-level `reset`, `spin`, `stop`, `brightness`, `power` (commands), `status` (light state)
/// and `availability`. One-level device topics can never collide with a ring's two-level ones,
/// whatever the rings are called. The group prefix takes the same commands.
public struct MQTTTopics: Sendable {
    /// This device's prefix.
    public let base: String
    /// The shared prefix every device listens on, if any.
    public let group: String?

    /// Topics for `settings`.
    public init(settings: MQTTSettings) {
        base = settings.resolvedBaseTopic
        group = settings.groupTopic
    }

    /// Retained `online`/`offline`; `offline` is the broker's last will.
    public var availability: String { "\(base)/availability" }
    /// Retained light state for Home Assistant: `{"state":"ON","brightness":80}`.
    public var status: String { "\(base)/status" }
    /// Where a ring's state is published.
    public func state(_ ring: String) -> String { "\(base)/\(ring)/state" }
    /// Where a ring's look is switched.
    public func look(_ ring: String) -> String { "\(base)/\(ring)/look" }
    /// Where notifications are sent.
    public var notify: String { "\(base)/notify" }
    /// Where a ring's value is set.
    public func set(_ ring: String) -> String { "\(base)/\(ring)/set" }
    /// Where a ring is commanded as a Home Assistant JSON light (`MQTTRingLight`).
    public func light(_ ring: String) -> String { "\(base)/\(ring)/light" }
    /// Where every ring is reset to 0 (any payload).
    public var reset: String { "\(base)/reset" }
    /// Where power (and Home Assistant's light JSON) is commanded.
    public var power: String { "\(base)/power" }

    /// Subscriptions, under the base and the group.
    public var subscriptions: [String] {
        ([base] + (group.map { [$0] } ?? [])).flatMap { prefix in
            ["\(prefix)/+/set", "\(prefix)/reset", "\(prefix)/spin", "\(prefix)/stop", "\(prefix)/brightness", "\(prefix)/power",
             "\(prefix)/+/look", "\(prefix)/+/timer", "\(prefix)/+/light", "\(prefix)/notify"]
        }
    }

    /// Whether `topic` matches the subscription `filter` (MQTT 3.1.1, 4.7): `+` stands for one
    /// whole level, a final `#` for any number of levels (the parent's too), and a wildcard at
    /// the start never matches a topic beginning with `$` (the broker's own).
    public static func matches(filter: String, topic: String) -> Bool {
        let f = filter.split(separator: "/", omittingEmptySubsequences: false)
        let t = topic.split(separator: "/", omittingEmptySubsequences: false)
        if topic.hasPrefix("$"), let first = f.first, first == "+" || first == "#" { return false }
        for (i, level) in f.enumerated() {
            if level == "#" { return i == f.count - 1 }
            guard i < t.count else { return false }
            if level != "+" && level != t[i] { return false }
        }
        return f.count == t.count
    }

    /// Whether `topic` came in under the group prefix (where other devices' rings are expected).
    public func isGroup(_ topic: String) -> Bool {
        guard let group else { return false }
        return topic.hasPrefix(group + "/") && !topic.hasPrefix(base + "/")
    }

    /// The requests `payload` on `topic` asks for (Home Assistant's light JSON can ask for a
    /// brightness and the power at once); nil when the topic is not a command topic (our own
    /// state topics, say). Throws for a bad payload, with the words the socket uses.
    /// `current` is asked for what the rings show only when a ring's light needs it (a colour
    /// change keeps the ring's effect, an effect keeps its colour).
    public func requests(topic: String, payload: [UInt8],
                         current: () -> RingSnapshot? = { nil }) throws(RequestError) -> [Request]? {
        var rest: Substring?
        for prefix in [base] + (group.map { [$0] } ?? []) where topic.hasPrefix(prefix + "/") {
            rest = topic.dropFirst(prefix.count + 1)
            break
        }
        guard let rest else { return nil }
        let levels = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard payload.count <= SetCommand.maxPayloadBytes else {
            throw RequestError("payload is \(payload.count) bytes; at most \(SetCommand.maxPayloadBytes) are read")
        }
        let text = String(decoding: payload, as: UTF8.self).trimmingWhitespace()
        if levels.count == 2 && levels[1] == "set" {
            let ring = String(levels[0])
            return [try SetCommand.parse(payload, ring: ring).request(ring: ring)]
        }
        // `<base>/<ring>/look` with a look's name; `<base>/<ring>/timer` with the socket's words
        // (`25m then done`, `pause`) or its JSON without verb and ring.
        if levels.count == 2 && levels[1] == "look" {
            guard !text.isEmpty else { throw RequestError("look needs a look's name as payload, like failed (default: the ring's own)") }
            return [.look(rings: [String(levels[0])], name: text)]
        }
        if levels.count == 2 && levels[1] == "light" {
            let ring = String(levels[0])
            let snapshot = current()
            return try MQTTRingLight.requests(ring: ring, text: text, current: snapshot?.ring(named: ring),
                                              looks: snapshot?.looks ?? [])
        }
        if levels.count == 2 && levels[1] == "timer" {
            let ring = String(levels[0])
            if text.hasPrefix("{") {
                let object = try JSONObject.parse(Array(text.utf8))
                // The socket's timer object without verb and ring (the topic names the ring).
                try object.onlyKeys((Request.jsonKeys["timer"] ?? []).filter { $0 != "verb" && $0 != "ring" })
                var members = object.members
                members["ring"] = .string(ring)
                return [try Request.parseTimerJSON(members)]
            }
            return [try Request.parseTimer([ring] + text.split(separator: " ").map(String.init))]
        }
        if levels.count == 1 && levels[0] == "notify" {
            // The socket's JSON without verb, or its text words: `build look failed for 30s`.
            if text.hasPrefix("{") {
                let object = try JSONObject.parse(Array(text.utf8))
                try object.onlyKeys((Request.jsonKeys["notify"] ?? []).filter { $0 != "verb" })
                return [try Request.parseNotifyJSON(object.members)]
            }
            return [try Request.parseNotify(text.split(separator: " ").map(String.init), json: false)]
        }
        guard levels.count == 1 else { return nil }
        switch levels[0] {
        case "reset": return [.defaultReset]
        case "spin", "stop":
            guard !text.isEmpty else { throw RequestError("\(levels[0]) needs the ring's name as payload, like move") }
            return [levels[0] == "spin" ? .spin(rings: [text]) : .stop(rings: [text])]
        case "brightness":
            return [.brightness(try SetCommand.parseBrightness(.string(text)))]
        case "power":
            return try light(text)
        default:
            return nil
        }
    }

    /// `ON`/`OFF`, or `{"state":"ON","brightness":80}` with brightness 0…100 (Home Assistant's
    /// scale is set to 100 in discovery): the brightness first, so turning on shows the new level.
    private func light(_ text: String) throws(RequestError) -> [Request] {
        switch text.uppercased() {
        case "ON": return [.power(true)]
        case "OFF": return [.power(false)]
        default: break
        }
        let object = try JSONObject.parse(Array(text.utf8))
        try object.onlyKeys(["state", "brightness"])
        var requests: [Request] = []
        if let b = object["brightness"] {
            guard let n = b.number, n.isFinite, (0...100).contains(n) else {
                throw RequestError("\"brightness\": \(JSONObject.show(b)) must be 0…100 (Home Assistant's scale)")
            }
            requests.append(.brightness(n / 100))
        }
        if let state = object["state"] {
            guard let word = state.string?.uppercased(), word == "ON" || word == "OFF" else {
                throw RequestError("\"state\": \(JSONObject.show(state)) must be \"ON\" or \"OFF\"")
            }
            requests.append(.power(word == "ON"))
        }
        guard !requests.isEmpty else { throw RequestError("send ON, OFF or {\"state\":\"ON\",\"brightness\":80}") }
        return requests
    }

    /// The retained state messages for `snapshot`: each ring's `{"value":…,"percent":…,"spinning":…}`
    /// (and `units` for a ring with a range)
    /// (the value it shows once any transition ends), its `look`, and its light's `state`,
    /// `effect` and colour (`MQTTRingLight.stateMembers`); and the device light's status.
    public func stateMessages(_ snapshot: RingSnapshot, retain: Bool) -> [MQTTMessage] {
        var messages = snapshot.rings.map { ring in
            let percent = (ring.target * 1000).rounded() / 10
            var members: [(String, JSONValue)] = [
                ("value", .number(ring.target)), ("percent", .number(percent)), ("spinning", .bool(ring.spinning)),
            ]
            // A ranged ring's value in its own units too (`"units": 812` for a CO₂ ring).
            if let units = ring.units { members.append(("units", .number(RingSnapshot.rounded(units)))) }
            // With looks configured or a colour chosen (Home Assistant's select reads it).
            if !snapshot.looks.isEmpty || ring.look != nil { members.append(("look", .string(ring.look ?? "default"))) }
            // The notification over it, without its seconds left (so the state stays put while it runs).
            if let notice = ring.notice { members.append(("notice", .object(notice.stableMembers))) }
            members += MQTTRingLight.stateMembers(ring)
            return MQTTMessage(topic: state(ring.name), payload: MQTTTopics.json(.object(members)), retain: retain)
        }
        messages.append(MQTTMessage(topic: status, payload: MQTTTopics.json(.object([
            ("state", .string(snapshot.power ? "ON" : "OFF")), ("brightness", .number((snapshot.brightness * 100).rounded())),
        ])), retain: retain))
        return messages
    }

    /// Compact JSON with sorted keys (stable payloads, so unchanged state is not republished).
    static func json(_ object: JSONValue) -> String {
        object.sortingKeys().jsonText
    }
}
