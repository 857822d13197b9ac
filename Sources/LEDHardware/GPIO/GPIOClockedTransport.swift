import LEDWire

/// Clocks APA102/SK9822 frames out on any two GPIO lines (for a Pi whose SPI pins are taken).
///
/// SPI mode 0 by hand: for each bit, most significant first, one bulk update sets the data
/// level with the clock low, a second raises the clock (the LEDs sample data on the rising
/// edge); after the frame the clock is left low. Two kernel calls per bit bound the rate
/// (measured by `gpio-sim-probe --benchmark`), and a pause between them only stretches the
/// clock, which clocked chips do not mind, so frames are splittable.
public final class GPIOClockedTransport: Transport {
    /// The data line (to the first LED's DI), as the kernel knows it.
    public let dataLine: GPIOResolvedLine
    /// The clock line (to the first LED's CI).
    public let clockLine: GPIOResolvedLine
    /// Bits clocked out since the transport was opened (for the bit-rate benchmark).
    public private(set) var bitsSent: Int = 0

    private var lines: (any GPIOOutputLines)?
    private static let dataBit: UInt64 = 1 << 0
    private static let clockBit: UInt64 = 1 << 1

    /// Requests `data` and `clock` on the first chip labelled as in `chipLabels`, both low.
    public init(
        lines provider: any GPIOLines, chipLabels: [String], data: GPIOLineID, clock: GPIOLineID,
        consumer: String = "ledring"
    ) throws(HardwareError) {
        let request = try provider.requestOutputs(
            GPIOLineSelection(chipLabels: chipLabels, lines: [data, clock]), initialValues: 0, consumer: consumer)
        guard request.lines.count == 2 else {
            request.release()
            throw HardwareError(
                kind: .io, message: "GPIO request for data \(data) and clock \(clock) returned \(request.lines.count) lines",
                fix: "report this as a ledring bug")
        }
        dataLine = request.lines[0]
        clockLine = request.lines[1]
        lines = request
    }

    deinit { lines?.release() }

    /// Clocks the bytes out; `framing` does not matter because the LEDs wait for the next edge.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard let lines else { throw closedTransportError("GPIO clocked transport on \(dataLine) and \(clockLine)") }
        guard bytes.count > 0 else { return }
        for byte in bytes {
            var bit: UInt8 = 0x80
            while bit != 0 {
                let data = byte & bit != 0 ? Self.dataBit : 0
                try lines.setValues(data)
                try lines.setValues(data | Self.clockBit)
                bit >>= 1
            }
        }
        // Clock idles low between frames (mode 0), and data low keeps the wire quiet.
        try lines.setValues(0)
        bitsSent += bytes.count * 8
    }

    /// Releases both lines; later sends throw `.closed`.
    public func close() throws(HardwareError) {
        lines?.release()
        lines = nil
    }
}
