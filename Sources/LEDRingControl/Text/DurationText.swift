import LEDJSON

/// How people write a length of time, read the same way by every front end (socket, command
/// line, HTTP, MQTT): plain seconds (`90`, `1.5`), or numbers with units in falling order
/// (`1.5s`, `25m`, `1h30m`, `2m30s`). One parser, so `--duration 1m` means the same on every path.
public enum DurationText {
    /// A time of day written `HH:MM` or `HH:MM:SS` (24-hour clock): hour 0…23, minute and
    /// second 0…59; nil otherwise.
    public static func clockTime(_ text: some StringProtocol) -> (hour: Int, minute: Int, second: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), parts[1].count == 2 else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
        guard hour < 24, minute < 60, second < 60, parts.count == 2 || parts[2].count == 2 else { return nil }
        return (hour, minute, second)
    }

    /// The seconds `text` writes, or nil when it is not a duration (the sign is kept, so a caller
    /// can say "negative" rather than "not a duration").
    public static func parse(_ text: some StringProtocol) -> Double? {
        var body = Substring(text)
        while let first = body.first, first == " " || first == "\t" { body = body.dropFirst() }
        while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
        guard !body.isEmpty else { return nil }
        var sign = 1.0
        if body.first == "-" { sign = -1; body = body.dropFirst() } else if body.first == "+" { body = body.dropFirst() }
        // Plain seconds.
        if body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            return number(body).map { $0 * sign }
        }
        let units: [(Character, Double)] = [("h", 3600), ("m", 60), ("s", 1)]
        var total = 0.0
        var nextUnit = 0
        var digits = Substring()
        var rest = body
        while let c = rest.first {
            rest = rest.dropFirst()
            if c.isASCII && (c.isNumber || c == ".") {
                digits = digits.isEmpty ? Substring(String(c)) : Substring(String(digits) + String(c))
                continue
            }
            // Units must come in order (h, m, s), each once, each after a number.
            guard let k = units[nextUnit...].firstIndex(where: { $0.0 == c }), let n = number(digits) else { return nil }
            total += n * units[k].1
            nextUnit = k + 1
            digits = ""
        }
        guard digits.isEmpty else { return nil }
        return total * sign
    }

    /// `seconds` as people write it: `90s`, `25m`, `1h30m`, `1.5s`.
    public static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return Request.shown(seconds) + "s" }
        let whole = seconds.rounded(.down)
        if whole != seconds || seconds < 60 { return Request.shown(seconds) + "s" }
        let total = Int(whole)
        var text = ""
        if total >= 3600 { text += "\(total / 3600)h" }
        if total % 3600 >= 60 { text += "\((total % 3600) / 60)m" }
        if total % 60 > 0 { text += "\(total % 60)s" }
        return text
    }

    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.filter({ $0 == "." }).count <= 1, text != "." else { return nil }
        return Double(text)
    }
}

extension Request {
    /// A transition's duration from text (`1.5`, `1.5s`, `1m`), checked: 0…3600 s.
    public static func duration(_ text: String, limit: Double = maxDuration, name: String = "duration") throws(RequestError) -> Double {
        guard let seconds = DurationText.parse(text) else {
            throw RequestError("\(name) \"\(Request.shown(text))\": not a duration; write seconds (90, 1.5s) or with units (25m, 1h30m)")
        }
        return try checkedDuration(seconds, shown: text, limit: limit, name: name)
    }

    /// A duration from JSON: a number of seconds or a string like `"1m30s"`, checked.
    public static func duration(_ value: JSONValue, limit: Double = maxDuration, name: String = "duration") throws(RequestError) -> Double {
        switch value {
        case .number(let n): return try checkedDuration(n, shown: JSONValue.format(n), limit: limit, name: name)
        case .string(let text): return try duration(text, limit: limit, name: name)
        default:
            throw RequestError("\(name) \(value.shown): must be a number of seconds or a string like \"1m30s\"")
        }
    }
}
