/// Why a payload (an MQTT message, an HTTP body) was refused: what was wrong and what to send.
public struct PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The explanation.
    public let message: String

    /// Wraps an explanation.
    public init(_ message: String) { self.message = message }

    /// The explanation.
    public var description: String { message }
}
