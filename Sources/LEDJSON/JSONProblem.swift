/// One thing wrong in a JSON document: where (a path like `rings[1].leds`) and what.
public struct JSONProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path of the offending value; empty for the document as a whole.
    public var path: String
    /// What is wrong, with the value and what would be right.
    public var message: String

    /// A problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `rings[1].leds: must be 1…1024, got 0`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
