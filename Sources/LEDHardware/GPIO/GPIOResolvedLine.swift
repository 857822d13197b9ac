/// A requested line as the kernel knows it, for messages and the doctor.
public struct GPIOResolvedLine: Hashable, Sendable, CustomStringConvertible {
    /// The chip's label, e.g. `pinctrl-bcm2711`.
    public var chipLabel: String
    /// The line's offset on the chip.
    public var offset: UInt32
    /// The line's name, empty when the kernel gives none.
    public var name: String

    /// Creates a resolved line.
    public init(chipLabel: String, offset: UInt32, name: String) {
        self.chipLabel = chipLabel
        self.offset = offset
        self.name = name
    }

    /// `line 17 ("GPIO17") on pinctrl-bcm2711`.
    public var description: String { "\(lineDescription) on \(chipLabel)" }

    /// `line 17 ("GPIO17")`, for messages that name the chip separately.
    public var lineDescription: String {
        name.isEmpty ? "line \(offset)" : "line \(offset) (\"\(name)\")"
    }
}
