import LEDRingControl
import LEDRingNet
import RingModel
import Testing
@testable import LEDRingApp

/// "80%" means the same on the command line, the socket, HTTP and MQTT: every front end reads a
/// value through `ProgressText`, so a table of what people type gives one answer everywhere.
@Suite struct ProgressTextTests {
    static let table: [(text: String, value: Double?)] = [
        ("0.8", 0.8), ("80%", 0.8), ("80 %", 0.8), (" 80% ", 0.8), ("\t1.3", 1.3), ("130%", 1.3),
        ("0", 0), ("0%", 0), ("100", 100), ("10000%", 100), ("1e1", 10),
        ("", nil), ("%", nil), ("abc", nil), ("80%%", nil), ("8 0", nil), ("%80", nil), ("0x10", nil),
    ]

    @Test(arguments: ProgressTextTests.table)
    func everyFrontEndReadsAValueTheSameWay(_ text: String, _ value: Double?) {
        #expect(ProgressText.parse(text) == value)
        // Command line (`--set move=80%`), socket text and JSON (`set move 80%`), HTTP and MQTT.
        #expect((try? OneShotOptions(["--set", "move=" + text]).sets.first?.value) == value)
        #expect((try? Request.value(text, for: "move")) == value)
        #expect((try? SetCommand.parseValue(.string(text), name: "move")) == value)
    }

    @Test func outOfRangeIsRefusedEverywhere() {
        for text in ["100.5", "10001%", "-1", "-5%", "inf", "nan"] {
            #expect((try? OneShotOptions(["--set", "move=" + text])) == nil, "\(text)")
            #expect((try? Request.value(text, for: "move")) == nil, "\(text)")
            #expect((try? SetCommand.parseValue(.string(text), name: "move")) == nil, "\(text)")
        }
    }
}
