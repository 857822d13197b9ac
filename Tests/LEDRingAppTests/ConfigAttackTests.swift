import Foundation
import Testing
@testable import LEDRingApp

/// Issue 14: config files that cost too much or say too little.
@Suite struct ConfigAttackTests {
    func problems(_ json: String) -> [String] { DaemonConfig.problems(json) }
    func problems(_ data: Data) -> [String] { DaemonConfig.problems(Array(data)) }

    @Test func duplicateKeysAreErrors() {
        let found = problems(#"{"brightness": 0.5, "fps": 30, "brightness": 1}"#)
        #expect(found.count == 1 && found[0].contains("duplicate key \"brightness\"") && found[0].contains("line 1, column 32"))
        #expect(!problems(#"{"rings": [{"name": "a", "leds": 8, "leds": 12}]}"#).isEmpty)
    }

    @Test func syntaxErrorsSayLineAndColumn() {
        let found = problems("{\n  \"brightness\": 0.5\n  \"fps\": 30\n}")
        #expect(found.count == 1 && found[0].contains("line 3, column 3"))
        #expect(!found[0].contains("NSCocoaErrorDomain") && !found[0].contains("Error Domain"))
    }

    @Test func hugeNumbersAndBadUTF8AreNamed() {
        let huge = problems(#"{"brightness": 1e309}"#)
        #expect(huge.count == 1 && huge[0].contains("1e309") && !huge[0].contains("DecodingError") && !huge[0].contains("typeMismatch"))
        let invalid = problems(Data(#"{"rings": [{"name": ""#.utf8) + [0xFF, 0xFE] + Data(#"", "leds": 8}]}"#.utf8))
        #expect(invalid.count == 1 && invalid[0].contains("UTF-8") && !invalid[0].contains("DecodingError"))
    }

    @Test func aByteOrderMarkIsAllowed() {
        #expect(problems(Data([0xEF, 0xBB, 0xBF]) + Data(#"{"brightness": 0.5}"#.utf8)).isEmpty)
    }

    /// 50 000 rings in 1.2 MB used to take 655 MB to check: refused before any ring is built,
    /// with one problem, not one per ring.
    @Test func tooManyRingsAreRefusedBeforeBuildingThem() {
        let rings = (0..<50_000).map { #"{"name":"r\#($0)","leds":1}"# }.joined(separator: ",")
        let found = problems(#"{"rings":[\#(rings)]}"#)
        #expect(found.count == 1 && found[0].contains("50000 rings") && found[0].contains("16384"))
        // Within the chain but still far too many: 16 000 one-LED rings took 247 MB.
        let many = (0..<16_000).map { #"{"name":"r\#($0)","leds":1}"# }.joined(separator: ",")
        let tooMany = problems(#"{"rings":[\#(many)]}"#)
        #expect(tooMany.count == 1 && tooMany[0].contains("at most 512"))
        let most = (0..<512).map { #"{"name":"r\#($0)","leds":1}"# }.joined(separator: ",")
        #expect(problems(#"{"rings":[\#(most)]}"#).isEmpty)
    }

    @Test func aHugeFileIsRefusedBeforeParsing() throws {
        let path = "/tmp/lr-config-\(UUID().uuidString.prefix(8)).json"
        defer { unlink(path) }
        let padding = String(repeating: " ", count: 2 << 20)
        try (#"{"brightness": 0.5}"# + padding).write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ConfigError.self) { try DaemonConfig.load(path: path) }
        do { _ = try DaemonConfig.load(path: path) } catch {
            #expect(error.description.contains("at most 1 MiB"))
        }
    }

    @Test func aDeviceIsNotAConfigFile() {
        do {
            _ = try DaemonConfig.load(path: "/dev/zero")
            Issue.record("/dev/zero was accepted")
        } catch {
            #expect(error.description.contains("not a regular file") && !error.description.contains("permission"))
        }
    }
}
