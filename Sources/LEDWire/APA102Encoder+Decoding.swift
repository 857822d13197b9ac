
extension APA102Encoder {
    /// Reads a frame of `ledCount` LEDs back, checking every fixed part: the zero start frame,
    /// the 0b111 marker of each LED, the SK9822 reset frame and the end bytes.
    public func decode(_ bytes: [UInt8], ledCount: Int) throws(WireError) -> [APA102Pixel] {
        guard bytes.count == encodedLength(ledCount: ledCount) else {
            throw WireError(.wrongLength,
                            "APA102 frame is \(bytes.count) bytes but \(ledCount) LEDs make "
                            + "\(encodedLength(ledCount: ledCount)); pass the chain length it was encoded for")
        }
        guard bytes[0..<Self.startFrameBytes].allSatisfy({ $0 == 0 }) else {
            throw WireError(.malformedFrame, "APA102 start frame \(bytes[0..<4].map { $0 }) is not four zero bytes")
        }
        var pixels: [APA102Pixel] = []
        pixels.reserveCapacity(ledCount)
        var offset = Self.startFrameBytes
        for led in 0..<ledCount {
            let header = bytes[offset]
            guard header & 0xE0 == 0xE0 else {
                throw WireError(.malformedFrame,
                                "LED \(led) header 0x\(String(header, radix: 16)) lacks the 0b111 marker bits")
            }
            var colour = RGBW8(r: 0, g: 0, b: 0, w: 0)
            for (index, channel) in colorOrder.channels.enumerated() {
                ColorOrder.set(channel, of: &colour, to: bytes[offset + 1 + index])
            }
            pixels.append(APA102Pixel(brightness: header & 0x1F, colour: colour.rgb))
            offset += 4
        }
        let reset = bytes[offset..<(offset + resetFrameBytes)]
        guard reset.allSatisfy({ $0 == 0 }) else {
            throw WireError(.malformedFrame, "SK9822 reset frame after LED \(ledCount) is not zeros")
        }
        offset += resetFrameBytes
        guard bytes[offset...].allSatisfy({ $0 == endFrameFill }) else {
            throw WireError(.malformedFrame,
                            "end bytes are not all 0x\(String(endFrameFill, radix: 16)) as configured")
        }
        return pixels
    }
}
