import Testing
@testable import LEDRingApp

extension DaemonConfig {
    /// Every problem the config reader finds in `bytes`, as it prints them (path: message); empty
    /// when the config is good. The config tests' one way to ask.
    static func problems(_ bytes: [UInt8]) -> [String] {
        do {
            _ = try DaemonConfig.parse(bytes, file: "test.json")
            return []
        } catch {
            return error.problems.map { $0.description }
        }
    }

    static func problems(_ json: String) -> [String] { problems(Array(json.utf8)) }
}

/// The error `body` throws; nil (and a recorded issue) when it throws none.
func commandError<T>(_ body: () throws(CommandError) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> CommandError? {
    do throws(CommandError) {
        _ = try body()
        Issue.record("no error was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
