import Glibc

/// The process's environment variables, read from `environ` (what Foundation's
/// `ProcessInfo.environment` gives, without linking Foundation).
enum ProcessEnvironment {
    /// Every `NAME=value` pair; a later duplicate name wins, as in `getenv`'s usual libc.
    static func current() -> [String: String] {
        var out: [String: String] = [:]
        // NULL after clearenv(3).
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = table else { return out }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                out[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return out
    }
}
