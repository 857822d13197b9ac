import LEDWire
import RingModel
import RingRender

/// A wire encoder and a transport: frames of colours in, bytes on the wire out.
///
/// Owns the encode buffer, so after the first frame `show` allocates nothing.
public final class LEDDriver {
    /// How colours become bytes.
    public let encoder: ChipEncoder
    /// Where the bytes go.
    public let transport: any Transport
    /// LEDs on the chain.
    public let ledCount: Int
    /// The SPI clock the encoder's symbols were built for, when the driver uses SPI.
    public let clockHz: Double?
    /// Frames sent so far.
    public private(set) var framesSent = 0
    /// Whether frames go out through APA102's high-dynamic-range encoding (16-bit input).
    public let highDynamicRange: Bool

    private var bytes: [UInt8]

    /// Combines `encoder` and `transport` for a chain of `ledCount` LEDs.
    public init(encoder: ChipEncoder, transport: any Transport, ledCount: Int, clockHz: Double? = nil,
                highDynamicRange: Bool = false) {
        self.encoder = encoder
        self.highDynamicRange = highDynamicRange && self.encoder.apa102Encoder != nil
        self.transport = transport
        self.ledCount = ledCount
        self.clockHz = clockHz
        self.bytes = [UInt8](repeating: 0, count: encoder.encodedLength(ledCount: ledCount))
    }

    /// Bytes in one frame on the wire.
    public var frameLength: Int { bytes.count }

    /// Encodes `frame` (one colour per LED, chain order) and sends it in one go, or in pieces
    /// where the chip allows. With high dynamic range on, `frame16` (the same frame at 16 bits)
    /// is encoded instead.
    public func show(_ frame: [RGB8], frame16: [RGB16]? = nil) throws(HardwareError) {
        guard frame.count == ledCount else {
            throw HardwareError(kind: .invalidConfiguration,
                                message: "frame has \(frame.count) LEDs but the driver was built for \(ledCount)",
                                fix: "build the driver for the layout's LED count")
        }
        do {
            if highDynamicRange, let frame16, frame16.count == ledCount, let apa102 = encoder.apa102Encoder {
                try apa102.encodeHDR(frame16, into: &bytes)
            } else {
                try encoder.encode(frame, into: &bytes)
            }
        } catch {
            throw HardwareError(kind: .invalidConfiguration, message: error.message)
        }
        try transport.send(bytes, framing: encoder.splittable ? .splittable : .whole)
        framesSent += 1
    }

    /// Releases the transport.
    public func close() throws(HardwareError) {
        try transport.close()
    }
}
