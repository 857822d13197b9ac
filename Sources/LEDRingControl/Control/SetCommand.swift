import LEDJSON
import RingModel

/// A value to show on one ring, parsed from what MQTT and HTTP clients send: a number (`0.8`,
/// 1 = one lap), a percentage (`80%`), or JSON `{"value":0.8,"duration":1,"curve":"spring"}`
/// (`value` may also be a percentage string).
public struct SetCommand: Equatable, Sendable {
    /// Longest payload parsed; anything longer is refused unread.
    public static let maxPayloadBytes = 16 * 1024

    /// The value, 0…100 (1 = one lap), or in the ring's own units when it has a range.
    public var value: Double
    /// Whether it was written as a percentage (a fraction of a lap on every ring).
    public var percent = false
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

    /// The request this command makes of `ring` (a jump and the default curve unless given).
    public func request(ring: String) -> Request {
        .set(values: [Request.RingValueUpdate(ring: ring, value: value, percent: percent)], duration: duration ?? 0, curve: curve ?? .easeInOut)
    }

    /// Parses a payload in any of the three forms; `ring` names the value in messages.
    public static func parse(_ bytes: [UInt8], ring: String = "value") throws(RequestError) -> SetCommand {
        guard bytes.count <= maxPayloadBytes else {
            throw RequestError("payload is \(bytes.count) bytes; at most \(maxPayloadBytes) are read")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RequestError("payload is not UTF-8 text; send a number like 0.8, 80% or JSON {\"value\":0.8}")
        }
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("{") {
            let object = try JSONObject.parse(Array(trimmed.utf8))
            return try parse(object: object, ring: ring)
        }
        let update = try Request.update(trimmed, ring: ring)
        var command = SetCommand(value: update.value)
        command.percent = update.percent
        return command
    }

    /// Parses a payload given as text.
    public static func parse(_ text: String, ring: String = "value") throws(RequestError) -> SetCommand {
        try parse(Array(text.utf8), ring: ring)
    }

    /// Reads a command from an already-parsed JSON object, refusing unknown keys (usually typos).
    public static func parse(object: JSONObject, ring: String = "value") throws(RequestError) -> SetCommand {
        try object.onlyKeys(keys)
        guard let raw = object["value"] else {
            throw RequestError("JSON has no \"value\"; send {\"value\":0.8} (1 = one lap) or {\"value\":\"80%\"}")
        }
        let update = try parseUpdate(raw, ring: ring)
        var command = SetCommand(value: update.value)
        command.percent = update.percent
        if let d = object["duration"] {
            command.duration = try Request.duration(d)
        }
        if let c = object["curve"] {
            guard case .string(let name) = c else {
                throw RequestError("curve \(JSONObject.show(c)): must be a string like \"spring\"")
            }
            command.curve = try Request.curve(name)
        }
        return command
    }

    /// A value from a number or a `80%` string, read and checked as the socket reads one
    /// (`Request.value`, `Request.checkedValue`), so the same mistake gets the same answer.
    public static func parseValue(_ raw: JSONValue, name: String) throws(RequestError) -> Double {
        if case .string(let text) = raw { return try Request.value(text, for: name) }
        guard case .number(let number) = raw else {
            throw Request.notALapValue(JSONObject.show(raw), name: name)
        }
        return try Request.checkedValue(number, ring: name, shown: JSONValue.format(number))
    }

    /// A ring's value from a number or a `80%` string as sent (numbers in the ring's own units
    /// when it has a range), read as the socket reads one; `validate` checks it against the ring.
    public static func parseUpdate(_ raw: JSONValue, ring: String) throws(RequestError) -> Request.RingValueUpdate {
        if case .string(let text) = raw { return try Request.update(text, ring: ring) }
        guard case .number(let number) = raw else {
            throw Request.notALapValue(JSONObject.show(raw), name: ring)
        }
        return Request.RingValueUpdate(ring: ring, value: try Request.checkedFinite(number, ring: ring, shown: JSONValue.format(number)))
    }

    /// A brightness from a number or a `50%` string, read and checked as the socket reads one.
    public static func parseBrightness(_ raw: JSONValue) throws(RequestError) -> Double {
        if case .string(let text) = raw { return try Request.brightnessValue(text) }
        guard case .number(let number) = raw else {
            throw Request.notAFraction(JSONObject.show(raw), name: "brightness")
        }
        return try Request.checkedBrightness(number, shown: JSONValue.format(number))
    }
}
