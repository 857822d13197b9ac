import LEDRingControl
import LEDJSON
/// Prints a reply for people: `move 80.0 % (target 80.0 %)` per ring, or the status fields.
enum ReplyFormatter {
    /// The status fields in the order they are printed.
    static let statusOrder = ["driver", "device", "driverUp", "leds", "fps", "frameInterval", "framesSent", "errors",
                              "lastError", "estimatedMilliamps", "maxMilliamps", "animating", "clients", "uptime", "config",
                              "http", "mqtt", "timers"]

    /// The readable text of a decoded ok reply.
    static func text(_ reply: JSONMembers) -> String {
        if case .array(let rings)? = reply["rings"] {
            var rows: [(String, String)] = []
            for case .object(let ring) in rings {
                var name = "?"
                if case .string(let text)? = ring["name"] { name = text }
                let target = percent(ring["target"])
                var row = ring["spinning"] == .bool(true)
                    ? "spinning (target \(target))" : "\(percent(ring["shown"])) (target \(target))"
                if case .string(let look)? = ring["look"] { row += " look \(look)" }
                if case .number(let left)? = ring["timerLeft"] { row += " timer \(DurationText.format(left.rounded(.up))) left" }
                if ring["on"] == .bool(false) { row += " off" }
                if case .object(let notice)? = ring["notice"] { row += " " + noticeText(notice) }
                rows.append((name, row))
            }
            let width = rows.map { $0.0.count }.max() ?? 0
            var out = rows.map { $0.0 + String(repeating: " ", count: width - $0.0.count) + " " + $0.1 + "\n" }.joined()
            if let brightness = reply["brightness"] { out += "brightness \(percent(brightness))\n" }
            if reply["power"] == .bool(false) { out += "lights off (ledring power on lights them)\n" }
            return out
        }
        var out = ""
        for key in statusOrder {
            guard let value = reply[key], value != .null else { continue }
            out += "\(key): \(describe(value))\n"
        }
        return out
    }

    /// A notification over a ring: `notice #ff2020 pulse (key c0ffee) 42s left`.
    static func noticeText(_ notice: JSONMembers) -> String {
        var text = "notice"
        if case .string(let look)? = notice["look"] { text += " look \(look)" }
        if case .string(let color)? = notice["color"] { text += " \(color)" }
        if case .string(let effect)? = notice["effect"], effect != "none" { text += " \(effect)" }
        if case .number(let value)? = notice["value"] { text += " value \(JSONValue.format(value))" }
        if case .string(let key)? = notice["key"] { text += " (key \(key))" }
        if case .number(let left)? = notice["left"] { text += " \(DurationText.format(left.rounded(.up))) left" }
        return text
    }

    /// `0.8` as `80.0 %`.
    static func percent(_ value: JSONValue?) -> String {
        guard case .number(let n)? = value else { return "?" }
        let tenths = (n * 1000).rounded()
        let whole = Int(tenths / 10)
        return "\(whole).\(Int(abs(tenths.truncatingRemainder(dividingBy: 10)))) %"
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            // Timers: `focus 9m left, tea 3m left`.
            return members.pairs.map { member in
                guard case .number(let left) = member.value else { return member.key }
                return "\(member.key) \(DurationText.format(left.rounded(.up))) left"
            }.joined(separator: ", ")
        case .bool(let b): return b ? "yes" : "no"
        case .string(let s): return s
        default: return value.shown
        }
    }
}
