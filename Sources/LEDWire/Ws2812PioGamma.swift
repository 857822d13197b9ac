/// The gamma correction the Raspberry Pi 5 `ws2812-pio-rp1` driver applies to every channel
/// written to `/dev/ledsN`, and its inverse, so ledring can send values that come out as the
/// levels it meant (its own pipeline has already gamma-encoded them).
///
/// Source: raspberrypi/linux `drivers/misc/ws2812-pio-rp1.c`: `ws2812_apply_gamma` returns
/// `val` when `val` or `brightness` is 0, else `ws2812_gamma[(val * brightness) / 255]`; the
/// table is `GammaE = 255 * (res / 255) ^ (1 / .45)` (floored). The `!brightness` pass-through
/// arrived with rpi/linux PR #7110 (merged 2025-10-27, Raspberry Pi OS kernels after 6.12.55);
/// older kernels gamma-correct at brightness 0 too, which blanks the strip.
public enum Ws2812PioGamma {
    /// `ws2812_gamma[]`, copied from the driver.
    public static let table: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
        2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5,
        6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 11, 11,
        11, 12, 12, 13, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18,
        19, 19, 20, 21, 21, 22, 22, 23, 23, 24, 25, 25, 26, 27, 27, 28,
        29, 29, 30, 31, 31, 32, 33, 34, 34, 35, 36, 37, 37, 38, 39, 40,
        40, 41, 42, 43, 44, 45, 46, 46, 47, 48, 49, 50, 51, 52, 53, 54,
        55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70,
        71, 72, 73, 74, 76, 77, 78, 79, 80, 81, 83, 84, 85, 86, 88, 89,
        90, 91, 93, 94, 95, 96, 98, 99, 100, 102, 103, 104, 106, 107, 109, 110,
        111, 113, 114, 116, 117, 119, 120, 121, 123, 124, 126, 128, 129, 131, 132, 134,
        135, 137, 138, 140, 142, 143, 145, 146, 148, 150, 151, 153, 155, 157, 158, 160,
        162, 163, 165, 167, 169, 170, 172, 174, 176, 178, 179, 181, 183, 185, 187, 189,
        191, 193, 194, 196, 198, 200, 202, 204, 206, 208, 210, 212, 214, 216, 218, 220,
        222, 224, 227, 229, 231, 233, 235, 237, 239, 241, 244, 246, 248, 250, 252, 255,
    ]

    /// The level the kernel sends to the strip for `value` at `brightness`
    /// (`ws2812_apply_gamma` on kernels after 6.12.55).
    public static func kernelOutput(_ value: UInt8, brightness: UInt8) -> UInt8 {
        if value == 0 || brightness == 0 { return value }
        return table[Int(value) * Int(brightness) / 255]
    }

    /// For each level ledring wants on the strip, the byte to write so the kernel sends the
    /// closest level it can at `brightness`.
    ///
    /// At brightness 0 that is the level itself (pass-through). Otherwise, among the bytes whose
    /// output is nearest the wanted level, the smallest; a lit level never becomes dark when some
    /// byte lights the LED (as FastLED's `scale8_video`), and levels above what the brightness
    /// allows (`table[brightness]`) come out as that maximum. At the default brightness 255 every
    /// level is within one step of the wanted one (the table never steps by more than 3).
    public static func inverse(brightness: UInt8) -> [UInt8] {
        if brightness == 0 { return (0...255).map { UInt8($0) } }
        let outputs = (0...255).map { Int(kernelOutput(UInt8($0), brightness: brightness)) }
        var result = [UInt8](repeating: 0, count: 256)
        for wanted in 1...255 {
            var best = 0
            var bestError = Int.max
            for candidate in 1...255 {
                let output = outputs[candidate]
                // Dark is worse than any lit level for a lit pixel, when a lit level exists.
                let error = output == 0 ? 1_000 + wanted : Swift.abs(output - wanted)
                if error < bestError {
                    best = candidate
                    bestError = error
                }
            }
            result[wanted] = UInt8(best)
        }
        return result
    }
}
