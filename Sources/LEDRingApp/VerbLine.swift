import LEDRingControl
/// The verbs of the command line, and the small kindnesses around them: global options before
/// the verb (`ledring --socket X set …`), "did you mean" for a mistyped verb, `--help` on every verb.
enum VerbLine {
    /// Every verb, in the table's order.
    static let verbs = CommandLineTable.verbs.map { $0.name }
    /// Options that may come before the verb, and whether each takes a value.
    static let globalOptions = CommandLineTable.beforeVerb

    /// `arguments` with global options written before a verb moved after it:
    /// `--socket X set move=1` → `set --socket X move=1`. Anything else is returned as it is.
    static func normalised(_ arguments: [String]) -> [String] {
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard let takesValue = globalOptions[name] else { break }
            i += takesValue && !word.contains("=") ? 2 : 1
        }
        guard i > 0, i < arguments.count, verbs.contains(arguments[i]) else { return arguments }
        return [arguments[i]] + arguments[..<i] + arguments[(i + 1)...]
    }

    /// The verb `word` was probably meant to be, if it is one or two edits from one.
    static func suggestion(for word: String) -> String? {
        guard !word.hasPrefix("-"), !verbs.contains(word) else { return nil }
        let scored = verbs.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < $0.0.count }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance: insertions, deletions, substitutions and swaps of two neighbours (`rnage`
    /// is one swap from `range`), each counting one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        for i in 1...a.count {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    next[j] = min(next[j], before[j - 2] + 1)
                }
            }
            before = row
            row = next
        }
        return row[b.count]
    }

    /// Whether the arguments after the verb ask for help.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { $0 == "-h" || $0 == "--help" }
    }

    /// The help text of one verb, from the table; the general help for anything else.
    static func help(_ verb: String) -> String {
        guard let spec = CommandLineTable.verb(verb) else { return Usage.text }
        return CommandLineTable.helpText(spec)
    }
}
