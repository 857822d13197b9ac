import RingModel

/// Encodes WS2812 / WS2812B / WS2813 / SK6812 frames as SPI symbols: every data bit becomes a
/// run of SPI bits that starts high and ends low, so MOSI draws the chip's waveform.
///
/// The symbols are derived from the clock the controller really produces, not assumed. With
/// the WS281x default `SymbolTiming.ws2812` windows (T0H 250…380 ns, T1H 650…950 ns, period
/// 1063…1850 ns, every low ≥ 220 ns) and SPI bit time t = 1/f:
///
/// - 4-bit 1000/1100: T0H = t ∈ 250…380 → f ∈ 2.632…4.000 MHz; T1H = 2t ∈ 650…950 →
///   f ∈ 2.105…3.077 MHz; period 4t ∈ 1063…1850 → f ∈ 2.162…3.763 MHz. Together
///   **2.632…3.077 MHz**.
/// - 4-bit 1000/1110: T1H = 3t → f ∈ 3.158…4.615 MHz; T1L = t ≥ 220 → f ≤ 4.545 MHz; the
///   period 4t ≥ 1063 ns caps it at 3.763 MHz. Together **3.158…3.763 MHz**. (3.763…4.000 MHz
///   fits the datasheet windows but not the measured shortest period, so it is refused.)
/// - 3.077…3.158 MHz fits neither (2t is too short and 3t too long for T1H), and 3.763…5.263 MHz
///   fits no symbol.
/// - 8-bit: T0H = 2t → 5.263…8.000 MHz with T1H = 4t, 5t or 6t, and the period 8t ≥ 1063 ns
///   caps all of them at 7.526 MHz; T0H = 3t needs f ≥ 7.895 MHz, above that cap. Together
///   **5.263…7.526 MHz**.
///
/// SK6812 uses its own datasheet windows (`SymbolTiming.sk6812`): 4-bit 2.667…4.545 MHz,
/// 8-bit 4.324…11.111 MHz (period 8t ≤ 1850 ns; T1H = 5t ≥ 450 ns); see `supportedRangesText`.
///
/// Four-bit symbols are chosen wherever they fit (two data bits per byte, half the buffer).
/// Every SPI byte then starts high and ends low, so a stray idle bit some DMA paths insert
/// between bytes only stretches a low phase.
public struct SPISymbolEncoder: WireEncoder {
    /// The chip being driven.
    public let chip: ClocklessChip
    /// The SPI clock the controller really produces, in Hz.
    public let clockHz: Double
    /// The symbol layout derived from the clock.
    public let scheme: SymbolScheme
    /// The channel order on the wire.
    public let colorOrder: ColorOrder
    /// How RGB becomes RGBW when the order has a white channel.
    public let whiteExtraction: WhiteExtraction
    /// The pulse windows the symbols were derived from.
    public let timing: SymbolTiming
    /// The latch time asked for, in µs.
    public let resetMicroseconds: Double
    /// Zero bytes before the first LED.
    public let leadingZeroBytes: Int
    /// Zero bytes after the last LED: at least `resetMicroseconds` at `clockHz`.
    public let latchBytes: Int
    /// SPI bytes per colour byte (8 data bits × symbol bits ÷ 8).
    public let bytesPerColourByte: Int
    /// For each colour byte value, its `bytesPerColourByte` SPI bytes, built once at init so a
    /// frame is table copies only.
    private let table: [UInt8]
    /// The same table as one little-endian word per colour byte, so a frame stores 4 or 8 bytes
    /// at a time instead of copying bytes one by one.
    private let words: [UInt64]
    /// For each channel on the wire, where its level sits in the packed `r | g<<8 | b<<16 | w<<24`.
    private let shifts: [UInt32]

