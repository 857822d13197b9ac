import LEDJSON

/// A network settings section that cannot be used, with every problem found in it.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One problem: the key's path (`mqtt.port`) and what is wrong with the value and what is right.
    public typealias Problem = JSONProblem

    /// Every problem, in the order found.
    public var problems: [Problem]

    /// One line per problem.
    public var description: String { problems.map { $0.description }.joined(separator: "\n") }

    /// Parses `json` and reads it as the section `section` with `read`, which reports into one
    /// reader; the settings, or every problem found.
    static func reading<T>(_ json: [UInt8], section: String,
                           _ read: (JSONValue, String, inout JSONReader) -> T?) throws(SettingsError) -> T {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue.parse(json)
        } catch {
            throw SettingsError(problems: [Problem(path: section, message: "not valid JSON: \(error)")])
        }
        var reader = JSONReader()
        let settings = read(value, section, &reader)
        guard let settings, reader.problems.isEmpty else {
            throw SettingsError(problems: reader.problems.isEmpty
                ? [Problem(path: section, message: "cannot be used")] : reader.problems)
        }
        return settings
    }
}
