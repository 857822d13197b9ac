import RingModel
import RingRender

/// High-dynamic-range mode: the 5-bit current field used as extra range instead of a fixed
/// brightness.
///
/// The light of a channel is taken as (L / 31) · (P / 255) of full, for current level L (1…31)
/// and PWM level P (0…255); the input asks for c / 65535. Per LED, with m the brightest
/// channel:
///
///     L = max(1, ceil(31 · m / 65535))          the smallest level that can still reach m
///     P = round(c · 31 · 255 / (65535 · L))     ≤ 255 because c ≤ m ≤ 65535 · L / 31
///
/// One PWM step at level L is L · 65535 / (31 · 255) in 16-bit units, so a dim LED (L = 1)
/// gets steps of about 8.3 instead of 257: near black the output resolves 31× finer than
/// 8-bit, roughly 13 bits. The rounding error stays within half a step at the chosen L.
///
/// Caveats: the current levels are taken as linear, which datasheets only roughly promise;
/// on APA102 the 5-bit field is a slower second PWM (about 580 Hz, per cpldcpu) that may
/// flicker on camera at low levels, while SK9822 really switches the LED current.
extension APA102Encoder {
    /// The current level and PWM levels HDR mode sends for `colour`.
    public static func hdrLevels(_ colour: RGB16) -> (brightness: UInt8, pwm: RGB8) {
        let brightest = UInt64(Swift.max(colour.r, Swift.max(colour.g, colour.b)))
        let level = Swift.max(1, (31 * brightest + 65534) / 65535)
        let denominator = 65535 * level
        func pwm(_ channel: UInt16) -> UInt8 {
            let scaled = (UInt64(channel) * 31 * 255 + denominator / 2) / denominator
            return UInt8(Swift.min(scaled, 255))
        }
        return (UInt8(level), RGB8(r: pwm(colour.r), g: pwm(colour.g), b: pwm(colour.b)))
    }

    /// Writes an HDR frame from 16-bit drive levels; `out` must be
    /// `encodedLength(ledCount: pixels.count)` bytes. `globalBrightness` is not used.
    public func encodeHDR(_ pixels: UnsafeBufferPointer<RGB16>,
                          into out: UnsafeMutableRawBufferPointer) throws(WireError) {
        guard out.count == encodedLength(ledCount: pixels.count) else {
            throw wrongLength(out.count, ledCount: pixels.count)
        }
        var offset = writeStart(into: out)
        for pixel in pixels {
            let (level, pwm) = Self.hdrLevels(pixel)
            writeLED(header: 0xE0 | level, r: pwm.r, g: pwm.g, b: pwm.b, into: out, at: &offset)
        }
        writeEnd(into: out, from: offset)
    }

    /// Encodes an HDR frame into `bytes`, reusing its capacity once it has grown to a frame.
    public func encodeHDR(_ pixels: [RGB16], into bytes: inout [UInt8]) throws(WireError) {
        try encodeResizing(pixels, length: encodedLength(ledCount: pixels.count), into: &bytes) { source, target throws(WireError) in
            try encodeHDR(source, into: target)
        }
    }
}
