import LEDJSON

/// A JSON payload that must be an object (MQTT and HTTP bodies), parsed by LEDJSON: numbers,
/// booleans and strings stay apart, so payload checks can tell `true` from `1`.
public struct JSONObject: Sendable {
    /// The members.
    public let members: JSONMembers

    /// The object made of `members`.
    public init(members: JSONMembers) { self.members = members }

    /// The member called `key`.
    public subscript(key: String) -> JSONValue? { members[key] }

    /// Parses `bytes` as one JSON object.
    public static func parse(_ bytes: [UInt8]) throws(PayloadError) -> JSONObject {
        let parsed: JSONValue
        do throws(JSONSyntaxError) {
            parsed = try JSONValue.parse(bytes)
        } catch {
            throw PayloadError("not valid JSON (\(error)); send an object like {\"value\":0.8}")
        }
        guard case .object(let members) = parsed else {
            throw PayloadError("JSON must be an object like {\"value\":0.8}, got \(show(parsed))")
        }
        return JSONObject(members: members)
    }

    /// Throws for the first key not in `known`.
    public func onlyKeys(_ known: [String]) throws(PayloadError) {
        for key in members.keys.sorted() where !known.contains(key) {
            throw PayloadError("unknown key \"\(key)\"; known keys are \(known.joined(separator: ", "))")
        }
    }

    /// Short text for a value in a message.
    public static func show(_ value: JSONValue) -> String {
        switch value {
        case .number(let d): return JSONValue.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "\"\(LogText.escaped(s, limit: 40))\""
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
