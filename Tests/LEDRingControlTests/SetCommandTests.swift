import LEDRingControl
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

    /// A number may be in a ring's own units (`"range"`), so its limits are the ring's: the
    /// parser passes it and the one validation refuses it for a ring without a range.
    @Test(arguments: ["-0.1", "101"])
    func valuesOutsideLapsAreRefusedByTheRing(text: String) throws {
        let request = try SetCommand.parse(text).request(ring: "move")
        #expect(throws: RequestError.self) { try request.validate(rings: ["move"]) }
        try request.validate(rings: ["move"], ranged: ["move"])
    }

    @Test(arguments: [("abc", "not a number"), ("-1%", "must be 0…100"), ("nan", "not a number"),
                      ("10001%", "must be 0…100"), ("{\"value\":true}", "not a number"), ("{\"valu\":1}", "unknown key \"valu\""),
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
