import RingModel

/// Encodes frames for the Raspberry Pi 5 kernel driver `ws2812-pio-rp1`
/// (`dtoverlay=ws2812-pio`), which drives the strip from an RP1 PIO state machine and shows
/// up as `/dev/ledsN`.
///
/// Facts from raspberrypi/linux `drivers/misc/ws2812-pio-rp1.c`:
/// - 4 bytes per LED in R G B W order (`PIXEL_BYTES 4`; the deferred work reads each pixel as a
///   little-endian u32 `r | g << 8 | b << 16 | w << 24`); W is sent only when the overlay sets
///   `rgbw`. The kernel puts G R B (W) on the wire itself (`rgbw_u32`, MSB first).
/// - Every non-zero channel is gamma-corrected in the kernel at any brightness 1…255, including
///   the overlay's default 255 (`ws2812_apply_gamma`); ledring's pipeline has already applied its
///   gamma, so the encoder sends each level through the inverse of the kernel's table at the
///   brightness the kernel uses (`Ws2812PioGamma`). The light then matches the SPI output for the
///   same frame to within one level. At brightness 0 a kernel after 6.12.55 passes values
///   through, and the encoder sends them unchanged.
/// - The bits go out at 800 kHz (`ws2812_program_init(..., 800000, ...)`).
public struct LedsPioEncoder: WireEncoder {
    /// True when the overlay has `rgbw` set and the strip has a white LED.
    public let rgbw: Bool
    /// How RGB becomes RGBW when `rgbw` is set.
    public let whiteExtraction: WhiteExtraction
    /// The order of the four bytes per pixel: RGBW as the driver documents; another order only
    /// to compensate for a strip wired differently from what the kernel assumes.
    public let byteOrder: ColorOrder
    /// The brightness the kernel applies (the overlay's `rpi,brightness`, default 255).
    public let kernelBrightness: UInt8
    /// For each level wanted on the strip, the byte to write (`Ws2812PioGamma.inverse`).
    private let sendTable: [UInt8]

    /// Time the kernel needs after the bits of a frame before the next write: it sleeps
    /// `RESET_US` (50…150 µs) after the DMA completes, and the joined TX FIFO may still hold about
    /// 8 LEDs (8 × 30 µs) then; 300 µs covers both (hardware-sources.md, "Latch").
    public static let frameGapMicroseconds = 300.0

    /// Makes an encoder.
    ///
    /// - Parameter kernelBrightness: the driver's brightness, read from the device tree
    ///   (`rpi,brightness`); 255 (the overlay's default) when unknown.
    public init(rgbw: Bool = false, whiteExtraction: WhiteExtraction = .minimum,
                byteOrder: ColorOrder = .rgbw, kernelBrightness: UInt8 = 255) throws(WireError) {
        guard byteOrder.hasWhite else {
            throw WireError(.invalidColorOrder,
                            "/dev/leds takes 4 bytes per pixel but byte order \(byteOrder) has 3; "
                            + "use RGBW (the driver's layout) or another four-letter order")
        }
        self.rgbw = rgbw
        self.whiteExtraction = whiteExtraction
        self.byteOrder = byteOrder
        self.kernelBrightness = kernelBrightness
        self.sendTable = Ws2812PioGamma.inverse(brightness: kernelBrightness)
    }

    /// 4 bytes per LED, nothing else: the kernel adds the latch.
    public func encodedLength(ledCount: Int) -> Int { 4 * Swift.max(ledCount, 0) }

    /// False: the driver takes whole frames only.
    public var splittable: Bool { false }

    /// The kernel's shift-out time, 1.25 µs per bit (800 kbit/s), 24 bits per LED (32 with
    /// `rgbw`), plus `frameGapMicroseconds` before the next frame may be written.
    public func wireTimeMicroseconds(ledCount: Int) -> Double {
        Double(Swift.max(ledCount, 0) * (rgbw ? 32 : 24)) * 1.25 + Self.frameGapMicroseconds
    }

    /// Writes the frame; `out` must be `4 × pixels.count` bytes.
    public func encode(_ pixels: UnsafeBufferPointer<RGB8>, into out: UnsafeMutableRawBufferPointer) throws(WireError) {
        guard out.count == encodedLength(ledCount: pixels.count) else {
            throw wrongLength(out.count, ledCount: pixels.count)
        }
        var offset = 0
        for pixel in pixels {
            let colour = rgbw ? whiteExtraction.split(pixel) : RGBW8(r: pixel.r, g: pixel.g, b: pixel.b, w: 0)
            for channel in byteOrder.channels {
                out[offset] = sendTable[Int(ColorOrder.level(of: channel, in: colour))]
                offset += 1
            }
        }
    }

    /// The light the kernel makes of a frame (white is whatever the bytes say, even when the
    /// kernel ignores it).
    public func decode(_ bytes: [UInt8]) throws(WireError) -> [RGBW8] {
        guard bytes.count % 4 == 0 else {
            throw WireError(.wrongLength,
                            "/dev/leds frame is \(bytes.count) bytes, not a multiple of 4 bytes per LED")
        }
        var pixels: [RGBW8] = []
        pixels.reserveCapacity(bytes.count / 4)
        var offset = 0
        while offset < bytes.count {
            var colour = RGBW8(r: 0, g: 0, b: 0, w: 0)
            for channel in byteOrder.channels {
                ColorOrder.set(channel, of: &colour,
                               to: Ws2812PioGamma.kernelOutput(bytes[offset], brightness: kernelBrightness))
                offset += 1
            }
            pixels.append(colour)
        }
        return pixels
    }
}