    /// Makes an encoder for `chip` at the SPI clock `clockHz` really runs at.
    ///
    /// - Parameters:
    ///   - symbolWidth: force 4- or 8-bit symbols; nil picks 4-bit where the clock allows it.
    ///   - colorOrder: nil uses the chip's usual order (GRB, or GRBW for SK6812 RGBW).
    ///   - whiteExtraction: how RGBW chips get their white level.
    ///   - resetMicroseconds: latch time; nil uses the chip's (280 µs WS281x, 80 µs SK6812).
    ///   - leadingZeroBytes: nil sends as many as the latch. MOSI may idle high between
    ///     transfers, which the first LED reads as a long 1 bit; only a low at least as long as
    ///     the reset time makes it discard that phantom bit, so a few bytes are not enough.
    ///   - timing: the pulse windows; nil uses the chip's default.
    public init(chip: ClocklessChip, clockHz: Double, symbolWidth: SymbolWidth? = nil,
                colorOrder: ColorOrder? = nil, whiteExtraction: WhiteExtraction = .minimum,
                resetMicroseconds: Double? = nil, leadingZeroBytes: Int? = nil,
                timing: SymbolTiming? = nil) throws(WireError) {
        let timing = timing ?? chip.defaultTiming
        let order = colorOrder ?? chip.defaultColorOrder
        guard clockHz.isFinite, clockHz > 0 else {
            throw WireError(.unsupportedClock,
                            "SPI clock \(clockHz) Hz is not a clock; pass the rate the controller "
                            + "really runs at, in Hz (supported: \(timing.supportedRangesText))")
        }
        guard order.hasWhite == (chip == .sk6812rgbw) else {
            throw WireError(.invalidColorOrder,
                            "colour order \(order) has \(order.bytesPerPixel) channels but \(chip.rawValue) "
                            + "takes \(chip.defaultColorOrder.bytesPerPixel); use e.g. "
                            + "\(chip.defaultColorOrder), or pick the chip that matches the strip")
        }
        let widths = symbolWidth.map { [$0] } ?? SymbolWidth.allCases
        guard let scheme = widths.lazy.compactMap({ timing.bestScheme(clockHz: clockHz, width: $0) }).first else {
            let forced = symbolWidth.map { " with forced \($0.bits)-bit symbols" } ?? ""
            throw WireError(.unsupportedClock,
                            "SPI clock \(MHz.text(clockHz)) MHz cannot make \(chip.rawValue) symbols\(forced); "
                            + "use \(timing.supportedRangesText) (the clock the controller really produces: "
                            + "the Pi rounds requests down: request 3.6 MHz to get ≈3.57 MHz)")
        }
        let reset = resetMicroseconds ?? chip.defaultResetMicroseconds
        guard reset.isFinite, reset >= 0, reset <= 1_000_000 else {
            throw WireError(.invalidParameter,
                            "reset time \(reset) µs is not usable; pass 50…1000 µs "
                            + "(280 for WS2812B-V5/WS2813, 80 for SK6812), or nil for the chip default")
        }
        // Latch bytes = ceil(reset · f / 8): e.g. 280 µs at 3.0 MHz = 840 bits = 105 bytes.
        let latch = Int((reset * clockHz / 1e6 / 8 - 1e-9).rounded(.up))
        let leading = leadingZeroBytes ?? latch
        guard leading >= 0 else {
            throw WireError(.invalidParameter,
                            "leading zero byte count \(leading) is negative; pass 0 or more, or nil for the default")
        }

        self.chip = chip
        self.clockHz = clockHz
        self.scheme = scheme
        self.colorOrder = order
        self.whiteExtraction = whiteExtraction
        self.timing = timing
        self.resetMicroseconds = reset
        self.leadingZeroBytes = leading
        self.latchBytes = Swift.max(latch, 0)
        self.bytesPerColourByte = scheme.width.bits
        let table = Self.makeTable(scheme)
        self.table = table
        let step = scheme.width.bits
        var words = [UInt64](repeating: 0, count: 256)
        for value in 0..<256 {
            var word: UInt64 = 0
            for j in 0..<step { word |= UInt64(table[value * step + j]) << (8 * UInt64(j)) }
            words[value] = word
        }
        self.words = words
        self.shifts = order.channels.map { channel in
            switch channel {
            case .red: 0
            case .green: 8
            case .blue: 16
            case .white: 24
            }
        }
    }

    /// Lays out the SPI bytes of every colour byte value, MSB first, `8 / width` symbols a byte.
    private static func makeTable(_ scheme: SymbolScheme) -> [UInt8] {
        let width = scheme.width.bits
        let zero = UInt16(scheme.pattern(for: false)), one = UInt16(scheme.pattern(for: true))
        var table: [UInt8] = []
        table.reserveCapacity(256 * width)
        for value in 0..<256 {
            var accumulator: UInt16 = 0
            var filled = 0
            for bit in stride(from: 7, through: 0, by: -1) {
                let symbol = (value >> bit) & 1 == 1 ? one : zero
                accumulator = accumulator << UInt16(width) | symbol
                filled += width
                if filled == 8 {
                    table.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator = 0
                    filled = 0
                }
            }
        }
        return table
    }

