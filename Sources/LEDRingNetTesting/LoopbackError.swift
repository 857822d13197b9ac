/// Why the loopback client failed.
public struct LoopbackError: Error, CustomStringConvertible {
    public var description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}
