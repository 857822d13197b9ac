/// One zone of a ring's colour by value: below `upTo` laps (the last zone: above every other)
/// the ring is drawn with `gradient`. A CO₂ gauge: green to 800 ppm, orange to 1200, red above.
public struct ColorZone: Sendable {
    /// The zone ends here, in laps; `.infinity` for the last.
    public var upTo: Double
    /// The fill's colours in this zone.
    public var gradient: Gradient

    /// A zone.
    public init(upTo: Double, gradient: Gradient) {
        self.upTo = upTo
        self.gradient = gradient
    }

    /// Half the width of the band around a boundary where two zones blend, in laps: a value
    /// moving across a boundary changes colour over 2 % of a lap instead of in one frame.
    public static let blendHalfWidth = 0.01

    /// Which zones draw `value` and how: zone `first`, mixed towards zone `second` by `amount`
    /// (0: all `first`). `upTo` lists the zones' ends in order.
    public static func choice(for value: Double, upTo: [Double]) -> (first: Int, second: Int, amount: Float) {
        guard !upTo.isEmpty else { return (0, 0, 0) }
        let h = blendHalfWidth
        var k = upTo.count - 1
        for (i, end) in upTo.enumerated() where value < end {
            k = i
            break
        }
        if k + 1 < upTo.count, value > upTo[k] - h {
            return (k, k + 1, Float((value - (upTo[k] - h)) / (2 * h)))
        }
        if k > 0, value < upTo[k - 1] + h {
            return (k - 1, k, Float((value - (upTo[k - 1] - h)) / (2 * h)))
        }
        return (k, k, 0)
    }
}
