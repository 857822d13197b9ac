import LEDJSON
import LEDRingControl
import RingModel
/// Walks a command line: options as `--name value` or `--name=value`, in any order. Which
/// options there are, and which take a value, is `CommandLineTable`'s: an option of the command
/// that is not in the table is refused here (with the nearest name), before the command's own
/// parser sees it.
struct ArgumentReader {
    private var remaining: ArraySlice<String>
    /// The command whose options these are (nil: the one-shot command), for messages.
    let verb: String?
    /// Its options, from the table.
    let options: [OptionSpec]

    init(_ arguments: [String], verb: String?) {
        remaining = arguments[...]
        self.verb = verb
        options = CommandLineTable.options(of: verb)
    }

    /// The next argument: an option by its main name (`-h` comes as `--help`) with the value
    /// attached to it (`--name=value`), or a word as it was written (a value like `-0.5` too).
    mutating func next() throws(CommandError) -> (name: String, attached: String?)? {
        guard let argument = remaining.popFirst() else { return nil }
        var name = argument
        var attached: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            attached = String(argument[argument.index(after: equals)...])
        }
        guard name.hasPrefix("-"), name.count > 1 else { return (argument, nil) }
        guard let spec = CommandLineTable.find(name, in: options) else {
            if name.hasPrefix("--") { throw CommandLineTable.unknownOption(name, verb: verb) }
            return (argument, nil)
        }
        if attached != nil && !spec.takesValue {
            throw .usage("\(verb.map { $0 + ": " } ?? "")\(name) takes no value; write \(name) alone")
        }
        return (spec.name, attached)
    }

    /// The value of option `name`: attached, or the next argument.
    mutating func value(for name: String, attached: String?) throws(CommandError) -> String {
        guard CommandLineTable.find(name, in: options)?.takesValue == true else {
            throw CommandError("\(name) is a switch in the option table but its parser asks for a value: a bug in ledring", code: .software)
        }
        if let attached { return attached }
        guard let value = remaining.popFirst() else {
            throw .usage("\(name) needs a value; see `ledring \(verb.map { $0 + " " } ?? "")--help`")
        }
        return value
    }

    /// What to say about `word` when the command's parser has no use for it: a word it does not
    /// take (an unknown option, as before), or an option of the table no parser handles (a bug).
    func unexpected(_ word: String) -> CommandError {
        if CommandLineTable.find(word, in: options) != nil {
            return CommandError("\(word) is in the option table but no parser takes it: a bug in ledring", code: .software)
        }
        return CommandLineTable.unknownOption(word, verb: verb)
    }
}

/// Parsers for the values of the options no settings table holds (`--fps`, `--frames`,
/// `--leds`, …): each is `SettingInput`'s one check of its kind, said as the command line says
/// it (`SettingProblem.commandLine`), naming the option and the fix when the value is wrong.
enum ValueParser {
    /// A finite number within `range`.
    static func number(_ text: String, option: String, in range: ClosedRange<Double>,
                       hint: String) throws(CommandError) -> Double {
        do throws(SettingProblem) { return try SettingInput.word(text).number(in: range) } catch {
            throw error.commandLine(option: option, text: text, hint: hint)
        }
    }

    /// A whole number within `range`.
    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        do throws(SettingProblem) { return try SettingInput.word(text).integer(in: range) } catch {
            throw error.commandLine(option: option, text: text, hint: nil)
        }
    }

    /// A fraction, 0…1, written `0.35` or `35%`: `Request.fraction`, the check a brightness
    /// gets from every front end, with its words.
    static func fraction(_ text: String, option: String) throws(CommandError) -> Double {
        do throws(SettingProblem) { return try SettingInput.word(text).fraction(name: option) } catch {
            throw error.commandLine(option: option, text: text, hint: nil)
        }
    }

    /// A note when a value written without `%` means many laps (`move=50` is 5000 %, not half a
    /// ring): what was asked is still done, but the user hears how it was read.
    static func lapsNote(ring: String, text: String, value: Double) -> String? {
        guard !ProgressText.isPercent(text), value >= 2, value <= 100 else { return nil }
        // Rounded as people write it: 2.3 laps are 230 %, not 229.99999999999997 %.
        let percent = JSONValue.format((value * 100 * 1e6).rounded() / 1e6)
        let laps = JSONValue.format(value)
        let meant = value == 50 ? "half a ring" : "\(laps) % of a ring"
        return "\(ring)=\(text) means \(laps) laps = \(percent) %; write \(laps)% for \(meant)"
    }

    /// One of a type's raw values.
    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, option: String,
                                                            as type: T.Type) throws(CommandError) -> T
    where T.RawValue == String {
        let names = T.allCases.map { $0.rawValue }.joined(separator: ", ")
        do throws(SettingProblem) { return try SettingInput.word(text).choice(names) { T(rawValue: $0) } } catch {
            throw error.commandLine(option: option, text: text, hint: nil)
        }
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
