/// A network settings section that cannot be used, with every problem found in it.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One problem: the key's path (`mqtt.port`) and what is wrong with the value and what is right.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// Where, as a dotted path.
        public var path: String
        /// What is wrong and the fix.
        public var message: String
        /// `mqtt.port: must be 1…65535, got 0`.
        public var description: String { "\(path): \(message)" }
    }

    /// Every problem, in key order.
    public var problems: [Problem]

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
