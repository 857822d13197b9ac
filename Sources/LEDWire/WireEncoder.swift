import RingModel

/// Turns a frame of colours into the exact bytes one LED protocol expects. Pure: no I/O, no clock.
public protocol WireEncoder: Sendable {
    /// Bytes in the encoded frame for a chain of `ledCount` LEDs (transports compare this with
    /// spidev's `bufsiz` or the device's size).
    func encodedLength(ledCount: Int) -> Int

    /// Writes the frame for `pixels` into `out`, which must be exactly
    /// `encodedLength(ledCount: pixels.count)` bytes; allocates nothing.
    func encode(_ pixels: UnsafeBufferPointer<RGB8>, into out: UnsafeMutableRawBufferPointer) throws(WireError)

    /// True when the frame may go out in several transfers (clocked chips like APA102); false
    /// when a pause mid-frame would latch half a frame (WS2812, SK6812, `/dev/leds`).
    var splittable: Bool { get }

    /// How long the frame for `ledCount` LEDs takes on the wire, in µs, latch included.
    func wireTimeMicroseconds(ledCount: Int) -> Double
}

extension WireEncoder {
    /// Encodes into `bytes`, resizing it to the frame length; once its capacity has grown to a
    /// frame, later frames reuse it and allocate nothing.
    public func encode(_ pixels: [RGB8], into bytes: inout [UInt8]) throws(WireError) {
        try encodeResizing(pixels, length: encodedLength(ledCount: pixels.count), into: &bytes) { source, target throws(WireError) in
            try encode(source, into: target)
        }
    }

    /// The encoded frame as a new array (allocates; for tests, tools and start-up).
    public func encode(_ pixels: [RGB8]) throws(WireError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(pixels, into: &bytes)
        return bytes
    }

    /// The error an encoder throws when `out` is not the frame length.
    func wrongLength(_ actual: Int, ledCount: Int) -> WireError {
        WireError(.wrongLength,
                  "output buffer is \(actual) bytes but a frame of \(ledCount) LEDs needs "
                  + "\(encodedLength(ledCount: ledCount)); size it with encodedLength(ledCount:)")
    }
}

/// Sizes `bytes` to `length` (keeping its capacity, so a reused array allocates nothing once it has
/// grown to a frame) and runs `body` over the pixels and the bytes, carrying its typed error out
/// of the closures that `withUnsafe…` cannot type.
func encodeResizing<Pixel>(
    _ pixels: [Pixel], length: Int, into bytes: inout [UInt8],
    _ body: (UnsafeBufferPointer<Pixel>, UnsafeMutableRawBufferPointer) throws(WireError) -> Void
) throws(WireError) {
    if bytes.count != length {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: repeatElement(0, count: length))
    }
    var failure: WireError?
    pixels.withUnsafeBufferPointer { source in
        bytes.withUnsafeMutableBytes { target in
            do throws(WireError) {
                try body(source, target)
            } catch {
                failure = error
            }
        }
    }
    if let failure { throw failure }
}
