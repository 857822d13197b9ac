/// What `GPIO_GET_CHIPINFO_IOCTL` reports about a GPIO character device
/// (`struct gpiochip_info` in include/uapi/linux/gpio.h).
public struct GPIOChipIdentity: Hashable, Sendable {
    /// The kernel's device name, e.g. `gpiochip0`.
    public var name: String
    /// The driver's label, e.g. `pinctrl-rp1`: how ledring finds a chip.
    public var label: String
    /// How many lines the chip has.
    public var lineCount: Int

    /// Creates a chip identity.
    public init(name: String, label: String, lineCount: Int) {
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }
}
