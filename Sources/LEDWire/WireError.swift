/// Why an encoder or decoder refused its input, with a message that names the value and the fix.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The small set of failure classes generic code can react to (after embedded-hal's `kind`).
    public enum Kind: Hashable, Sendable {
        /// The SPI clock cannot produce symbols inside the chip's timing windows.
        case unsupportedClock
        /// A colour-order string is not a permutation of RGB or RGBW.
        case invalidColorOrder
        /// A numeric parameter (brightness, reset time, byte count) is out of range.
        case invalidParameter
        /// An output buffer or a byte stream has the wrong length for the chain.
        case wrongLength
        /// A byte stream handed to a decoder is not a frame this encoder could have written.
        case malformedFrame
    }

    /// The class of failure.
    public let kind: Kind
    /// What failed, with the offending value and the fix, for people.
    public let message: String

    /// Makes an error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message, so `print(error)` says something useful.
    public var description: String { message }
}
