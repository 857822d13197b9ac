import Foundation
import Glibc
import Testing

/// The one-shot command and `ledring run` describe the same state with the same JSON frame (the
/// rings' colours, the power estimate and the limiter's scale): the two front ends must not drift.
@Suite struct FrontEndParityTests {
    /// The parts of a JSON frame that depend on the state alone (not on the frame's number or time).
    static func stateParts(_ line: Substring) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        guard let frame = object as? [String: Any] else { throw DaemonProcess.Failure(description: "not a frame: \(line)") }
        return NSDictionary(dictionary: frame.filter { ["rings", "milliamps", "scale"].contains($0.key) })
    }

    @Test(arguments: [["move=0.5", "stand=130%"], ["move=2.25", "exercise=0.75", "stand=0"]])
    func theOneShotAndTheDaemonPrintTheSameFrame(_ values: [String]) throws {
        let oneShot = try LedringProcess.run(["--simulate", "--format", "json", "--frames", "1"]
                                             + values.flatMap { ["--set", $0] })
        #expect(oneShot.status == 0, "\(oneShot.stderr)")
        let expected = try FrontEndParityTests.stateParts(try #require(oneShot.stdout.split(separator: "\n").last))

        let daemon = try DaemonProcess(["--simulate", "--format", "json"])
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set"] + values).status == 0)
        var last: NSDictionary?
        let matched = daemon.waitUntil(timeout: 10) {
            guard let line = daemon.stdout.split(separator: "\n").last else { return false }
            last = try? FrontEndParityTests.stateParts(line)
            return last == expected
        }
        #expect(matched, "daemon frame \(String(describing: last)) differs from the one-shot's \(expected)")
    }
}
