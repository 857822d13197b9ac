import RingModel

/// One command for the rings: the single vocabulary every front end speaks. The socket and the
/// client commands parse it from text or JSON, HTTP and MQTT build it from their routes and
/// payloads, the GPIO knob and button make it directly; `Controller.apply` carries it out.
public enum Request: Equatable, Sendable {
    /// Head for new values on one or several rings (in the order given).
    case set(values: [RingValueUpdate], duration: Double, curve: Curve)
    /// The shown and target values.
    case get
    /// Every ring back to 0, animated; spinners stop.
    case reset(duration: Double, curve: Curve)
    /// Start the spinner on these rings.
    case spin(rings: [String])
    /// Stop the spinner on these rings (all when empty).
    case stop(rings: [String])
    /// Overall light, 0…1.
    case brightness(Double)
    /// Driver, frame rate, current, frames and errors.
    case status
    /// LEDs on or off; off shows black and switches the supply off, the values are kept.
    case power(Bool)
    /// Switches rings on or off (off: dark), fading over `duration` seconds. Unlike `power`, it
    /// is per ring and saved; a ring's value and look are kept, and notifications still show
    /// over a ring that is off.
    case light(rings: [String], on: Bool, duration: Double)
    /// Switches rings to a named look from the config (`default`: the ring's own from the
    /// config; `none`: no look at all), or to a solid colour with an optional effect
    /// (`#ff2020`, `#ff2020 pulse`; see `Request.colorLook(_:)`).
    case look(rings: [String], name: String)
    /// Shows a notification over rings until it expires (`notify --clear`: `clearNotices`).
    case notify(Notice)
    /// Ends every notification at once.
    case clearNotices
    /// Ends the notification with this key, if one is showing (`notify clear KEY`).
    case endNotice(key: String)
    /// Starts, pauses, resumes or cancels a ring's timer.
    case timer(ring: String, TimerAction)

    /// A ring's new value.
    public struct RingValueUpdate: Equatable, Sendable {
        /// The ring's name.
        public var ring: String
        /// Its value as sent: laps (1 = one lap, 0…100), or the ring's own units when it has a
        /// `range`; a percentage is always a fraction of a lap.
        public var value: Double
        /// Whether it was written as a percentage (`80%`), which means laps on every ring.
        public var percent: Bool

        /// A ring and its value.
        public init(ring: String, value: Double, percent: Bool = false) {
            self.ring = ring
            self.value = value
            self.percent = percent
        }
    }

    /// Longest request line the daemon reads; longer lines get an error reply.
    public static let maxLineBytes = 64 * 1024
    /// How long `reset` takes when no duration is given.
    public static let defaultResetDuration = 1.0
    /// Its curve when none is given: linear, as the seed's "Reset all" (`.animation(.linear)`).
    public static let defaultResetCurve = Curve.linear
    /// `reset` as every front end sends it without options (the client, a button, MQTT, HTTP,
    /// the page): every ring to 0, animated the same way everywhere.
    public static let defaultReset = Request.reset(duration: defaultResetDuration, curve: defaultResetCurve)
    /// The verbs, for messages.
    public static let verbs = "set, get, reset, spin, stop, brightness, power, look, notify, timer, status"

    /// Parses one line: a JSON object when it starts with `{`, else the text form
    /// (`set move 0.8 exercise 40% duration 1.5 curve spring`).
    public static func parse(_ line: String) throws(RequestError) -> Request {
        // A byte order mark some editors and Windows tools put first is not part of the request.
        let unmarked = line.unicodeScalars.first == "\u{FEFF}" ? String(line.unicodeScalars.dropFirst()) : line
        let trimmed = unmarked.trimmingWhitespace()
        if trimmed.isEmpty { throw RequestError("empty request; send one of \(verbs), e.g. {\"verb\":\"get\"} or get") }
        if trimmed.hasPrefix("{") { return try parseJSON(trimmed) }
        return try parseText(trimmed)
    }
}

extension Request {
    /// Text from the request as echoed in a reply: control characters escaped, at most 40
    /// characters (a 10 KB value is not sent back whole).
    public static func shown(_ text: String) -> String { LogText.escaped(text, limit: 40) }

    /// A number as a message shows it: without a needless `.0` (`24`, not `24.0`).
    public static func shown(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// A `set` of `values` (ring name to value, applied in name order), for front ends that
    /// receive a map of rings: unchecked, for `validate(rings:)` or `Controller.apply`.
    public static func set(_ values: [String: Double], duration: Double = 0, curve: Curve = .easeInOut) -> Request {
        .set(values: values.sorted { $0.key < $1.key }.map { RingValueUpdate(ring: $0.key, value: $0.value) },
             duration: duration, curve: curve)
    }

    /// A `set` of `updates` applied in ring name order, for front ends that receive a map.
    public static func set(_ updates: [String: RingValueUpdate], duration: Double = 0, curve: Curve = .easeInOut) -> Request {
        .set(values: updates.sorted { $0.key < $1.key }.map { $0.value }, duration: duration, curve: curve)
    }
}
