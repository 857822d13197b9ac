import LEDJSON
import LEDRingControl

/// A value given to a setting: a word of the command line, the option alone (a switch), or a
/// value of the config file. The settings tables (`ColorSetting`, `OutputSetting`) read each
/// setting from it with one check, whichever front end it came from.
enum SettingInput {
    case word(String)
    case given
    case json(JSONValue)

    /// A finite number in `range`.
    func number(in range: ClosedRange<Double>) throws(SettingProblem) -> Double {
        let value: Double
        switch self {
        case .word(let text):
            guard let parsed = Double(text), parsed.isFinite else { throw .notA("number", range: range) }
            value = parsed
        case .json(.number(let n)) where n.isFinite: value = n
        case .json, .given: throw .notA("number", range: range)
        }
        guard range.contains(value) else { throw .outOfRange(range) }
        return value
    }

    /// A whole number in `range`.
    func integer(in range: ClosedRange<Int>) throws(SettingProblem) -> Int {
        let wide = Double(range.lowerBound)...Double(range.upperBound)
        let value: Double
        switch self {
        case .word(let text):
            guard let parsed = Int(text) else { throw .notA("whole number", range: wide) }
            value = Double(parsed)
        case .json(.number(let n)) where n.isFinite && n == n.rounded() && n.magnitude < 1e15: value = n
        case .json, .given: throw .notA("whole number", range: wide)
        }
        // Compared as Doubles first: on a 32-bit Pi, Int(n) of a big number would trap.
        guard wide.contains(value) else { throw .outOfRange(wide) }
        return Int(value)
    }

    /// 0…1, on the command line also `35%`: there the check `ledring brightness` gets from every
    /// front end, which names the value as `name`.
    func fraction(name: String) throws(SettingProblem) -> Double {
        guard case .word(let text) = self else { return try number(in: 0...1) }
        do throws(RequestError) {
            return try Request.fraction(text, name: name)
        } catch {
            throw .said(error.message)
        }
    }

    /// Text that is not empty: a path, a line's name.
    func text() throws(SettingProblem) -> String {
        switch self {
        case .word(let text), .json(.string(let text)):
            guard !text.isEmpty else { throw .empty }
            return text
        case .json, .given: throw .empty
        }
    }

    /// A word `parse` knows (`choices` says which there are).
    func choice<T>(_ choices: String, _ parse: (String) throws(SettingProblem) -> T?) throws(SettingProblem) -> T {
        let text: String
        switch self {
        case .word(let word): text = word
        case .json(.string(let string)): text = string
        case .json, .given: throw .unknown(nil, choices: choices)
        }
        guard let value = try parse(text) else { throw .unknown(nil, choices: choices) }
        return value
    }

    /// A switch: given alone on the command line, `true` or `false` in the file.
    func flag() throws(SettingProblem) -> Bool {
        switch self {
        case .given: return true
        case .json(.bool(let on)): return on
        case .word, .json: throw .notTrueOrFalse
        }
    }
}

/// Why a setting's value was refused, said as the command line or the config file says it.
enum SettingProblem: Error, Equatable {
    /// Not of the setting's kind at all ("number", "whole number").
    case notA(String, range: ClosedRange<Double>)
    /// A number outside its range.
    case outOfRange(ClosedRange<Double>)
    /// A word that is not one of `choices`; `part` is the unknown part of a combination.
    case unknown(String?, choices: String)
    /// A switch given something else than true or false.
    case notTrueOrFalse
    /// Empty text, or no text at all.
    case empty
    /// A word of the right kind that is still wrong, and why (`colour order "XYZ" is not valid; …`).
    case invalid(String)
    /// A value that names something that cannot work here (WS2812 on GPIO), and why: a
    /// configuration problem, not a typo (exit 78 on the command line too).
    case impossible(String)
    /// Already said in full (the protocol's own check, which names the option itself).
    case said(String)

    /// `--gamma 9: must be 1…4; 2.2 shows …`, with the exit code for it.
    func commandLine(option: String, text: String, hint: String?) -> CommandError {
        let tail = hint.map { "; " + $0 } ?? ""
        let quoted = ValueParser.quoted(text)
        switch self {
        case .notA(let kind, let range):
            let from = "; give one from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))"
            return .usage("\(option) \(quoted): not a \(kind)\(hint == nil ? from : tail)")
        case .outOfRange(let range): return .usage("\(option) \(text): must be \(JSONReader.describe(range))\(tail)")
        case .unknown(let part, let choices): return .usage("\(option) \(ValueParser.quoted(part ?? text)): unknown; use one of \(choices)\(tail)")
        case .notTrueOrFalse: return .usage("\(option) takes no value; write \(option) alone")
        case .empty: return .usage("\(option) \(quoted): empty; give a value\(tail)")
        case .invalid(let why): return .usage("\(option) \(quoted): \(why)")
        case .impossible(let why): return CommandError("\(option) \(text): \(why)", code: .config)
        case .said(let message): return .usage(message)
        }
    }

    /// `must be 1…4, got 9`, after the key.
    func config(got value: JSONValue) -> String {
        switch self {
        case .notA(let kind, let range): return "must be a \(kind) \(JSONReader.describe(range)), got \(value.shown)"
        case .outOfRange(let range): return "must be \(JSONReader.describe(range)), got \(value.shown)"
        case .unknown(_, let choices): return "must be one of \(choices), got \(value.shown)"
        case .notTrueOrFalse: return "must be true or false, got \(value.shown)"
        case .empty: return "must be a non-empty string, got \(value.shown)"
        case .invalid(let why): return "\(why), got \(value.shown)"
        case .impossible(let why), .said(let why): return why
        }
    }
}
