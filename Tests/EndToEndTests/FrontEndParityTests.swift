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

    /// The same values, with no colour options and with every one of them.
    static let cases: [(values: [String], options: [String])] = [
        (["move=0.5", "stand=130%"], []),
        (["move=2.25", "exercise=0.75", "stand=0"], []),
        (["move=0.8", "stand=45%"], ["--brightness", "60%", "--gamma", "2.8", "--dither", "off",
                                     "--correction", "typical-led-strip+tungsten-100w", "--max-milliamps", "300"]),
    ]

    @Test(arguments: FrontEndParityTests.cases)
    func theOneShotAndTheDaemonPrintTheSameFrame(_ values: [String], _ options: [String]) throws {
        let oneShot = try LedringProcess.run(["--simulate", "--format", "json", "--frames", "1"] + options
                                             + values.flatMap { ["--set", $0] })
        #expect(oneShot.status == 0, "\(oneShot.stderr)")
        let expected = try FrontEndParityTests.stateParts(try #require(oneShot.stdout.split(separator: "\n").last))

        let daemon = try DaemonProcess(["--simulate", "--format", "json"] + options)
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

    /// With APA102 HDR and RGBW white extraction the bytes on the wire match too: the last frame
    /// the daemon sends is the one-shot's frame, byte for byte.
    @Test(arguments: [["--driver", "apa102-spi", "--hdr"], ["--driver", "sk6812w-spi", "--white", "accurate"]])
    func theOneShotAndTheDaemonSendTheSameWireBytes(_ options: [String]) throws {
        let directory = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let oneShotDump = directory + "/one-shot.bin"
        let oneShot = try LedringProcess.run(options + ["--dump-wire", oneShotDump, "--frames", "1", "--max-milliamps", "100000",
                                                        "--set", "move=0.3", "--set", "exercise=0.05"])
        #expect(oneShot.status == 0, "\(oneShot.stderr)")
        let frame = try [UInt8](Data(contentsOf: URL(fileURLWithPath: oneShotDump)))
        #expect(!frame.isEmpty)

        let daemon = try DaemonProcess(options + ["--dump-wire", directory + "/daemon.bin", "--max-milliamps", "100000"],
                                       directory: directory)
        #expect(try daemon.client(["set", "move=0.3", "exercise=0.05"]).status == 0)
        let matched = daemon.waitUntil(timeout: 10) {
            let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/daemon.bin")))) ?? []
            return bytes.count >= frame.count && bytes.count % frame.count == 0 && Array(bytes.suffix(frame.count)) == frame
        }
        #expect(matched, "the daemon's last frame differs from the one-shot's (\(options.joined(separator: " ")))")
        daemon.cleanUp()
    }
}
