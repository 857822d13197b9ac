/// What is wrong with a JSON document, and where: "line 3, column 14: expected , or } after a
/// member", so a person can fix a config file by hand.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column, in characters (not bytes).
    public var column: Int
    /// What is wrong there.
    public var message: String

    /// A problem at `line`, `column`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 3, column 14: …`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
