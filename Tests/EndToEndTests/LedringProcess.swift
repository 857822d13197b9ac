import Foundation

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
    /// to exit.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    executable: URL = LedringProcess.executable) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read stdout to its end before waiting, so a large output cannot block the child; stderr
        // holds at most a few lines, well inside the pipe's buffer.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
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
