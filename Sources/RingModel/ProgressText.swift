/// How people write a ring's value, read the same way by every front end (command line, socket,
/// HTTP, MQTT): a fraction (`0.8`; `1.3` is a second lap) or a percentage (`80%`, `80 %`), with
/// spaces and tabs around it ignored. The limits live here too, so no front end has its own.
/// Range checks stay with the caller, which knows how to say what went wrong.
public enum ProgressText {
    /// The largest value any front end accepts: 100 laps (10 000 %).
    public static let maxValue = 100.0
    /// The longest transition, seconds.
    public static let maxDuration = 3600.0

    /// The value `text` writes (a percentage divided by 100), or nil when it is not a number.
    public static func parse(_ text: some StringProtocol) -> Double? {
        var body = trimmed(Substring(text))
        var scale = 1.0
        if body.last == "%" {
            body = trimmed(body.dropLast())
            scale = 0.01
        }
        // Decimal only: Double would also take hex (`0x10` = 16 laps), `inf` and `nan`, which no
        // one means as a ring's value.
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
              let number = Double(body) else { return nil }
        return number * scale
    }

    /// Whether `text` is written as a percentage (`80%`).
    public static func isPercent(_ text: some StringProtocol) -> Bool {
        trimmed(Substring(text)).last == "%"
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
