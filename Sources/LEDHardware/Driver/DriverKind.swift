import LEDWire
import RingRender

/// The outputs `--driver` names.
public enum DriverKind: String, Hashable, Sendable, CaseIterable {
    /// WS2812 / WS2812B, pre-V5 and V5 (GRB) over SPI symbols, latched after 280 µs.
    case ws2812SPI = "ws2812-spi"
    /// WS2813 (GRB, backup data line) over SPI symbols: the WS2812 pulses, latched after 300 µs
    /// (WS2813 A–D datasheet, "RES Frame unit, Low-level time 300µs or more"), 20 µs longer
    /// than ws2812-spi's, so a WS2813 never sees a frame cut short.
    case ws2813SPI = "ws2813-spi"
    /// SK6812 RGB over SPI symbols.
    case sk6812SPI = "sk6812-spi"
    /// SK6812 RGBW over SPI symbols.
    case sk6812wSPI = "sk6812w-spi"
    /// APA102 over SPI (clocked).
    case apa102SPI = "apa102-spi"
    /// SK9822 over SPI (clocked).
    case sk9822SPI = "sk9822-spi"
    /// The Pi 5's PIO driver, `/dev/ledsN`.
    case ledsPIO = "leds-pio"
    /// APA102 clocked out on any two GPIO lines (libgpiod).
    case apa102GPIO = "apa102-gpio"
    /// SK9822 clocked out on any two GPIO lines (libgpiod).
    case sk9822GPIO = "sk9822-gpio"
    /// Print frames instead of driving LEDs.
    case simulate

    /// Whether the driver sends SPI symbols for a self-clocked chip.
    public var clocklessChip: ClocklessChip? {
        switch self {
        case .ws2812SPI: .ws2812b
        case .ws2813SPI: .ws2813
        case .sk6812SPI: .sk6812
        case .sk6812wSPI: .sk6812rgbw
        default: nil
        }
    }

    /// The APA102 family variant, for clocked drivers.
    public var apa102Variant: APA102Variant? {
        switch self {
        case .apa102SPI, .apa102GPIO: .apa102
        case .sk9822SPI, .sk9822GPIO: .sk9822
        default: nil
        }
    }

    /// Whether the driver clocks the LEDs on GPIO lines.
    public var usesGPIO: Bool { self == .apa102GPIO || self == .sk9822GPIO }

    /// The kind called `name`, refusing WS2812 and SK6812 on GPIO with the reason and what to
    /// use instead (their sub-microsecond timing cannot be held from userspace).
    public init(named name: String) throws(HardwareError) {
        if let kind = DriverKind(rawValue: name) {
            self = kind
            return
        }
        if name.hasSuffix("-gpio") || name == "neopixel" {
            _ = try GPIODriver(name: name)
        }
        throw HardwareError(kind: .invalidConfiguration, message: "unknown driver \"\(name)\"",
                            fix: "use one of \(DriverKind.allCases.map { $0.rawValue }.joined(separator: ", "))")
    }

    /// The chip's current model, for the power limiter.
    public var powerModel: PowerModel {
        switch self {
        case .sk6812SPI: .sk6812
        case .sk6812wSPI: .sk6812RGBW
        case .apa102SPI, .apa102GPIO: .apa102
        case .sk9822SPI, .sk9822GPIO: .sk9822
        case .ws2812SPI, .ws2813SPI, .ledsPIO, .simulate: .ws2812b
        }
    }

    /// Whether the driver talks to spidev.
    public var usesSPI: Bool { clocklessChip != nil || (apa102Variant != nil && !usesGPIO) }

    /// The SPI clock to request when none is given: 3.6 MHz for WS2812/SK6812 (see
    /// `PiSPIClock.recommendedRequestHz`), 4 MHz for APA102/SK9822 (fast enough for any ring,
    /// slow enough for long wires and ring connectors).
    public var defaultSPIHz: UInt32 {
        clocklessChip != nil ? UInt32(PiSPIClock.recommendedRequestHz) : 4_000_000
    }
}
