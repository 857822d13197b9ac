/// Line levels packed into a `UInt64`, bit i for line i, so a bulk update allocates nothing.
public enum GPIOValueMask {
    /// Packs levels given in line order.
    public static func make(_ levels: [Bool]) -> UInt64 {
        var mask: UInt64 = 0
        for (index, level) in levels.enumerated() where level && index < 64 {
            mask |= 1 << UInt64(index)
        }
        return mask
    }

    /// The level of line `index` in `mask`.
    public static func level(_ mask: UInt64, _ index: Int) -> Bool {
        index >= 0 && index < 64 && mask & (1 << UInt64(index)) != 0
    }

    /// The levels of the first `count` lines.
    public static func levels(_ mask: UInt64, count: Int) -> [Bool] {
        (0..<count).map { level(mask, $0) }
    }
}
