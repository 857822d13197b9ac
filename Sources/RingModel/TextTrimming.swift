extension StringProtocol {
    /// The text without leading and trailing white space and line breaks (the set Foundation
    /// calls `whitespacesAndNewlines`: tab to carriage return, space, NEL, no-break space and
    /// the Unicode space separators), written here so text parsing needs no Foundation.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedWhitespace }) else { return "" }
        var last = scalars.index(before: scalars.endIndex)
        while scalars[last].isTrimmedWhitespace { last = scalars.index(before: last) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// White space or a line break (see `trimmingWhitespace`).
    var isTrimmedWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
