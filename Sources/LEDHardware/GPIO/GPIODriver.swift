import LEDWire

/// The LED drivers that run on plain GPIO lines, parsed from a `--driver` name.
///
/// Only clocked chips: WS2812/SK6812 encode bits as pulse widths (0.4 or 0.8 µs high, held to
/// ±150 ns), and a userspace GPIO update takes about a microsecond and can be delayed by
/// milliseconds whenever the scheduler runs something else, so those names are refused with
/// the reason and what to use instead.
public enum GPIODriver: String, Hashable, Sendable, CaseIterable {
    /// APA102 / DotStar on a data and a clock line.
    case apa102 = "apa102-gpio"
    /// SK9822 on a data and a clock line.
    case sk9822 = "sk9822-gpio"

    /// The driver for `name`, refusing self-clocked chips on GPIO with the reason.
    public init(name: String) throws(HardwareError) {
        if let driver = GPIODriver(rawValue: name) {
            self = driver
            return
        }
        let chip = name.hasSuffix("-gpio") ? String(name.dropLast("-gpio".count)) : name
        if ["ws2812", "ws2812b", "ws2811", "ws2813", "sk6812", "neopixel"].contains(chip.lowercased()) {
            throw Self.clocklessRefusal(chip: chip)
        }
        throw HardwareError(
            kind: .invalidConfiguration, message: "unknown GPIO LED driver \"\(name)\"",
            fix: "use \(Self.allCases.map { $0.rawValue }.joined(separator: " or "))")
    }

    /// The encoder variant the driver clocks out.
    public var variant: APA102Variant {
        switch self {
        case .apa102: return .apa102
        case .sk9822: return .sk9822
        }
    }

    /// Why `chip` (WS2812, SK6812, …) cannot be driven from plain GPIO, and what to use instead.
    public static func clocklessRefusal(chip: String) -> HardwareError {
        HardwareError(
            kind: .invalidConfiguration,
            message: "\(chip) LEDs cannot be driven from plain GPIO lines: each bit is a 0.4 µs or 0.8 µs "
                + "pulse that must hold within ±150 ns, but a userspace GPIO update takes about 1 µs and can "
                + "be delayed by milliseconds, which the LEDs read as wrong colours or a latch",
            fix: "wire DIN to SPI MOSI (GPIO10, header pin 19) and use `--driver ws2812-spi` (or sk6812-spi), "
                + "or on a Raspberry Pi 5 add `dtoverlay=ws2812-pio,gpio=<pin>,num_leds=<count>` and use "
                + "`--driver leds-pio` (/dev/leds0); "
                + "or switch to APA102/SK9822 LEDs, which apa102-gpio/sk9822-gpio can clock on any two lines")
    }
}
