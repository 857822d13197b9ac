import LEDJSON
import Testing

@Suite struct JSONParsingTests {
    @Test func validDocumentsBuildTheirValues() throws {
        let value = try JSONValue.parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}, "e": ""} "#)
        #expect(value["a"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"] == .string("d\né😀"))
        #expect(value["e"] == .string(""))
        #expect(value.members?.keys == ["a", "b", "e"])
        #expect(try JSONValue.parse("0") == .number(0))
        #expect(try JSONValue.parse(#""\/\\\"\b\f\r\t""#) == .string("/\\\"\u{8}\u{c}\r\t"))
        #expect(try JSONValue.parse("[]") == .array([]) && JSONValue.parse("{}") == .object(JSONMembers()))
    }

    @Test func minusZeroKeepsItsSign() throws {
        let parsed = try JSONValue.parse("-0").number
        let zero = try #require(parsed)
        #expect(zero == 0 && zero.sign == .minus)
        #expect(JSONValue.numberText(-0.0) == "-0")
        #expect(try JSONValue.parse(JSONValue.number(-0.0).jsonText).number?.sign == .minus)
    }

    @Test func aLeadingByteOrderMarkIsAllowedOnlyAtTheStart() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(1)]))
        #expect(throws: JSONSyntaxError(line: 1, column: 5, message: "unexpected a byte order mark (U+FEFF) after the JSON value")) {
            try JSONValue.parse(Array("[1] ".utf8) + [0xEF, 0xBB, 0xBF])
        }
    }

    static let errors: [(String, Int, Int, String)] = [
        ("", 1, 1, "the text is empty; expected a JSON value such as {…}"),
        ("  \n ", 2, 2, "the text is empty; expected a JSON value such as {…}"),
        ("{\"a\": 1,\n \"b\" 2}", 2, 6, "expected : after the key, found '2'"),
        ("{\"a\": 1\n\n  \"b\": 2}", 3, 3, "expected , or } after a member, found '\"'"),
        ("{\"a\": 1", 1, 8, "expected , or } after a member, found the end of the text"),
        ("[1 2]", 1, 4, "expected , or ] after an item, found '2'"),
        ("[1,", 1, 4, "expected a value, found the end of the text"),
        ("[1", 1, 3, "expected , or ] after an item, found the end of the text"),
        ("{a: 1}", 1, 2, "expected a key in double quotes, found 'a'"),
        ("{\"a\": 1,}", 1, 9, "expected a key in double quotes, found '}'"),
        ("[1,]", 1, 4, "expected a value, found ']'"),
        ("tru", 1, 1, "expected a value, found 't'"),
        ("nul", 1, 1, "expected a value, found 'n'"),
        ("'a'", 1, 1, "expected a value, found '''"),
        ("[1] x", 1, 5, "unexpected 'x' after the JSON value"),
        ("01", 1, 2, "unexpected '1' after the JSON value"),
        ("-", 1, 2, "expected a digit, found the end of the text"),
        ("-a", 1, 2, "expected a digit, found 'a'"),
        ("1.", 1, 3, "expected a digit after the decimal point, found the end of the text"),
        ("1.e5", 1, 3, "expected a digit after the decimal point, found 'e'"),
        ("1e", 1, 3, "expected a digit in the exponent, found the end of the text"),
        ("1e+", 1, 4, "expected a digit in the exponent, found the end of the text"),
        ("[1e309]", 1, 2, "the number 1e309 is too large"),
        ("-1e309", 1, 1, "the number -1e309 is too large"),
        ("\"abc", 1, 1, "a string that never ends (no closing \")"),
        ("[\"a\tb\"]", 1, 4, "a control character (0x9) inside a string; write it as an escape like \\n"),
        ("\"\\x\"", 1, 2, "unknown escape \\x in a string"),
        ("\"\\u12G4\"", 1, 2, "\\u must be followed by four hex digits"),
        ("\"\\u12\"", 1, 2, "\\u must be followed by four hex digits"),
        ("\"\\ud800\"", 1, 2, "\\ud800 is the first half of a surrogate pair without its second half"),
        ("\"\\ud800\\u0041\"", 1, 2, "\\ud800 is the first half of a surrogate pair without its second half"),
        ("\"\\udc00\"", 1, 2, "\\udc00 is the second half of a surrogate pair without its first half"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\"; give each key once"),
        ("{\"a\": 1, \"\\u0061\": 2}", 1, 10, "duplicate key \"a\"; give each key once"),
        ("{\"é\": 1,\n \"\\u00e9\": 2}", 2, 2, "duplicate key \"é\"; give each key once"),
        ("{\"x\": {\"a\": 1}, \"y\": {\"a\": 1}, \"x\": 0}", 1, 32, "duplicate key \"x\"; give each key once"),
        ("[\"é\", x]", 1, 7, "expected a value, found 'x'"),
    ]

    @Test(arguments: errors)
    func everyErrorSaysWhereAndWhat(document: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(line: line, column: column, message: message)) { try JSONValue.parse(document) }
    }

    @Test func theMessageReadsLineColumnThenWhat() {
        #expect(JSONSyntaxError(line: 3, column: 14, message: "x").description == "line 3, column 14: x")
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0x80, 0x22],
    ] as [[UInt8]])
    func invalidUTF8IsRefused(bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bytes) }
        do {
            _ = try JSONValue.parse(bytes)
        } catch {
            #expect(error.line == 1 && error.column == 2 && error.message.hasPrefix("invalid UTF-8 (byte 0x"))
        }
    }

    @Test func validMultibyteUTF8IsKept() throws {
        #expect(try JSONValue.parse(Array("\"aé€😀\"".utf8)) == .string("aé€😀"))
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        #expect(throws: Never.self) { try JSONValue.parse(deepest) }
        let tooDeep = String(repeating: "[", count: JSONValue.maxDepth + 1) + String(repeating: "]", count: JSONValue.maxDepth + 1)
        #expect(throws: JSONSyntaxError(line: 1, column: 65, message: "nested more than 64 levels deep")) { try JSONValue.parse(tooDeep) }
        // A hostile document far deeper than the stack could recurse is refused just the same.
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(hostile) }
    }

    @Test func objectsCompareByMembersNotOrder() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":2}"#) == JSONValue.parse(#"{"b":2,"a":1}"#))
        #expect(try JSONValue.parse(#"{"a":1,"b":2}"#) != JSONValue.parse(#"{"a":1}"#))
        #expect(try JSONValue.parse(#"{"a":1}"#) != JSONValue.parse(#"{"a":true}"#))
    }
}
