/// Text from outside (payloads, headers, request lines) made safe to echo into a log line or a
/// reply: control characters escaped so a newline cannot forge a log line, and the length capped
/// so a 16 KB payload does not become a 16 KB message.
public enum LogText {
    /// Longest piece of outside text echoed whole, in characters.
    public static let defaultLimit = 80

    /// `text` with control characters (C0, DEL, C1, line and paragraph separators) escaped as
    /// `\n`, `\r`, `\t` or `\u{…}`, cut after `limit` characters with `… (N more characters)`.
    /// `escapingBackslash: false` for text whose parts were escaped already (a whole log line).
    public static func escaped(_ text: String, limit: Int = defaultLimit, escapingBackslash: Bool = true) -> String {
        var out = ""
        var count = 0
        var total = 0
        for scalar in text.unicodeScalars {
            total += 1
            guard count < limit else { continue }
            count += 1
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\" where escapingBackslash: out += "\\\\"
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF {
                    out += "\\u{\(String(v, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        if total > count { out += "… (\(total - count) more characters)" }
        return out
    }

    /// Bytes that may not be UTF-8: decoded with replacement characters, then escaped and capped
    /// (only the first bytes are decoded, so a huge payload costs no more than a short one).
    public static func escaped(_ bytes: [UInt8], limit: Int = defaultLimit) -> String {
        let head = bytes.prefix(limit * 4)
        let text = escaped(String(decoding: head, as: UTF8.self), limit: limit)
        if head.count < bytes.count && !text.hasSuffix(")") { return text + "… (\(bytes.count - head.count) more bytes)" }
        return text
    }
}
