import LEDJSON

/// The answer to one request, sent as one JSON line.
public enum Reply: Equatable, Sendable {
    /// The rings after the request (every verb but status and errors answers with these), and
    /// whether the LEDs are lit at all (`power off` darkens every one, values kept).
    case rings([RingReport], brightness: Double, power: Bool = true)
    /// The daemon's status.
    case status(StatusReport)
    /// The request was refused; nothing changed.
    case error(String)

    /// What one ring shows and where it is heading.
    public struct RingReport: Equatable, Sendable {
        /// The ring's name.
        public var name: String
        /// The value shown now.
        public var shown: Double
        /// The value it is heading for (kept while spinning).
        public var target: Double
        /// Whether it shows the spinner.
        public var spinning: Bool
        /// The look it shows, if any.
        public var look: String? = nil
        /// Seconds its timer has left, if it has one.
        public var timerLeft: Double? = nil
        /// Whether it is switched on (`power off RING` makes it dark, its value and look kept).
        public var on = true
        /// The notification showing over it, if one does.
        public var notice: ShownNotice? = nil

        /// A ring's report.
        public init(name: String, shown: Double, target: Double, spinning: Bool) {
            self.name = name
            self.shown = shown
            self.target = target
            self.spinning = spinning
        }
    }

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
                var members: [(String, JSONValue)] = [("name", .string(ring.name)), ("shown", .number(ring.shown)),
                                                      ("target", .number(ring.target)), ("spinning", .bool(ring.spinning))]
                if let look = ring.look { members.append(("look", .string(look))) }
                if let left = ring.timerLeft { members.append(("timerLeft", .number((left * 10).rounded() / 10))) }
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
