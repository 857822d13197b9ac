import LEDJSON
import RingRender

/// A value to show on one ring, parsed from what MQTT and HTTP clients send: a number (`0.8`,
/// 1 = one lap), a percentage (`80%`), or JSON `{"value":0.8,"duration":1,"curve":"spring"}`
/// (`value` may also be a percentage string).
public struct SetCommand: Equatable, Sendable {
    /// Largest value accepted: 100 laps, as on the command line.
    public static let maxValue = ProgressText.maxValue
    /// Longest transition accepted, seconds.
    public static let maxDuration = ProgressText.maxDuration
    /// Longest payload parsed; anything longer is refused unread.
    public static let maxPayloadBytes = 16 * 1024

    /// The value, 0…100 (1 = one lap).
    public var value: Double
    /// Transition length in seconds, nil to jump.
    public var duration: Double?
    /// Transition curve, nil for the default.
    public var curve: Curve?

    /// Makes a command.
    public init(value: Double, duration: Double? = nil, curve: Curve? = nil) {
        self.value = value
        self.duration = duration
        self.curve = curve
    }

    /// Keys a JSON payload may have.
    public static let keys = ["value", "duration", "curve"]

    /// Parses a payload in any of the three forms.
    public static func parse(_ bytes: [UInt8]) throws(PayloadError) -> SetCommand {
        guard bytes.count <= maxPayloadBytes else {
            throw PayloadError("payload is \(bytes.count) bytes; at most \(maxPayloadBytes) are read")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PayloadError("payload is not UTF-8 text; send a number like 0.8, 80% or JSON {\"value\":0.8}")
        }
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("{") {
            let object = try JSONObject.parse(Array(trimmed.utf8))
            return try parse(object: object)
        }
        return SetCommand(value: try parseValue(trimmed, name: "value"))
    }

    /// Parses a payload given as text.
    public static func parse(_ text: String) throws(PayloadError) -> SetCommand {
        try parse(Array(text.utf8))
    }

    /// Reads a command from an already-parsed JSON object, refusing unknown keys (usually typos).
    public static func parse(object: JSONObject) throws(PayloadError) -> SetCommand {
        try object.onlyKeys(keys)
        guard let raw = object["value"] else {
            throw PayloadError("JSON has no \"value\"; send {\"value\":0.8} (1 = one lap) or {\"value\":\"80%\"}")
        }
        var command = SetCommand(value: try parseValue(raw, name: "value"))
        if let d = object["duration"] {
            guard let seconds = d.number, seconds.isFinite, (0...maxDuration).contains(seconds) else {
                throw PayloadError("\"duration\": \(JSONObject.show(d)) must be seconds in 0…\(Int(maxDuration))")
            }
            command.duration = seconds
        }
        if let c = object["curve"] {
            guard let name = c.string, let curve = Curve(rawValue: name) else {
                throw PayloadError("\"curve\": \(JSONObject.show(c)) is not a curve; use one of \(Curve.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            command.curve = curve
        }
        return command
    }

    /// A value from a number or a `80%` string, checked against 0…`maxValue`.
    public static func parseValue(_ raw: JSONValue, name: String, max: Double = maxValue) throws(PayloadError) -> Double {
        var number: Double?
        if case .number(let n) = raw {
            number = n
        } else if case .string(let text) = raw {
            number = ProgressText.parse(text)
        }
        guard let value = number else {
            throw PayloadError("\(name) \(JSONObject.show(raw)) is not a number; send 0.8 (1 = one lap) or 80%")
        }
        guard value.isFinite, (0...max).contains(value) else {
            throw PayloadError("\(name) \(JSONObject.show(raw)) is out of range; give 0…\(JSONValue.format(max)) or 0%…\(JSONValue.format(max * 100))%")
        }
        return value
    }

    /// A value from text: a number or `80%`, checked against 0…`max`.
    public static func parseValue(_ text: String, name: String, max: Double = maxValue) throws(PayloadError) -> Double {
        try parseValue(.string(text), name: name, max: max)
    }
}