    /// Leading zeros + LEDs × channels × symbol bytes + latch.
    public func encodedLength(ledCount: Int) -> Int {
        leadingZeroBytes + Swift.max(ledCount, 0) * colorOrder.bytesPerPixel * bytesPerColourByte + latchBytes
    }

    /// False: a pause mid-frame longer than the reset time would latch half a frame.
    public var splittable: Bool { false }

    /// Frame bits ÷ clock: e.g. 60 LEDs at 3.47 MHz 4-bit = (2·122 + 720) bytes · 8 / 3.47 MHz.
    public func wireTimeMicroseconds(ledCount: Int) -> Double {
        Double(encodedLength(ledCount: ledCount)) * 8 / clockHz * 1e6
    }

    /// A decoder for this encoder's clock, colour order and 0/1 threshold.
    public var decoder: SPISymbolDecoder {
        SPISymbolDecoder(clockHz: clockHz, colorOrder: colorOrder, thresholdNs: timing.decisionThresholdNs)
    }

    /// Writes the frame; `out` must be `encodedLength(ledCount: pixels.count)` bytes.
    public func encode(_ pixels: UnsafeBufferPointer<RGB8>, into out: UnsafeMutableRawBufferPointer) throws(WireError) {
        guard out.count == encodedLength(ledCount: pixels.count) else {
            throw wrongLength(out.count, ledCount: pixels.count)
        }
        var offset = 0
        // Leading zeros and the latch are a few hundred bytes a frame: one memset each.
        if leadingZeroBytes > 0, let start = out.baseAddress {
            start.initializeMemory(as: UInt8.self, repeating: 0, count: leadingZeroBytes)
            offset = leadingZeroBytes
        }
        let white = colorOrder.hasWhite
        let extraction = whiteExtraction
        guard let base = out.baseAddress else { return }
        // The hot loop: one table lookup and one 4- or 8-byte store per colour byte.
        words.withUnsafeBufferPointer { lut in
            // The common case — three channels, 4-bit symbols — unrolled: three lookups and three
            // 4-byte stores per LED.
            if !white, bytesPerColourByte == 4, shifts.count == 3 {
                let s0 = shifts[0], s1 = shifts[1], s2 = shifts[2]
                for pixel in pixels {
                    let packed = UInt32(pixel.r) | UInt32(pixel.g) << 8 | UInt32(pixel.b) << 16
                    let w0 = UInt32(truncatingIfNeeded: lut[Int(UInt8(truncatingIfNeeded: packed >> s0))])
                    let w1 = UInt32(truncatingIfNeeded: lut[Int(UInt8(truncatingIfNeeded: packed >> s1))])
                    let w2 = UInt32(truncatingIfNeeded: lut[Int(UInt8(truncatingIfNeeded: packed >> s2))])
                    base.storeBytes(of: w0.littleEndian, toByteOffset: offset, as: UInt32.self)
                    base.storeBytes(of: w1.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                    base.storeBytes(of: w2.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
                    offset += 12
                }
                return
            }
            shifts.withUnsafeBufferPointer { shifts in
                for pixel in pixels {
                    var packed = UInt32(pixel.r) | UInt32(pixel.g) << 8 | UInt32(pixel.b) << 16
                    if white {
                        let c = extraction.split(pixel)
                        packed = UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16 | UInt32(c.w) << 24
                    }
                    for shift in shifts {
                        let word = lut[Int(UInt8(truncatingIfNeeded: packed >> shift))]
                        if bytesPerColourByte == 4 {
                            base.storeBytes(of: UInt32(truncatingIfNeeded: word).littleEndian, toByteOffset: offset,
                                            as: UInt32.self)
                        } else {
                            base.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                        }
                        offset += bytesPerColourByte
                    }
                }
            }
        }
        if offset < out.count, let start = out.baseAddress {
            (start + offset).initializeMemory(as: UInt8.self, repeating: 0, count: out.count - offset)
        }
    }
}
