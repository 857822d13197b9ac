/// Why a request was refused; sent back as `{"ok":false,"error":…}` (the connection stays up).
struct RequestError: Error, Equatable, Sendable {
    /// What was wrong, with the value and the fix.
    var message: String

    /// Makes an error.
    init(_ message: String) {
        self.message = message
    }
}
