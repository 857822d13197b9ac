extension JSONValue {
    /// The value as compact JSON text: members in their order, strings escaped, numbers that read
    /// back to the same Double (whole numbers without a fraction); JSON has no NaN or infinity, so
    /// those are written `null`.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of the value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.numberText(n)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A number as JSON: `null` for NaN and infinity, whole numbers below 2^53 without a
    /// fraction, any other the shortest text that reads back to the same Double.
    public static func numberText(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), n.magnitude < 9_007_199_254_740_992 {
            if n == 0 && n.sign == .minus { return "-0" }
            return String(Int64(n))
        }
        // Swift writes whole numbers up to 2^64 as `9007199254740992.0`; the digits already read
        // back to the same Double, so the fraction is dropped.
        let text = n.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `text` as a JSON string literal.
    public static func stringText(_ text: String) -> String {
        var out = ""
        writeString(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal: quote, backslash and control characters escaped,
    /// U+2028/U+2029 too (a JavaScript page may embed the text), everything else as UTF-8.
    public static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20, 0x7F, 0x2028, 0x2029: out += "\\u" + JSONParser.hex(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// The value with every object's members sorted by key, for payloads whose bytes must not
    /// depend on how they were built (a republished MQTT state is compared byte for byte).
    public func sortingKeys() -> JSONValue {
        switch self {
        case .array(let items): return .array(items.map { $0.sortingKeys() })
        case .object(let members):
            return .object(JSONMembers(unchecked: members.sortedByKey
                .map { JSONMembers.Member(key: $0.key, value: $0.value.sortingKeys()) }))
        default: return self
        }
    }
}
