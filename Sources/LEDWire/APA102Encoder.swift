import RingModel

/// Encodes APA102 and SK9822 frames: a 32-bit zero start frame; per LED 0b111 + 5-bit global
/// brightness then the three PWM bytes (B, G, R by default); for SK9822 a 32-bit zero reset
/// frame; then end bytes that supply the extra clock edges.
///
/// The end bytes exist because each LED delays the data by half a clock, so the last LED's
/// data needs n/2 more edges after the frame: ceil(n / 16) bytes (8 edges a byte, n/2 edges).
/// The chips are clocked, so a frame may go out in several transfers.
public struct APA102Encoder: WireEncoder {
    /// Which chip: decides the SK9822 reset frame.
    public let variant: APA102Variant
    /// The PWM channel order on the wire (three channels).
    public let colorOrder: ColorOrder
    /// The 5-bit current level every LED gets from `encode` (HDR mode sets its own per LED).
    public let globalBrightness: UInt8
    /// What the end bytes are filled with.
    ///
    /// 0x00 by default: the end bytes only supply clock edges, but an LED past the configured
    /// chain reads them as data, and 0xFF… is a full-current white pixel to it, while zeros
    /// read as another start frame; zeros are also what the SK9822 latches on. 0xFF is what
    /// the APA102 datasheet draws, for parts that insist on it.
    public let endFrameFill: UInt8
    /// The SPI clock in Hz, used only for `wireTimeMicroseconds`.
    public let clockHz: Double

    /// Makes an encoder.
    ///
    /// - Parameters:
    ///   - globalBrightness: 0…31; 31 leaves dimming to the colour pipeline, which has more steps.
    ///   - endFrameFill: 0x00 or 0xFF.
    ///   - clockHz: the clock the frame goes out at (APA102 takes well over 10 MHz; 4 MHz is a
    ///     safe default for long wires and ring connectors).
    public init(variant: APA102Variant = .apa102, colorOrder: ColorOrder = .bgr,
                globalBrightness: UInt8 = 31, endFrameFill: UInt8 = 0x00,
                clockHz: Double = 4_000_000) throws(WireError) {
        guard !colorOrder.hasWhite else {
            throw WireError(.invalidColorOrder,
                            "colour order \(colorOrder) has a white channel but \(variant.rawValue) "
                            + "LEDs have three; use three letters, e.g. BGR")
        }
        guard globalBrightness <= 31 else {
            throw WireError(.invalidParameter,
                            "global brightness \(globalBrightness) does not fit the 5-bit field; use 0…31 "
                            + "(31 and dim in the colour pipeline)")
        }
        guard endFrameFill == 0x00 || endFrameFill == 0xFF else {
            throw WireError(.invalidParameter,
                            "end frame fill 0x\(String(endFrameFill, radix: 16)) is neither 0x00 nor 0xFF; "
                            + "use 0x00 (default) or 0xFF")
        }
        guard clockHz.isFinite, clockHz > 0 else {
            throw WireError(.unsupportedClock,
                            "SPI clock \(clockHz) Hz is not a clock; pass the rate in Hz, e.g. 4000000")
        }
        self.variant = variant
        self.colorOrder = colorOrder
        self.globalBrightness = globalBrightness
        self.endFrameFill = endFrameFill
        self.clockHz = clockHz
    }

    /// Bytes in the 32-bit start frame.
    public static let startFrameBytes = 4

    /// Bytes in the SK9822 reset frame (0 for APA102).
    public var resetFrameBytes: Int { variant == .sk9822 ? 4 : 0 }

    /// End bytes for `ledCount` LEDs: ceil(n / 16), i.e. at least n/2 extra clock edges.
    public func endFrameBytes(ledCount: Int) -> Int {
        (Swift.max(ledCount, 0) + 15) / 16
    }

    /// Start frame + 4 bytes per LED + SK9822 reset frame + end bytes.
    public func encodedLength(ledCount: Int) -> Int {
        Self.startFrameBytes + 4 * Swift.max(ledCount, 0) + resetFrameBytes + endFrameBytes(ledCount: ledCount)
    }

    /// True: the chips are clocked, so a pause mid-frame is harmless.
    public var splittable: Bool { true }

    /// Frame bits ÷ clock, in µs.
    public func wireTimeMicroseconds(ledCount: Int) -> Double {
        Double(encodedLength(ledCount: ledCount)) * 8 / clockHz * 1e6
    }

    /// Writes the frame with every LED at `globalBrightness`.
    public func encode(_ pixels: UnsafeBufferPointer<RGB8>, into out: UnsafeMutableRawBufferPointer) throws(WireError) {
        guard out.count == encodedLength(ledCount: pixels.count) else {
            throw wrongLength(out.count, ledCount: pixels.count)
        }
        var offset = writeStart(into: out)
        let header = 0xE0 | globalBrightness
        for pixel in pixels {
            writeLED(header: header, r: pixel.r, g: pixel.g, b: pixel.b, into: out, at: &offset)
        }
        writeEnd(into: out, from: offset)
    }

    /// Zeros the start frame; returns the offset of the first LED.
    func writeStart(into out: UnsafeMutableRawBufferPointer) -> Int {
        for index in 0..<Self.startFrameBytes { out[index] = 0 }
        return Self.startFrameBytes
    }

    /// Writes one LED's header and PWM bytes in wire order.
    @inline(__always)
    func writeLED(header: UInt8, r: UInt8, g: UInt8, b: UInt8,
                  into out: UnsafeMutableRawBufferPointer, at offset: inout Int) {
        out[offset] = header
        offset += 1
        let colour = RGBW8(r: r, g: g, b: b, w: 0)
        for channel in colorOrder.channels {
            out[offset] = ColorOrder.level(of: channel, in: colour)
            offset += 1
        }
    }

    /// Writes the SK9822 reset frame and the end bytes from `offset` to the end.
    func writeEnd(into out: UnsafeMutableRawBufferPointer, from offset: Int) {
        var index = offset
        for _ in 0..<resetFrameBytes {
            out[index] = 0
            index += 1
        }
        while index < out.count {
            out[index] = endFrameFill
            index += 1
        }
    }
}
