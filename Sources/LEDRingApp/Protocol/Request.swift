import LEDRingNet
import RingRender

/// One control request, from the socket, standard input or the client commands.
enum Request: Equatable, Sendable {
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

    /// A ring's new value.
    struct RingValueUpdate: Equatable, Sendable {
        /// The ring's name.
        var ring: String
        /// Its value (1 = one lap), finite, 0…100.
        var value: Double
    }

    /// Longest request line the daemon reads; longer lines get an error reply.
    static let maxLineBytes = 64 * 1024
    /// Largest value: 100 laps (10 000 %).
    static let maxValue = ProgressText.maxValue
    /// Longest transition, seconds.
    static let maxDuration = ProgressText.maxDuration
    /// How long `reset` takes when no duration is given.
    static let defaultResetDuration = 1.0
    /// The verbs, for messages.
    static let verbs = "set, get, reset, spin, stop, brightness, status"

    /// Parses one line: a JSON object when it starts with `{`, else the text form
    /// (`set move 0.8 exercise 40% duration 1.5 curve spring`).
    static func parse(_ line: String) throws(RequestError) -> Request {
        // A byte order mark some editors and Windows tools put first is not part of the request.
        let unmarked = line.unicodeScalars.first == "\u{FEFF}" ? String(line.unicodeScalars.dropFirst()) : line
        let trimmed = unmarked.trimmingWhitespace()
        if trimmed.isEmpty { throw RequestError("empty request; send one of \(verbs), e.g. {\"verb\":\"get\"} or get") }
        if trimmed.hasPrefix("{") { return try parseJSON(trimmed) }
        return try parseText(trimmed)
    }

    /// A progress value from text: a fraction (`0.8`) or a percentage (`80%`).
    static func value(_ text: String, for ring: String) throws(RequestError) -> Double {
        guard let value = ProgressText.parse(text) else {
            throw RequestError("\(Request.shown(ring)) \"\(Request.shown(text))\": not a number; give a fraction like 0.8 (1.3 is 130 %) or a percentage like 80%")
        }
        return try checked(value, for: ring, shown: text)
    }

    /// `value` when it is finite and within 0…100 laps.
    static func checked(_ value: Double, for ring: String, shown: String? = nil) throws(RequestError) -> Double {
        let text = shown ?? "\(value)"
        guard value.isFinite else {
            throw RequestError("\(ring) \(text): must be a finite number; give a fraction like 0.8 or a percentage like 80%")
        }
        guard value >= 0, value <= maxValue else {
            throw RequestError("\(ring) \(text): must be 0…100 (0 % to 10 000 %)")
        }
        return value
    }

    static func duration(_ value: Double?, text: String) throws(RequestError) -> Double {
        guard let value, value.isFinite, value >= 0, value <= maxDuration else {
            throw RequestError("duration \(Request.shown(text)): must be seconds from 0 to 3600, e.g. 1.5")
        }
        return value
    }

    static func curve(_ text: String) throws(RequestError) -> Curve {
        guard let curve = Curve(rawValue: text) else {
            throw RequestError("curve \"\(Request.shown(text))\": unknown; use one of \(Curve.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return curve
    }

    static func brightness(_ value: Double, text: String) throws(RequestError) -> Request {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw RequestError("brightness \(Request.shown(text)): must be 0…1 (or 0%…100%)")
        }
        return .brightness(value)
    }
}

extension Request {
    /// Text from the request as echoed in a reply: control characters escaped, at most 40
    /// characters (a 10 KB value is not sent back whole).
    static func shown(_ text: String) -> String { LogText.escaped(text, limit: 40) }
}
