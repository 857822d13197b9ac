import LEDJSON

/// JSON text pieces for the request encoder, written by LEDJSON's writer (until the encoder
/// builds a `JSONValue` itself).
enum JSONText {
    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String { JSONValue.stringText(text) }

    /// A number; JSON has no NaN or infinity, so those become null.
    static func number(_ value: Double) -> String { JSONValue.numberText(value) }

    /// An object from key/value-text pairs, in the order given.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
