import Foundation
import LEDRingNetTesting

/// Runs the built `ledring` binary, as a user would, and collects what it printed.
struct LedringProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `ledring` executable built next to this test bundle.
    static let executable = built("ledring")

    /// A product of this package built next to this test bundle.
    static func built(_ name: String) -> URL {
        let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            bundleDirectory.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    /// Runs ledring (or another built product) with `arguments` and no terminal, waiting for it
    /// to exit: at most `timeout` seconds, after which it is killed and the test fails naming it.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    executable: URL = LedringProcess.executable, timeout: Double = 120) throws -> Result {
        let result = try ChildProcess.run(executable.path, arguments, environment: environment, timeout: timeout)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Each line of `text` decoded as a JSON object.
    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an object: \(line)"))
            }
            return object
        }
    }
}
