import LEDRingControl
import RingRender
import Testing

@Suite struct SetCommandTests {
    @Test(arguments: [("0.8", 0.8), ("80%", 0.8), (" 130 % ", 1.3), ("0", 0.0), ("{\"value\":0.5}", 0.5),
                      ("{\"value\":\"45%\"}", 0.45), ("100", 100.0)])
    func parsesNumbersPercentagesAndJSON(text: String, value: Double) throws {
        let command = try SetCommand.parse(text)
        #expect(abs(command.value - value) < 1e-12)
        #expect(command.duration == nil && command.curve == nil)
    }

    @Test func parsesDurationAndCurve() throws {
        let command = try SetCommand.parse(#"{"value":0.8,"duration":1.5,"curve":"spring"}"#)
        #expect(command == SetCommand(value: 0.8, duration: 1.5, curve: .spring))
    }

    @Test(arguments: [("abc", "not a number"), ("-0.1", "must be 0…100"), ("nan", "not a number"),
                      ("101", "must be 0…100"), ("{\"value\":true}", "not a number"), ("{\"valu\":1}", "unknown key \"valu\""),
                      ("{\"value\":1,\"curve\":\"bouncy\"}", "linear, easeIn"), ("{\"value\":1,\"duration\":-1}", "duration"),
                      ("{\"value\":", "not valid JSON"), ("{}", "no \"value\""), ("", "not a number")])
    func refusesBadPayloadsWithTheReason(text: String, reason: String) {
        #expect {
            try SetCommand.parse(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func refusesOversizedAndNonUTF8Payloads() {
        #expect(throws: RequestError.self) { try SetCommand.parse([UInt8](repeating: 0x31, count: SetCommand.maxPayloadBytes + 1)) }
        #expect(throws: RequestError.self) { try SetCommand.parse([0xff, 0xfe]) }
    }
}
