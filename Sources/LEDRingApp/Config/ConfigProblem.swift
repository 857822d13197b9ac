/// One thing wrong in a config file: where (a JSON path like `rings[1].leds`) and what.
struct ConfigProblem: Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value; empty for the document as a whole.
    var path: String
    /// What is wrong, with the value and what would be right.
    var message: String

    /// `rings[1].leds: must be 1…1024, got 0`.
    var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
