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

    /// Issue 28: 10 000 looks took 140 MB to run and 28 888 looks in 1 MiB took 372 MB to check
    /// (a 12 KB gradient table each); zones cost the same. Both are capped, and refused with
    /// one problem before any is built.
    @Test func tooManyLooksOrZonesAreRefusedBeforeBuildingThem() {
        func looks(_ n: Int) -> String {
            let members = (0..<n).map { #""l\#($0)": {"effect": "pulse"}"# }.joined(separator: ",")
            return #"{"rings": [{"name": "a", "leds": 8, "look": "l0"}], "looks": {\#(members)}}"#
        }
        #expect(problems(looks(DaemonConfig.maxLooks)).isEmpty)
        let tooMany = problems(looks(DaemonConfig.maxLooks + 1))
        #expect(tooMany == ["looks: has 257 looks; at most 256 are supported (each costs 12 KB of gradient)"])

        func zones(rings: Int, each: Int) -> String {
            let list = (0..<each).map { $0 == each - 1 ? ##"{"gradient": "#ff0000"}"## : ##"{"upTo": \##(Double($0 + 1) / Double(each)), "gradient": "#00ff00"}"## }
            let items = (0..<rings).map { #"{"name": "r\#($0)", "leds": 4, "zones": [\#(list.joined(separator: ","))]}"# }
            return #"{"rings": [\#(items.joined(separator: ","))]}"#
        }
        #expect(problems(zones(rings: 64, each: 4)).isEmpty)
        let tooManyZones = problems(zones(rings: 65, each: 4))
        #expect(tooManyZones == ["rings: the rings list 260 colour zones in all; at most 256 are supported (each costs 12 KB of gradient)"])
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
