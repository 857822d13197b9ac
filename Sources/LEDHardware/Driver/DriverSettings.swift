import LEDWire

/// Everything needed to build a hardware driver: which chip, which device, which clock.
public struct DriverSettings: Sendable {
    /// The chip and bus.
    public var kind: DriverKind
    /// The device node; nil uses the board's first SPI node, `/dev/spidev0.0`, or `/dev/leds0`.
    public var device: String?
    /// The SPI clock to request; nil uses the driver's default.
    public var spiHz: UInt32?
    /// The chip's colour order; nil uses the chip's usual one.
    public var colorOrder: ColorOrder?
    /// The board, for the clock its controller really makes and its device names.
    public var board: Board?
    /// Write frames to this file instead of the device.
    public var dumpPath: String?
    /// LEDs on the chain.
    public var ledCount: Int
    /// Root directory for sysfs reads (a fake root in tests).
    public var root: String
    /// How RGBW chips get their white level.
    public var whiteExtraction: WhiteExtraction = .minimum
    /// APA102/SK9822: use the 5-bit current field for more steps at low levels.
    public var highDynamicRange = false
    /// GPIO drivers: the line wired to the LEDs' data input (offset or line name).
    public var gpioData: GPIOLineID?
    /// GPIO drivers: the line wired to the LEDs' clock input.
    public var gpioClock: GPIOLineID?
    /// GPIO drivers: the chip's label; nil uses the board's header chip labels.
    public var gpioChip: String?

    /// Makes settings for `kind` on a chain of `ledCount` LEDs.
    public init(kind: DriverKind, ledCount: Int, device: String? = nil, spiHz: UInt32? = nil,
                colorOrder: ColorOrder? = nil, board: Board? = nil, dumpPath: String? = nil, root: String = "/") {
        self.kind = kind
        self.ledCount = ledCount
        self.device = device
        self.spiHz = spiHz
        self.colorOrder = colorOrder
        self.board = board
        self.dumpPath = dumpPath
        self.root = root
    }

    /// The device node the driver opens.
    public var resolvedDevice: String {
        if let device { return device }
        if kind.usesGPIO {
            return "GPIO \(gpioChip ?? board?.gpioChipLabels.first ?? "chip") lines \(gpioData.map { $0.description } ?? "?")/\(gpioClock.map { $0.description } ?? "?")"
        }
        if kind == .ledsPIO { return board?.pio?.device ?? "/dev/leds0" }
        return board?.spi.first?.device ?? "/dev/spidev0.0"
    }

    /// Opens the transport and builds the encoder for the clock the controller really makes.
    ///
    /// The clock is the board's prediction from its divider rule when the board is known,
    /// else what spidev accepted, else (dumping to a file) the request.
    public func makeDriver(system: any SystemCalls = LinuxSystemCalls(),
                           gpio: (any GPIOLines)? = nil) throws(HardwareError) -> LEDDriver {
        guard kind != .simulate else {
            throw HardwareError(kind: .invalidConfiguration, message: "the simulated output has no wire driver",
                                fix: "use --simulate to print frames")
        }
        let requested = spiHz ?? kind.defaultSPIHz
        var transport: any Transport
        var acceptedHz = Double(requested)
        // The Pi 5 overlay's frame length, brightness and rgbw, read before anything is sent.
        let overlay = kind == .ledsPIO ? LedsPIOOverlay.find(device: resolvedDevice, root: root, system: system) : nil
        if let dumpPath {
            transport = try DumpTransport(path: dumpPath, system: system)
        } else if kind.usesGPIO {
            guard let data = gpioData, let clock = gpioClock else {
                throw HardwareError(kind: .invalidConfiguration,
                                    message: "\(kind.rawValue) needs the GPIO lines wired to the LEDs' data and clock inputs",
                                    fix: "give --gpio-data LINE and --gpio-clock LINE (offsets like 23, or names like GPIO23)")
            }
            let labels = gpioChip.map { [$0] } ?? board?.gpioChipLabels ?? []
            transport = try GPIOClockedTransport(lines: gpio ?? SystemGPIO.lines(), chipLabels: labels,
                                                 data: data, clock: clock)
        } else if kind == .ledsPIO {
            transport = try LedsPIOTransport(device: resolvedDevice, overlay: overlay, system: system)
        } else {
            let spi = try SPIDevTransport(device: resolvedDevice, speedHz: requested, root: root, system: system)
            acceptedHz = Double(spi.acceptedSpeedHz)
            transport = spi
        }
        let clockHz = board?.actualSPIClockHz(requestedHz: UInt32(acceptedHz)).map(Double.init) ?? acceptedHz
        let encoder: ChipEncoder
        do {
            encoder = try makeEncoder(clockHz: clockHz, overlay: overlay)
        } catch {
            try? transport.close()
            throw HardwareError(kind: .invalidConfiguration, message: "\(kind.rawValue): \(error.message)",
                                fix: "choose another --spi-hz")
        }
        let driver = LEDDriver(encoder: encoder, transport: transport, ledCount: ledCount,
                               clockHz: kind.usesSPI ? clockHz : nil,
                               highDynamicRange: highDynamicRange && kind.apa102Variant != nil)
        do {
            if let spi = transport as? SPIDevTransport {
                try spi.checkFits(byteCount: driver.frameLength, framing: encoder.splittable ? .splittable : .whole,
                                  board: board)
            }
            if let pio = transport as? LedsPIOTransport {
                try pio.checkFits(ledCount: ledCount)
            }
        } catch {
            try? transport.close()
            throw error
        }
        return driver
    }

    /// The encoder for this chip at `clockHz`; for `/dev/ledsN`, for the overlay's `rgbw` and the
    /// brightness (hence gamma) the kernel applies, 255 (the overlay default) when unknown.
    func makeEncoder(clockHz: Double, overlay: LedsPIOOverlay? = nil) throws(WireError) -> ChipEncoder {
        if let chip = kind.clocklessChip {
            return .symbols(try SPISymbolEncoder(chip: chip, clockHz: clockHz, colorOrder: colorOrder,
                                                 whiteExtraction: whiteExtraction))
        }
        if let variant = kind.apa102Variant {
            return .apa102(try APA102Encoder(variant: variant, colorOrder: colorOrder ?? .bgr, clockHz: clockHz))
        }
        // The kernel sends W only with `rpi,rgbw`; without it a W byte would be light lost.
        let rgbw = overlay?.rgbw ?? colorOrder?.hasWhite ?? false
        return .ledsPIO(try LedsPioEncoder(rgbw: rgbw, whiteExtraction: whiteExtraction,
                                           kernelBrightness: overlay?.brightness ?? 255))
    }
}
