import Glibc
import LEDHardware

/// The Raspberry Pi 5 `ws2812-pio-rp1` driver behind `/dev/ledsN`, as the kernel behaves
/// (raspberrypi/linux `drivers/misc/ws2812-pio-rp1.c`, `ws2812_pio_rp1_write` and
/// `ws2812_pio_rp1_deferred_work`), for `FakeSystemCalls`.
///
/// - a write lands at the file position and moves it; past the end it gets `ENOSPC` and stores
///   nothing; a write longer than `num_leds × 4` gets `EFBIG` but its first `num_leds × 4` bytes
///   are stored and shown;
/// - a shorter frame is shown with the LEDs after it blank;
/// - a one-byte write at offset 0 sets the brightness instead of a pixel;
/// - every channel is shown as `gamma[(v × brightness) / 255]` unless `v` or the brightness is 0
///   (`ws2812_apply_gamma`, kernels after 6.12.55) — or, with `blanksAtZeroBrightness`, as an
///   older kernel does, every channel is 0 when the brightness is 0.
public struct FakeLedsPIODevice: Sendable {
    /// `rpi,num-leds`.
    public let numLEDs: Int
    /// The brightness the driver applies now (`rpi,brightness` until a one-byte write).
    public private(set) var brightness: UInt8
    /// `rpi,rgbw`: whether the W byte is sent.
    public let rgbw: Bool
    /// Kernels up to 6.12.55 gamma-correct every channel even at brightness 0, which blanks it.
    public let blanksAtZeroBrightness: Bool
    /// The driver's `pixbuf`, after the blanking the deferred work does.
    public private(set) var pixbuf: [UInt8]
    /// How many times the deferred work has sent the frame to the strip.
    public private(set) var showCount = 0

    /// A device for `numLEDs` LEDs.
    public init(numLEDs: Int, brightness: UInt8 = 255, rgbw: Bool = false, blanksAtZeroBrightness: Bool = false) {
        self.numLEDs = numLEDs
        self.brightness = brightness
        self.rgbw = rgbw
        self.blanksAtZeroBrightness = blanksAtZeroBrightness
        self.pixbuf = [UInt8](repeating: 0, count: numLEDs * 4)
    }

    /// The kernel's table, `GammaE = 255 * (res / 255) ^ (1 / .45)`: computed here from the
    /// formula (its floor matches all 256 entries of `ws2812_gamma[]`), independently of the copy
    /// of the table ledring's encoder uses, so a wrong copy there fails the tests.
    static let gamma: [UInt8] = (0...255).map { UInt8(255.0 * pow(Double($0) / 255.0, 1.0 / 0.45)) }

    /// The light each channel gets, R G B W per LED (W is 0 unless `rgbw`).
    public var light: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pixbuf.count)
        for (index, value) in pixbuf.enumerated() {
            if index % 4 == 3 && !rgbw {
                out.append(0)
            } else {
                out.append(Self.apply(brightness, value, blanksAtZero: blanksAtZeroBrightness))
            }
        }
        return out
    }

    /// `ws2812_apply_gamma(brightness, val)`.
    static func apply(_ brightness: UInt8, _ value: UInt8, blanksAtZero: Bool) -> UInt8 {
        if value == 0 { return 0 }
        if brightness == 0 { return blanksAtZero ? 0 : value }
        return gamma[Int(value) * Int(brightness) / 255]
    }

    /// One `write` of `bytes` at `position`: the count or errno, and where the position is after.
    mutating func write(_ bytes: [UInt8], at position: Int) -> (result: Result<Int, Errno>, position: Int) {
        let size = numLEDs * 4
        if position > size { return (.failure(Errno(rawValue: EFBIG)), position) }
        var count = bytes.count
        var error: Errno?
        if count > size {
            error = Errno(rawValue: EFBIG)
            count = size
        }
        var position = position
        if position + count > size {
            if error == nil { error = .noSpace }
            count = size - position
        }
        if position == 0 && count == 1 {
            brightness = bytes[0]
        } else {
            pixbuf.replaceSubrange(position..<(position + count), with: bytes[0..<count])
            position += count
            // The deferred work blanks everything after the last byte written.
            for index in position..<size { pixbuf[index] = 0 }
        }
        showCount += 1
        return (error.map { .failure($0) } ?? .success(count), position)
    }
}
