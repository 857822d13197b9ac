/// Which lines to request, and on which chip: chips are found by label, never by `gpiochipN`,
/// because the numbering changes between kernels and boards.
public struct GPIOLineSelection: Hashable, Sendable {
    /// Chip labels to try in order (a board file's `gpioChipLabels`); empty means "the chip that
    /// has lines with these names", which needs every line given by name.
    public var chipLabels: [String]
    /// The lines, in the order values are given and returned (bit i of a value mask is line i).
    public var lines: [GPIOLineID]

    /// Selects `lines` on the first chip whose label is in `chipLabels`.
    public init(chipLabels: [String], lines: [GPIOLineID]) {
        self.chipLabels = chipLabels
        self.lines = lines
    }
}
