/// Trimming without Foundation, so the request parsers stay usable where Foundation is not.
enum Whitespace {
    /// `text` without leading and trailing white space and line breaks (Unicode White_Space,
    /// what Foundation's `.whitespacesAndNewlines` also trims).
    static func trimmed(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }
}
