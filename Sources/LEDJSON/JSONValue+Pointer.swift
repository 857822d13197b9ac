extension JSONValue {
    /// Whether `pointer` is a JSON Pointer (RFC 6901): empty (the whole document) or a `/` and
    /// reference tokens separated by `/`, in which `~` only begins `~0` (`~`) or `~1` (`/`).
    public static func isPointer(_ pointer: String) -> Bool {
        guard !pointer.isEmpty else { return true }
        guard pointer.first == "/" else { return false }
        var chars = Array(pointer)
        chars.append(" ")
        for i in chars.indices.dropLast() where chars[i] == "~" {
            guard chars[i + 1] == "0" || chars[i + 1] == "1" else { return false }
        }
        return true
    }

    /// The value `pointer` (RFC 6901) names in this document, or nil when it names nothing:
    /// `""` is the whole document, `/progress` a member, `/jobs/0/state` an array element by
    /// index (no leading zeros), `~1` stands for `/` in a name and `~0` for `~`.
    public func at(pointer: String) -> JSONValue? {
        guard JSONValue.isPointer(pointer) else { return nil }
        guard !pointer.isEmpty else { return self }
        var current = self
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaped = false
            for c in raw {
                if escaped {
                    token.append(c == "1" ? "/" : "~")
                    escaped = false
                } else if c == "~" {
                    escaped = true
                } else {
                    token.append(c)
                }
            }
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let items):
                guard !token.isEmpty, token.allSatisfy({ $0.isASCII && $0.isNumber }), token == "0" || token.first != "0",
                      let index = Int(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
