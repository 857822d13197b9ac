import LEDJSON

/// The answer to one request, sent as one JSON line.
public enum Reply: Equatable, Sendable {
    /// The rings after the request (every verb but status and errors answers with these), and
    /// whether the LEDs are lit at all (`power off` darkens every one, values kept). Each ring is
    /// the report a snapshot has (`Controller.report(ofRing:at:)`), without LEDs: `jsonLine`
    /// is the socket's encoding of it, `RingSnapshot`'s JSON the HTTP and MQTT one.
    case rings([RingSnapshot.Ring], brightness: Double, power: Bool = true)
    /// The daemon's status.
    case status(StatusReport)
    /// The request was refused; nothing changed.
    case error(String)

    /// Whether the request was carried out.
    public var ok: Bool {
        if case .error = self { return false }
        return true
    }

    /// The reply as one JSON line, without the newline.
    public var jsonLine: String {
        switch self {
        case .error(let message):
            return JSONValue.object([("ok", .bool(false)), ("error", .string(message))]).jsonText
        case .rings(let rings, let brightness, let power):
            let list = rings.map { ring in
                var members: [(String, JSONValue)] = [("name", .string(ring.name)), ("shown", .number(ring.value)),
                                                      ("target", .number(ring.target)), ("spinning", .bool(ring.spinning))]
                if let look = ring.look { members.append(("look", .string(look))) }
                if let left = ring.timer?.left { members.append(("timerLeft", .number((left * 10).rounded() / 10))) }
                // Only while off, as in the snapshot, so a lit ring's reply is as before.
                if !ring.on { members.append(("on", .bool(false))) }
                if let notice = ring.notice { members.append(("notice", notice.json)) }
                return JSONValue.object(members)
            }
            var members: [(String, JSONValue)] = [("ok", .bool(true)), ("rings", .array(list)), ("brightness", .number(brightness))]
            // Only while off, so a lit reply is as before.
            if !power { members.append(("power", .bool(false))) }
            return JSONValue.object(members).jsonText
        case .status(let status):
            return status.jsonLine
        }
    }
}
