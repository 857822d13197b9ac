/// One GPIO line on a chip: by offset, or by the name the kernel gives it (`GPIO17` on a Pi).
public enum GPIOLineID: Hashable, Sendable, CustomStringConvertible {
    /// The line's offset on its chip (on a Pi the BCM GPIO number).
    case offset(UInt32)
    /// The line's name as `gpioinfo` shows it, e.g. `GPIO17`.
    case name(String)

    /// Parses `17` as an offset and anything else (`GPIO17`, `BUTTON`) as a line name.
    public init(parsing text: String) {
        if let number = UInt32(text) {
            self = .offset(number)
        } else {
            self = .name(text)
        }
    }

    /// `17` or `"GPIO17"`, as messages show it.
    public var description: String {
        switch self {
        case .offset(let offset): return "\(offset)"
        case .name(let name): return "\"\(name)\""
        }
    }
}
