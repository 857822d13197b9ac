import LEDJSON
import LEDRingTestSupport
import Testing

@Suite struct JSONWritingTests {
    @Test func compactInTheCallersOrder() {
        let value = JSONValue.object([("z", .integer(1)), ("a", .array([.bool(true), .null, .number(0.8)])), ("m", .string("x"))])
        #expect(value.jsonText == #"{"z":1,"a":[true,null,0.8],"m":"x"}"#)
    }

    @Test func parsedDocumentsKeepTheirKeyOrder() throws {
        #expect(try JSONValue.parse(#"{ "b": 1, "a": {"d": 2, "c": 3} }"#).jsonText == #"{"b":1,"a":{"d":2,"c":3}}"#)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "-0"), (24, "24"), (-3, "-3"), (0.8, "0.8"), (0.1 + 0.2, "0.30000000000000004"),
        (1e300, "1e+300"), (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992"), (1e17, "1e+17"),
        (5e-324, "5e-324"), (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"),
    ] as [(Double, String)])
    func numbersReadBackAndWholeOnesHaveNoFraction(value: Double, text: String) throws {
        #expect(JSONValue.numberText(value) == text)
        if value.isFinite { #expect(try JSONValue.parse(text).number == value) }
    }

    @Test func messagesShowNumbersAsWritten() {
        #expect(JSONValue.format(0) == "0" && JSONValue.format(2.5) == "2.5" && JSONValue.format(70000) == "70000")
        #expect(JSONValue.array([.number(1), .string("a")]).shown == #"[1, "a"]"#)
    }

    @Test func stringsAreEscaped() throws {
        let text = "q\" b\\ n\n r\r t\t \u{0} \u{1f} \u{7f} \u{2028} é 😀 /"
        let written = JSONValue.stringText(text)
        #expect(written == #""q\" b\\ n\n r\r t\t \u0000 \u001f \u007f \u2028 é 😀 /""#)
        #expect(try JSONValue.parse(written) == .string(text))
    }

    @Test func arbitraryValuesRoundTrip() throws {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<500 {
            let value = JSONWritingTests.randomValue(depth: 0, using: &random)
            let text = value.jsonText
            let back = try JSONValue.parse(text)
            #expect(back == value, "\(text)")
            #expect(back.jsonText == text)
        }
    }

    static func randomValue(depth: Int, using random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 4 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &random)))
        case 3:
            let bits = UInt64.random(in: 0...UInt64.max, using: &random)
            let double = Double(bitPattern: bits)
            return .number(double.isFinite ? double : Double.random(in: -1e6...1e6, using: &random))
        case 4: return .string(randomString(using: &random))
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members = JSONMembers()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[randomString(using: &random)] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }

    static func randomString(using random: inout SeededGenerator) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "€", "😀", "\u{2028}", "\u{FEFF}"]
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            text.unicodeScalars.append(pool[Int.random(in: 0..<pool.count, using: &random)])
        }
        return text
    }
}
