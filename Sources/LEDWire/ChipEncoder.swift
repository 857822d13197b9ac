import RingModel

/// One of the wire encoders ledring drives chips with, as a closed set: what a driver holds.
///
/// An enum rather than `any WireEncoder` because Embedded Swift (the static Pi binaries) has
/// existentials only of class protocols, and the set is closed anyway; asking whether the chip
/// is an APA102 (for its 16-bit encoding) is then a `switch`, not a dynamic cast.
public enum ChipEncoder: WireEncoder {
    /// Clockless chips (WS2812, SK6812, …) as SPI symbols.
    case symbols(SPISymbolEncoder)
    /// APA102 / SK9822.
    case apa102(APA102Encoder)
    /// The Pi 5 `/dev/ledsN` driver's four bytes per LED.
    case ledsPIO(LedsPioEncoder)

    /// The APA102 encoder, when this is one.
    public var apa102Encoder: APA102Encoder? {
        if case .apa102(let encoder) = self { return encoder }
        return nil
    }

    /// Bytes in the encoded frame for `ledCount` LEDs.
    public func encodedLength(ledCount: Int) -> Int {
        switch self {
        case .symbols(let encoder): encoder.encodedLength(ledCount: ledCount)
        case .apa102(let encoder): encoder.encodedLength(ledCount: ledCount)
        case .ledsPIO(let encoder): encoder.encodedLength(ledCount: ledCount)
        }
    }

    /// Writes the frame for `pixels` into `out`.
    public func encode(_ pixels: UnsafeBufferPointer<RGB8>, into out: UnsafeMutableRawBufferPointer) throws(WireError) {
        switch self {
        case .symbols(let encoder): try encoder.encode(pixels, into: out)
        case .apa102(let encoder): try encoder.encode(pixels, into: out)
        case .ledsPIO(let encoder): try encoder.encode(pixels, into: out)
        }
    }

    /// Whether the frame may go out in several transfers.
    public var splittable: Bool {
        switch self {
        case .symbols(let encoder): encoder.splittable
        case .apa102(let encoder): encoder.splittable
        case .ledsPIO(let encoder): encoder.splittable
        }
    }

    /// The frame's time on the wire in µs, latch included.
    public func wireTimeMicroseconds(ledCount: Int) -> Double {
        switch self {
        case .symbols(let encoder): encoder.wireTimeMicroseconds(ledCount: ledCount)
        case .apa102(let encoder): encoder.wireTimeMicroseconds(ledCount: ledCount)
        case .ledsPIO(let encoder): encoder.wireTimeMicroseconds(ledCount: ledCount)
        }
    }
}
