extension StringProtocol {
    /// True when `other` occurs in this text (compared by Unicode scalars). The standard library's
    /// `contains(_:)` for strings comes from _StringProcessing, which Embedded Swift lacks, so the
    /// code shared with the static Pi binaries searches with this instead.
    public func containsText(_ other: some StringProtocol) -> Bool {
        let needle = Array(other.unicodeScalars)
        guard !needle.isEmpty else { return true }
        let haystack = Array(unicodeScalars)
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
