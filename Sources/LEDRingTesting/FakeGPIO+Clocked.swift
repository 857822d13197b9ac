import LEDHardware

extension FakeGPIO {
    /// The bits a clocked chip would read from `data` at each rising edge of `clock`, in order,
    /// replayed from the log: what an APA102 on those two lines received.
    public func clockedBits(chip: String, data: UInt32, clock: UInt32) -> [Bool] {
        let dataKey = LineKey(chip: chip, offset: data)
        let clockKey = LineKey(chip: chip, offset: clock)
        var dataLevel = false
        var clockLevel = false
        var clockSeen = false
        var bits: [Bool] = []
        for event in log {
            guard case .changed(let line, let level) = event else { continue }
            if line == dataKey {
                dataLevel = level
            } else if line == clockKey {
                // The first logged level is the request's starting level, not an edge.
                if clockSeen && !clockLevel && level { bits.append(dataLevel) }
                clockLevel = level
                clockSeen = true
            }
        }
        return bits
    }

    /// `clockedBits` packed into bytes, most significant bit first (a trailing partial byte is dropped).
    public func clockedBytes(chip: String, data: UInt32, clock: UInt32) -> [UInt8] {
        let bits = clockedBits(chip: chip, data: data, clock: clock)
        return stride(from: 0, to: bits.count - bits.count % 8, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}
