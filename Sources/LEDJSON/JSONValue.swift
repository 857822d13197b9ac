/// A JSON document as plain values: the one JSON type of the package, read by `parse` (strict:
/// every problem with its line and column), written by `jsonText` (compact, members in the order
/// they were given) and checked by `JSONReader` (every problem with its path). No Foundation, so it
/// builds in Embedded Swift and adds nothing to a static binary.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false` (never a number: `1` is not `true`).
    case bool(Bool)
    /// Any number (JSON has no integers; whole numbers are written without a fraction).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in document (or writer's) order.
    case object(JSONMembers)

    /// An object from key/value pairs, in the order given.
    public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONMembers(pairs))
    }

    /// A whole number.
    public static func integer(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The string, if this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is one.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The members, if this is an object.
    public var members: JSONMembers? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// The items, if this is an array.
    public var items: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// What kind of value this is, for messages ("an array", "a string").
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as people write it, for messages: strings quoted, long values shortened to
    /// `limit` characters.
    public func shown(limit: Int = 60) -> String {
        var text = ""
        appendShown(to: &text)
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 3)) + "…"
    }

    /// `shown(limit: 60)`.
    public var shown: String { shown() }

    private func appendShown(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .number(let n): text += JSONValue.format(n)
        case .string(let s): text += "\"" + s + "\""
        case .array(let items):
            text += "["
            for (i, item) in items.enumerated() {
                if i > 0 { text += ", " }
                item.appendShown(to: &text)
                if text.count > 200 { break }
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (i, member) in members.pairs.enumerated() {
                if i > 0 { text += ", " }
                text += "\"" + member.key + "\": "
                member.value.appendShown(to: &text)
                if text.count > 200 { break }
            }
            text += "}"
        }
    }

    /// A number as people write it: whole numbers without a fraction (`24`, not `24.0`), others
    /// as the shortest text that reads back to the same Double (`0.8`, `1e+300`).
    public static func format(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), n.magnitude < 1e15 {
            if n == 0 && n.sign == .minus { return "-0" }
            return String(Int64(n))
        }
        return numberText(n)
    }
}
