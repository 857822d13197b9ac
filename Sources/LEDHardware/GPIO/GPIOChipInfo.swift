/// One GPIO character device as found in `/dev`, or why it could not be opened.
public struct GPIOChipInfo: Hashable, Sendable, CustomStringConvertible {
    /// The device node, e.g. `/dev/gpiochip0` (used to open it, never to choose it).
    public var path: String
    /// The label the driver gives the chip, e.g. `pinctrl-rp1`; nil when it could not be opened.
    public var label: String?
    /// How many lines the chip has.
    public var lineCount: Int
    /// Why the chip could not be opened, if it could not.
    public var openError: Errno?

    /// Creates a chip description.
    public init(path: String, label: String?, lineCount: Int, openError: Errno? = nil) {
        self.path = path
        self.label = label
        self.lineCount = lineCount
        self.openError = openError
    }

    /// `/dev/gpiochip0 "pinctrl-bcm2711" (58 lines)` or `/dev/gpiochip1 (cannot open: Permission denied)`.
    public var description: String {
        if let label { return "\(path) \"\(label)\" (\(lineCount) lines)" }
        return "\(path) (cannot open: \(openError.map { "\($0)" } ?? "unknown error"))"
    }
}
