/// A config file that cannot be used, with every problem found in it (exit 78).
struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The file, for messages.
    var file: String
    /// All problems, in the order they were found (rings first, then the other sections).
    var problems: [ConfigProblem]

    /// One line per problem, each prefixed with the file name.
    var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }

    /// The same error as a command failure with the sysexits config code.
    var commandError: CommandError { CommandError(description, code: .config) }
}
