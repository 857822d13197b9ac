extension JSONValue {
    /// Deepest nesting accepted (a document nested deeper is refused, not recursed into).
    public static let maxDepth = 64

    /// Parses `bytes` as exactly one JSON value. Strict, so documents other parsers take silently
    /// are refused with a line and column: duplicate keys (also when written differently, `"a"` and
    /// `"\u0061"`), numbers too large for a Double (`1e309`), invalid UTF-8, lone surrogates,
    /// nesting deeper than `maxDepth`. A leading UTF-8 byte order mark is allowed.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: withoutBOM(bytes))
        return try parser.document()
    }

    /// Parses `text` as exactly one JSON value.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// `bytes` without a leading UTF-8 byte order mark (some editors add one).
    public static func withoutBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }
}

/// The recursive-descent parser behind `JSONValue.parse`.
struct JSONParser {
    let bytes: ArraySlice<UInt8>
    var index: Int
    var depth = 0

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// 1-based line and column of byte `at` (columns count characters, not bytes).
    func position(_ at: Int) -> (Int, Int) {
        var line = 1, column = 1
        var i = bytes.startIndex
        while i < min(at, bytes.endIndex) {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }

    func fail(_ message: String, at: Int? = nil) -> JSONSyntaxError {
        let (line, column) = position(at ?? index)
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    var found: String {
        guard index < bytes.endIndex else { return "the end of the text" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { return "a space" }
        if b == 0xEF && bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { return "a byte order mark (U+FEFF)" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    mutating func skipSpace() {
        while index < bytes.endIndex {
            let b = bytes[index]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { return }
            index += 1
        }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.endIndex else { throw fail("the text is empty; expected a JSON value such as {…}") }
        let result = try value()
        skipSpace()
        guard index == bytes.endIndex else { throw fail("unexpected \(found) after the JSON value") }
        return result
    }

    mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.endIndex else { throw fail("expected a value, found the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: throw fail("expected a value, found \(found)")
        }
    }

    mutating func nest() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONValue.maxDepth else { throw fail("nested more than \(JSONValue.maxDepth) levels deep") }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        index += 1
        var members: [JSONMembers.Member] = []
        // Keys compared as decoded UTF-8, so `"a"` and `"\u0061"` are the same key.
        var keys = Set<[UInt8]>()
        skipSpace()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONMembers(unchecked: members))
        }
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a key in double quotes, found \(found)")
            }
            let start = index
            let key = try string()
            guard keys.insert(Array(key.utf8)).inserted else {
                throw fail("duplicate key \"\(JSONParser.escaped(key, limit: 40))\"; give each key once", at: start)
            }
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { throw fail("expected : after the key, found \(found)") }
            index += 1
            members.append(JSONMembers.Member(key: key, value: try value()))
            skipSpace()
            guard index < bytes.endIndex else { throw fail("expected , or } after a member, found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw fail("expected , or } after a member, found \(found)")
        }
        depth -= 1
        return .object(JSONMembers(unchecked: members))
    }

    mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard index < bytes.endIndex else { throw fail("expected , or ] after an item, found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw fail("expected , or ] after an item, found \(found)")
        }
        depth -= 1
        return .array(items)
    }

    /// Four hex digits at `at`, or nil.
    func hex4(at: Int) -> UInt32? {
        guard at + 4 <= bytes.endIndex else { return nil }
        var value: UInt32 = 0
        for b in bytes[at..<at + 4] {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A string with its escapes decoded.
    mutating func string() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var out: [UInt8] = []
        while index < bytes.endIndex {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.endIndex else { index += 1; continue }
                let e = bytes[index + 1]
                switch e {
                case UInt8(ascii: "u"):
                    guard let unit = hex4(at: index + 2) else { throw fail("\\u must be followed by four hex digits") }
                    var scalarValue = unit
                    var length = 6
                    if (0xD800..<0xDC00).contains(unit) {
                        guard index + 8 <= bytes.endIndex, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                              let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low) else {
                            throw fail("\\u\(JSONParser.hex(unit)) is the first half of a surrogate pair without its second half")
                        }
                        scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        length = 12
                    } else if (0xDC00..<0xE000).contains(unit) {
                        throw fail("\\u\(JSONParser.hex(unit)) is the second half of a surrogate pair without its first half")
                    }
                    guard let scalar = Unicode.Scalar(scalarValue) else {
                        throw fail("\\u\(JSONParser.hex(unit)) is not a Unicode character")
                    }
                    out.append(contentsOf: String(Character(scalar)).utf8)
                    index += length
                    continue
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                default: throw fail("unknown escape \\\(Character(Unicode.Scalar(e))) in a string")
                }
                index += 2
            case 0..<0x20:
                throw fail("a control character (0x\(String(b, radix: 16))) inside a string; write it as an escape like \\n")
            case 0..<0x80:
                out.append(b)
                index += 1
            default:
                let length = JSONParser.validUTF8Length(bytes, at: index)
                guard length > 0 else {
                    throw fail("invalid UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true))); save the file as UTF-8")
                }
                out.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
        throw fail("a string that never ends (no closing \")", at: start)
    }

    /// Length of the well-formed UTF-8 sequence starting at `at` (2…4), or 0: overlong forms,
    /// surrogates and values past U+10FFFF are refused, as Unicode says.
    static func validUTF8Length(_ bytes: ArraySlice<UInt8>, at: Int) -> Int {
        let b = bytes[at]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard at + length <= bytes.endIndex else { return 0 }
        let second = bytes[at + 1]
        guard second >= low && second <= high else { return 0 }
        var i = at + 2
        while i < at + length {
            guard bytes[i] & 0xC0 == 0x80 else { return 0 }
            i += 1
        }
        return length
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) else { throw fail("expected a digit, found \(found)") }
        if bytes[index] == 0x30 { index += 1 } else { _ = digits() }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected a digit after the decimal point, found \(found)") }
        }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent, found \(found)") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(Substring(text)), number.isFinite else {
            throw fail("the number \(JSONParser.escaped(text, limit: 40)) is too large", at: start)
        }
        return number
    }

    mutating func digits() -> Int {
        let s = index
        while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - s
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[index...].starts(with: expected) else { throw fail("expected a value, found \(found)") }
        index += expected.count
    }

    static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// `text` with control characters escaped and cut after `limit` characters, to quote in a message.
    static func escaped(_ text: String, limit: Int) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return out + "…" }
            count += 1
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
