import Foundation

/// Golden files: readable text a test compares its output with.
///
/// Set `LEDRING_RECORD_GOLDEN=1` to rewrite the files from the current output; a recording run
/// always reports a failure, so a re-recorded golden is never mistaken for a passing test.
public enum GoldenFile {
    /// The environment variable that asks for re-recording.
    public static let recordVariable = "LEDRING_RECORD_GOLDEN"

    /// The result of comparing output with a golden file.
    public enum Outcome: Equatable, Sendable {
        /// The output equals the file.
        case matches
        /// The output differs; `firstDifference` is a readable description.
        case differs(firstDifference: String)
        /// The file was missing or re-recorded: a test must fail on this.
        case recorded(path: String)
    }

    /// Compares `actual` with the file at `path`, recording it when asked (or when missing).
    public static func check(_ actual: String, against path: String) -> Outcome {
        let record = ProcessInfo.processInfo.environment[recordVariable] == "1"
        guard !record, let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            let directory = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            return .recorded(path: path)
        }
        if expected == actual { return .matches }
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) {
            let left = i < a.count ? String(a[i]) : "<end of file>"
            let right = i < b.count ? String(b[i]) : "<end of output>"
            if left != right {
                return .differs(firstDifference: "line \(i + 1):\n  golden: \(left)\n  actual: \(right)")
            }
        }
        return .differs(firstDifference: "files differ")
    }
}
