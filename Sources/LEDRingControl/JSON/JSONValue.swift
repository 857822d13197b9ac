import Foundation

/// A JSON document as plain values, so a config can be checked by hand: every unknown key and
/// every bad value is found in one pass, with its path, instead of stopping at the first.
public enum JSONValue: Equatable, Sendable, Decodable {
    /// `null`.
    case null
    /// `true` or `false` (never a number: JSONDecoder does not turn 1 into true).
    case bool(Bool)
    /// Any number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are reported in sorted order so messages are stable.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `data` as one JSON document (check it with `JSONSyntax` first for a message that
    /// says where the syntax broke). JSONSerialization and one conversion: several times faster
    /// and smaller than decoding each value by trial, which matters for a big file.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        do {
            return convert(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            throw JSONSyntaxError(message: "not a JSON document")
        }
    }

    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func convert(_ value: Any) -> JSONValue {
        switch value {
        case let number as NSNumber:
            // Foundation gives booleans their own NSNumber subclass; `is Bool` is also true for 0 and 1.
            return ObjectIdentifier(type(of: number)) == booleanClass ? .bool(number.boolValue) : .number(number.doubleValue)
        case let text as String: return .string(text)
        case let items as [Any]: return .array(items.map(convert))
        case let members as [String: Any]: return .object(members.mapValues(convert))
        default: return .null
        }
    }

    /// The value as JSON text again (whole numbers without `.0`, so integer settings decode).
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONText.number(n)
        case .string(let s): return JSONText.string(s)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.string($0) + ":" + (members[$0]?.jsonText ?? "null") }
                .joined(separator: ",") + "}"
        }
    }

    /// The value as people write it, for messages: strings quoted, long values shortened.
    public var shown: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let b): text = b ? "true" : "false"
        case .number(let n): text = JSONValue.format(n)
        case .string(let s): text = "\"\(s)\""
        case .array(let items): text = "[" + items.map(\.shown).joined(separator: ", ") + "]"
        case .object(let members):
            text = "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]?.shown ?? "")" }
                .joined(separator: ", ") + "}"
        }
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    /// A number without a needless `.0` (`24`, not `24.0`).
    public static func format(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(Int(n)) }
        return String(n)
    }
}

/// A document that is not JSON at all.
public struct JSONSyntaxError: Error, Sendable {
    /// What the parser said.
    public var message: String

    /// Wraps what the parser said.
    public init(message: String) { self.message = message }
}
