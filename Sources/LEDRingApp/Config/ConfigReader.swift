import LEDRingControl
import LEDRingNet
import RingRender

/// Reads values out of a JSON tree while collecting every problem, so a config is checked in one
/// pass: each accessor returns nil for a missing or bad value and records why it was bad.
struct ConfigReader {
    /// Everything wrong so far, in the order it was found (at most `maxProblems`, then a count).
    private(set) var problems: [ConfigProblem] = []
    /// Problems listed before the rest are only counted, so a huge bad file makes a short report.
    static let maxProblems = 50
    private var unlisted = 0

    /// Records a problem at `path`.
    mutating func report(_ path: String, _ message: String) {
        if problems.count < ConfigReader.maxProblems {
            problems.append(ConfigProblem(path: path, message: message))
            return
        }
        unlisted += 1
        let summary = ConfigProblem(path: "", message: "… and \(unlisted) more problems; fix these first")
        if problems.count == ConfigReader.maxProblems { problems.append(summary) } else { problems[problems.count - 1] = summary }
    }

    /// `path.key`, or `key` at the top.
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The members of an object, after reporting each key not in `known` (unknown keys are
    /// usually typos, and silently ignoring them hides the setting the user meant).
    mutating func object(_ value: JSONValue, at path: String, known: [String]) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            report(path, "must be an object {…}, got \(value.shown)")
            return nil
        }
        for key in members.keys.sorted() where !known.contains(key) {
            report(ConfigReader.join(path, key), "unknown key; known keys here are \(known.joined(separator: ", "))")
        }
        return members
    }

    /// A finite number within `range`, or nil (absent or bad).
    mutating func number(_ value: JSONValue?, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard let value else { return nil }
        guard case .number(let n) = value, n.isFinite else {
            report(path, "must be a number \(ConfigReader.describe(range)), got \(value.shown)")
            return nil
        }
        guard range.contains(n) else {
            report(path, "must be \(ConfigReader.describe(range)), got \(JSONValue.format(n))")
            return nil
        }
        return n
    }

    /// A whole number within `range`, or nil.
    mutating func integer(_ value: JSONValue?, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .number(let n) = value, n.isFinite, n == n.rounded(), abs(n) < 1e15 else {
            report(path, "must be a whole number \(range.lowerBound)…\(range.upperBound), got \(value.shown)")
            return nil
        }
        guard range.contains(Int(n)) else {
            report(path, "must be \(range.lowerBound)…\(range.upperBound), got \(JSONValue.format(n))")
            return nil
        }
        return Int(n)
    }

    /// A non-empty string, or nil.
    mutating func string(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let s) = value, !s.isEmpty else {
            report(path, "must be a non-empty string, got \(value.shown)")
            return nil
        }
        return s
    }

    /// `true` or `false`, or nil.
    mutating func bool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let b) = value else {
            report(path, "must be true or false, got \(value.shown)")
            return nil
        }
        return b
    }

    /// One of an enumeration's raw values, or nil.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, at path: String,
                                                              as type: T.Type) -> T? where T.RawValue == String {
        guard let value else { return nil }
        if case .string(let s) = value, let choice = T(rawValue: s) { return choice }
        report(path, "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got \(value.shown)")
        return nil
    }

    /// A colour written `#rrggbb`, or nil.
    mutating func color(_ value: JSONValue?, at path: String) -> RGB8? {
        guard let value else { return nil }
        if case .string(let s) = value, s.hasPrefix("#"), let color = RGB8(hex: s) { return color }
        report(path, "must be a colour \"#rrggbb\", got \(value.shown)")
        return nil
    }

    /// An array's items, or nil.
    mutating func array(_ value: JSONValue?, at path: String) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            report(path, "must be a list […], got \(value.shown)")
            return nil
        }
        return items
    }

    /// A section another library checks (`mqtt`, `http`): `value` goes back to JSON bytes for
    /// `decode`, and each problem it finds is reported under `path`, so they are listed with the
    /// rest of the file's problems.
    mutating func section<T>(_ value: JSONValue, at path: String,
                             decode: ([UInt8]) throws(SettingsError) -> T) -> T? {
        do {
            return try decode(Array(value.jsonText.utf8))
        } catch {
            for problem in error.problems {
                let inside = problem.path == path || problem.path.hasPrefix(path + ".")
                report(inside ? problem.path : ConfigReader.join(path, problem.path), problem.message)
            }
            if error.problems.isEmpty { report(path, "cannot be used; check it against the README (MQTT and HTTP sections)") }
            return nil
        }
    }

    static func describe(_ range: ClosedRange<Double>) -> String {
        "\(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))"
    }
}
