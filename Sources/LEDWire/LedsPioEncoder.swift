import RingRender

/// Encodes frames for the Raspberry Pi 5 kernel driver `ws2812-pio-rp1`
/// (`dtoverlay=ws2812-pio`), which drives the strip from an RP1 PIO state machine and shows
/// up as `/dev/ledsN`.
///
/// Layout, from the driver's commit message (raspberrypi/linux 71c5b5e96356, "misc: Add
/// ws2812-pio-rp1 driver", Phil Elwell, 2024-12-03): a whole frame is written at once, 4 bytes
/// per pixel in RGBW order, `RR GG BB WW RR GG BB WW …`; the W bytes are ignored unless the
/// overlay sets `rgbw`. The kernel makes the waveform and, presumably, the strip's GRB order
/// (the driver documents RGBW input only). There is no per-LED brightness byte: brightness is one global multiplier (0–255,
/// overlay default `brightness=255`, ws2812-pio overlay commit 637ee3b7a3c2) changed by a
/// separate write. That it is a one-byte write comes from third-party code and measurement,
/// not text we could read in full: treat `brightnessWrite` as likely, not certain.
public struct LedsPioEncoder: WireEncoder {
    /// True when the overlay has `rgbw` set and the strip has a white LED.
    public let rgbw: Bool
    /// How RGB becomes RGBW when `rgbw` is set.
    public let whiteExtraction: WhiteExtraction
    /// The order of the four bytes per pixel: RGBW as the driver documents; another order only
    /// to compensate for a strip wired differently from what the kernel assumes.
    public let byteOrder: ColorOrder
    /// The kernel's global brightness multiplier; 0xFF passes colours through untouched, since
    /// ledring applies its own gamma and brightness.
    public let brightness: UInt8

    /// Makes an encoder.
    public init(rgbw: Bool = false, whiteExtraction: WhiteExtraction = .minimum,
                byteOrder: ColorOrder = .rgbw, brightness: UInt8 = 0xFF) throws(WireError) {
        guard byteOrder.hasWhite else {
            throw WireError(.invalidColorOrder,
                            "/dev/leds takes 4 bytes per pixel but byte order \(byteOrder) has 3; "
                            + "use RGBW (the driver's layout) or another four-letter order")
        }
        self.rgbw = rgbw
        self.whiteExtraction = whiteExtraction
        self.byteOrder = byteOrder
        self.brightness = brightness
    }

    /// The bytes that set the kernel's brightness: one byte, written once at start-up on its own
    /// `open()` (the layout third-party drivers use; see the type's note on certainty).
    public var brightnessWrite: [UInt8] { [brightness] }

    /// 4 bytes per LED, nothing else: the kernel adds the latch.
    public func encodedLength(ledCount: Int) -> Int { 4 * Swift.max(ledCount, 0) }

    /// False: the driver takes whole frames only.
    public var splittable: Bool { false }

    /// The kernel's shift-out time: 1.25 µs per bit (800 kbit/s), 24 bits per LED (32 with
    /// `rgbw`); the kernel's own latch is not included because its length is not documented.
    public func wireTimeMicroseconds(ledCount: Int) -> Double {
        Double(Swift.max(ledCount, 0) * (rgbw ? 32 : 24)) * 1.25
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
                out[offset] = ColorOrder.level(of: channel, in: colour)
                offset += 1
            }
        }
    }

    /// The colours in a frame (white is whatever the bytes say, even when the kernel ignores it).
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
                ColorOrder.set(channel, of: &colour, to: bytes[offset])
                offset += 1
            }
            pixels.append(colour)
        }
        return pixels
    }
}
