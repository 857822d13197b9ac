/// Why a request was refused; sent back as `{"ok":false,"error":…}` (the connection stays up).
public struct RequestError: Error, Equatable, Sendable {
    /// What was wrong, with the value and the fix.
    public var message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }
}
