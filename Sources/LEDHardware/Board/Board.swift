/// One single-board computer as described by a file in `boards/`: how to recognise it, where
/// its SPI pins are, what clocks its SPI controller can really make, and its known quirks.
public struct Board: Hashable, Sendable {
    /// Stable id, also the file name without `.json`, e.g. `rpi4b`.
    public var id: String
    /// Name shown to people, e.g. "Raspberry Pi 4 Model B".
    public var displayName: String
    /// How to recognise the board from the device tree.
    public var match: Match
    /// Boot configuration files to read and to name in fixes, most likely first.
    public var configFiles: [String]
    /// The config.txt model filters (without brackets) that match this board, as
    /// raspberrypi/documentation `config_txt/conditional.adoc` lists them (`["pi4", "pi400"]`
    /// on a Pi 400); nil for boards whose configuration files have no sections (Armbian).
    public var configFilters: [String]?
    /// Model filters that match some of the boards this file covers and not others (the
    /// rpi3b file's `pi3+`: a 3B+ sees `[pi3+]`, a 3B does not); lines under them are "maybe".
    public var configFiltersMaybe: [String]
    /// Labels of the GPIO chips carrying the header (chips are found by label, never number).
    public var gpioChipLabels: [String]
    /// The spidev nodes usable for LEDs, first one preferred.
    public var spi: [SPIPort]
    /// What clocks the SPI controller can produce.
    public var spiClock: SPIClock
    /// The core-clock setting the SPI clock follows, on boards where it moves (Pi 3/4).
    public var coreClock: CoreClock?
    /// The Pi 5 PIO LED driver, where the board has one.
    public var pio: PIOOutput?
    /// Known problems and their fixes.
    public var quirks: [Quirk]
    /// Where the facts came from.
    public var sources: [String]
    /// Facts in this file that were not checked against a source or hardware.
    public var unverified: [String]

    /// Device-tree strings that identify the board.
    public struct Match: Hashable, Sendable {
        /// Entries of `/proc/device-tree/compatible` that mean this board.
        public var compatible: [String]
        /// Prefixes of `/proc/device-tree/model` that mean this board (longest match wins).
        public var modelPrefixes: [String]
        /// SoC-wide compatible strings (`brcm,bcm2711`), only in generic files (`generic-*.json`):
        /// used when no board file matches, so an unknown board still gets its SPI controller's facts.
        public var soc: [String] = []
    }

    /// One header pin: its header position and the SoC's name for it.
    public struct Pin: Hashable, Sendable {
        /// Header position, e.g. "19" or "P9_18".
        public var header: String
        /// The SoC's name, e.g. "GPIO10".
        public var name: String
    }

    /// One spidev node and the pins it drives.
    public struct SPIPort: Hashable, Sendable {
        /// The device node, e.g. `/dev/spidev0.0`.
        public var device: String
        /// The SPI bus number.
        public var bus: Int
        /// The chip select on that bus.
        public var chipSelect: Int
        /// The data-out pin, wired to the LEDs' DIN.
        public var mosi: Pin
        /// The clock pin, wired to CI on clocked chips (APA102).
        public var sclk: Pin
        /// How to make the node appear.
        public var enable: String
    }

    /// The core clock setting and its defaults, on boards whose SPI clock follows it.
    public struct CoreClock: Hashable, Sendable {
        /// The config.txt key for the maximum, `core_freq`.
        public var key: String
        /// The config.txt key for the minimum, `core_freq_min`.
        public var minKey: String
        /// The firmware's default maximum in MHz.
        public var defaultMHz: Int
        /// The firmware's default minimum in MHz.
        public var defaultMinMHz: Int
        /// The value to fix both to, in MHz.
        public var recommendedMHz: Int
        /// Where `enable_uart=1` fixes the core clock, in MHz, on boards whose primary UART is the
        /// mini UART (Pi 3, Zero 2 W: 250; raspberrypi/documentation `uart.adoc`), unless
        /// Bluetooth is moved off the PL011 by `miniuart-bt` or `disable-bt`.
        public var enableUARTFixesAtMHz: Int?
        /// The core clock's maximum with `hdmi_enable_4kp60=1`, in MHz (Pi 4 family: 550;
        /// raspberrypi/documentation `overclocking.adoc`).
        public var hdmi4kp60MaxMHz: Int?
    }

    /// A PIO-driven LED output such as the Pi 5's `/dev/leds0`.
    public struct PIOOutput: Hashable, Sendable {
        /// The first device node.
        public var device: String
        /// The config.txt line that creates it.
        public var overlay: String
        /// Bytes the driver expects per LED.
        public var bytesPerLED: Int
    }

    /// A known problem and what to do about it.
    public struct Quirk: Hashable, Sendable {
        /// What goes wrong.
        public var summary: String
        /// What to do.
        public var fix: String
    }

    /// How the doctor evaluates this board's config.txt sections; nil when the files are flat.
    public var configModel: BootConfig.Model? {
        configFilters.map { BootConfig.Model(name: displayName, filters: $0, maybe: configFiltersMaybe) }
    }

    /// True for a generic file describing a SoC rather than a board (`generic-bcm2711`).
    public var isGeneric: Bool { !match.soc.isEmpty }

    /// The first boot configuration file, used when naming where a fix goes.
    public var primaryConfigFile: String { configFiles.first ?? "/boot/firmware/config.txt" }

    /// The clock the controller really makes for `requestedHz` (nil when the board file does
    /// not know its source clock); `sourceHz` overrides the file's source, e.g. a fixed core_freq.
    public func actualSPIClockHz(requestedHz: UInt32, sourceHz: UInt32? = nil) -> UInt32? {
        spiClock.actualHz(requestedHz: requestedHz, sourceHz: sourceHz)
    }
}
