/// Writes the small JSON the protocol sends, by hand, so replies have a fixed key order and
/// numbers print as Swift prints them (`0.8`, not `0.80000000000000004`).
public enum JSONText {
    /// `text` as a JSON string literal.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number; JSON has no NaN or infinity, so those become null.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return JSONValue.format(value)
    }

    /// An object from key/value-text pairs, in the order given.
    public static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
