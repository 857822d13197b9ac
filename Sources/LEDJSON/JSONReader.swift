/// Reads values out of a JSON tree while collecting every problem with its path, so a whole
/// document (a config with its `mqtt` and `http` sections) is checked in one pass: each accessor
/// returns nil for a missing or bad value and records why it was bad.
public struct JSONReader: Sendable {
    /// Everything wrong so far, in the order it was found (at most `maxProblems`, then a count).
    public private(set) var problems: [JSONProblem] = []
    /// Problems listed before the rest are only counted, so a huge bad file makes a short report.
    public static let maxProblems = 50
    private var unlisted = 0

    /// A reader with no problems yet.
    public init() {}

    /// How many problems were reported in all (listed or only counted).
    public var reported: Int { problems.count + unlisted - (unlisted > 0 ? 1 : 0) }

    /// Records a problem at `path`.
    public mutating func report(_ path: String, _ message: String) {
        if problems.count < JSONReader.maxProblems {
            problems.append(JSONProblem(path: path, message: message))
            return
        }
        unlisted += 1
        let summary = JSONProblem(path: "", message: "… and \(unlisted) more problems; fix these first")
        if problems.count == JSONReader.maxProblems { problems.append(summary) } else { problems[problems.count - 1] = summary }
    }

    /// `path.key`, or `key` at the top.
    public static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// `path[index]`.
    public static func join(_ path: String, index: Int) -> String {
        "\(path)[\(index)]"
    }

    /// The members of an object, after reporting each key not in `known` (unknown keys are
    /// usually typos, and silently ignoring them hides the setting the user meant).
    public mutating func object(_ value: JSONValue, at path: String, known: [String]) -> JSONMembers? {
        guard case .object(let members) = value else {
            report(path, "must be an object {…}, got \(value.shown)")
            return nil
        }
        for key in members.keys.sorted() where !known.contains(key) {
            report(JSONReader.join(path, key), "unknown key; known keys here are \(known.joined(separator: ", "))")
        }
        return members
    }

    /// A finite number within `range`, or nil (absent or bad).
    public mutating func number(_ value: JSONValue?, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard let value else { return nil }
        guard case .number(let n) = value, n.isFinite else {
            report(path, "must be a number \(JSONReader.describe(range)), got \(value.shown)")
            return nil
        }
        guard range.contains(n) else {
            report(path, "must be \(JSONReader.describe(range)), got \(JSONValue.format(n))")
            return nil
        }
        return n
    }

    /// A whole number within `range`, or nil.
    public mutating func integer(_ value: JSONValue?, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .number(let n) = value, n.isFinite, n == n.rounded(), n.magnitude < 1e15 else {
            report(path, "must be a whole number \(range.lowerBound)…\(range.upperBound), got \(value.shown)")
            return nil
        }
        // Compared as Doubles first: on a 32-bit Pi, Int(n) of a big number would trap.
        guard n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            report(path, "must be \(range.lowerBound)…\(range.upperBound), got \(JSONValue.format(n))")
            return nil
        }
        return Int(n)
    }

    /// A non-empty string, or nil.
    public mutating func string(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let s) = value, !s.isEmpty else {
            report(path, "must be a non-empty string, got \(value.shown)")
            return nil
        }
        return s
    }

    /// `true` or `false`, or nil.
    public mutating func bool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let b) = value else {
            report(path, "must be true or false, got \(value.shown)")
            return nil
        }
        return b
    }

    /// One of an enumeration's raw values, or nil.
    public mutating func choice<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, at path: String,
                                                                     as type: T.Type) -> T? where T.RawValue == String {
        guard let value else { return nil }
        if case .string(let s) = value, let choice = T(rawValue: s) { return choice }
        report(path, "must be one of \(T.allCases.map { $0.rawValue }.joined(separator: ", ")), got \(value.shown)")
        return nil
    }

    /// An array's items, or nil.
    public mutating func array(_ value: JSONValue?, at path: String) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            report(path, "must be a list […], got \(value.shown)")
            return nil
        }
        return items
    }

    /// A list of strings, or nil (absent, or a problem reported).
    public mutating func strings(_ value: JSONValue?, at path: String, example: String) -> [String]? {
        guard let items = array(value, at: path) else { return nil }
        var out: [String] = []
        var good = true
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else {
                report(JSONReader.join(path, index: i), "must be a string like \(example), got \(item.shown)")
                good = false
                continue
            }
            out.append(s)
        }
        return good ? out : nil
    }

    /// `1…4`, `0.05…60`.
    public static func describe(_ range: ClosedRange<Double>) -> String {
        "\(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))"
    }
}
