/// Reads an SPI symbol stream back as a chip would: edge by edge at a given clock, judging each
/// bit by its high time alone. It knows nothing of the encoder's symbol tables, so tests that
/// check its output check the waveform, not the encoder's own arithmetic.
public struct SPISymbolDecoder: Hashable, Sendable {
    /// The SPI clock the bytes go out at, in Hz.
    public let clockHz: Double
    /// The channel order of the chip.
    public let colorOrder: ColorOrder
    /// High times at or above this many ns read as 1.
    public let thresholdNs: Double

    /// Makes a decoder for a chip with `colorOrder` whose 0/1 threshold is `thresholdNs`.
    public init(clockHz: Double, colorOrder: ColorOrder, thresholdNs: Double) {
        self.clockHz = clockHz
        self.colorOrder = colorOrder
        self.thresholdNs = thresholdNs
    }

    /// The waveform and colours in `bytes` (MSB first, as SPI mode 0 shifts them out).
    public func decode(_ bytes: [UInt8]) throws(WireError) -> DecodedSymbolFrame {
        let bitNs = 1e9 / clockHz
        // Run lengths of the line level, in SPI bit times.
        var leadingLow = 0
        var highs: [Int] = []
        var lows: [Int] = []
        var level = false
        var run = 0
        var seenHigh = false
        func close() {
            if level {
                highs.append(run)
                seenHigh = true
            } else if seenHigh {
                lows.append(run)
            } else {
                leadingLow = run
            }
        }
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = (byte >> UInt8(shift)) & 1 == 1
                if bit == level {
                    run += 1
                } else {
                    if run > 0 { close() }
                    level = bit
                    run = 1
                }
            }
        }
        if run > 0 { close() }
        if lows.count < highs.count { lows.append(0) }

        var bits: [SymbolBit] = []
        bits.reserveCapacity(highs.count)
        for (high, low) in zip(highs, lows) {
            let highNs = Double(high) * bitNs
            bits.append(SymbolBit(value: highNs >= thresholdNs, highNs: highNs, lowNs: Double(low) * bitNs))
        }

        let bitsPerLED = 8 * colorOrder.bytesPerPixel
        guard bits.count % bitsPerLED == 0 else {
            throw WireError(.malformedFrame,
                            "symbol stream holds \(bits.count) data bits, not a whole number of "
                            + "\(bitsPerLED)-bit LEDs; check the colour order (\(colorOrder)) and the clock")
        }
        var pixels: [RGBW8] = []
        pixels.reserveCapacity(bits.count / bitsPerLED)
        var index = 0
        while index < bits.count {
            var colour = RGBW8(r: 0, g: 0, b: 0, w: 0)
            for channel in colorOrder.channels {
                var byte: UInt8 = 0
                for _ in 0..<8 {
                    byte = byte << 1 | (bits[index].value ? 1 : 0)
                    index += 1
                }
                ColorOrder.set(channel, of: &colour, to: byte)
            }
            pixels.append(colour)
        }
        return DecodedSymbolFrame(leadingLowNs: Double(leadingLow) * bitNs, bits: bits,
                                  trailingLowNs: Double(lows.last ?? 0) * bitNs, pixels: pixels)
    }
}
