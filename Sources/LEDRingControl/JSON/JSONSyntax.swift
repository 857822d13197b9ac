/// A strict JSON checker run before Foundation parses a document, so a mistake is reported the
/// way a person can fix it ("line 3, column 14: expected , or } after a member") instead of as
/// `NSCocoaErrorDomain error 3840` or a `DecodingError`, and so documents Foundation would take
/// silently are refused: duplicate keys, numbers too large for a Double (`1e309`), invalid UTF-8.
public enum JSONSyntax {
    /// What is wrong with a document, and where.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// 1-based line and column (in characters) of the problem.
        public var line: Int
        /// 1-based column.
        public var column: Int
        /// What is wrong there.
        public var message: String
        /// `line 3, column 14: …`.
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Deepest nesting accepted (a document nested deeper is refused, not recursed into).
    public static let maxDepth = 64

    /// `bytes` without a leading UTF-8 byte order mark (some editors add one).
    public static func withoutBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// Checks that `bytes` is exactly one JSON value (a leading byte order mark is allowed).
    public static func check(_ bytes: [UInt8]) throws(Problem) {
        var checker = Checker(bytes: withoutBOM(bytes))
        try checker.document()
    }

    private struct Checker {
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

        func fail(_ message: String, at: Int? = nil) -> Problem {
            let (line, column) = position(at ?? index)
            return Problem(line: line, column: column, message: message)
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
            while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func document() throws(Problem) {
            skipSpace()
            guard index < bytes.endIndex else { throw fail("the text is empty; expected a JSON value such as {…}") }
            try value()
            skipSpace()
            guard index == bytes.endIndex else { throw fail("unexpected \(found) after the JSON value") }
        }

        mutating func value() throws(Problem) {
            skipSpace()
            guard index < bytes.endIndex else { throw fail("expected a value, found the end of the text") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try object()
            case UInt8(ascii: "["): try array()
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw fail("expected a value, found \(found)")
            }
        }

        mutating func nest() throws(Problem) {
            depth += 1
            guard depth <= JSONSyntax.maxDepth else { throw fail("nested more than \(JSONSyntax.maxDepth) levels deep") }
        }

        mutating func object() throws(Problem) {
            try nest()
            index += 1
            var keys = Set<[UInt8]>()
            skipSpace()
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return
            }
            while true {
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("expected a key in double quotes, found \(found)")
                }
                let start = index
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw fail("duplicate key \"\(LogText.escaped(String(decoding: key, as: UTF8.self), limit: 40))\"; give each key once", at: start)
                }
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { throw fail("expected : after the key, found \(found)") }
                index += 1
                try value()
                skipSpace()
                guard index < bytes.endIndex else { throw fail("expected , or } after a member, found the end of the text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; break }
                throw fail("expected , or } after a member, found \(found)")
            }
            depth -= 1
        }

        mutating func array() throws(Problem) {
            try nest()
            index += 1
            skipSpace()
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return
            }
            while true {
                try value()
                skipSpace()
                guard index < bytes.endIndex else { throw fail("expected , or ] after an item, found the end of the text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                throw fail("expected , or ] after an item, found \(found)")
            }
            depth -= 1
        }

        /// A string's raw bytes (escapes left as written: enough to compare keys written alike).
        mutating func string() throws(Problem) -> [UInt8] {
            let start = index
            index += 1
            var raw: [UInt8] = []
            while index < bytes.endIndex {
                let b = bytes[index]
                switch b {
                case UInt8(ascii: "\""):
                    index += 1
                    return raw
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.endIndex else { break }
                    let e = bytes[index + 1]
                    if e == UInt8(ascii: "u") {
                        let hex = bytes[min(index + 2, bytes.endIndex)..<min(index + 6, bytes.endIndex)]
                        guard hex.count == 4, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else {
                            throw fail("\\u must be followed by four hex digits")
                        }
                        raw += bytes[index..<index + 6]
                        index += 6
                    } else {
                        guard Array("\"\\/bfnrt".utf8).contains(e) else { throw fail("unknown escape \\\(Character(Unicode.Scalar(e))) in a string") }
                        raw += [b, e]
                        index += 2
                    }
                    continue
                case 0..<0x20:
                    throw fail("a control character (0x\(String(b, radix: 16))) inside a string; write it as an escape like \\n")
                case 0..<0x80:
                    raw.append(b)
                    index += 1
                default:
                    let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
                    let end = index + length
                    guard length > 0, end <= bytes.endIndex,
                          String(validating: bytes[index..<end], as: UTF8.self) != nil else {
                        throw fail("invalid UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true))); save the file as UTF-8")
                    }
                    raw += bytes[index..<end]
                    index = end
                }
                continue
            }
            throw fail("a string that never ends (no closing \")", at: start)
        }

        mutating func number() throws(Problem) {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ c: inout Checker) -> Int {
                let s = c.index
                while c.index < c.bytes.endIndex, (0x30...0x39).contains(c.bytes[c.index]) { c.index += 1 }
                return c.index - s
            }
            guard index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) else { throw fail("expected a digit, found \(found)") }
            if bytes[index] == 0x30 { index += 1 } else { _ = digits(&self) }
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw fail("expected a digit after the decimal point, found \(found)") }
            }
            if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw fail("expected a digit in the exponent, found \(found)") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let number = Double(text), number.isFinite else {
                throw fail("the number \(LogText.escaped(text, limit: 40)) is too large", at: start)
            }
        }

        mutating func literal(_ word: String) throws(Problem) {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else { throw fail("expected a value, found \(found)") }
            index += expected.count
        }
    }
}
