/// A ring's own units (ppm, °C, steps): `min` shows as an empty ring, `max` as one full lap.
public struct ValueRange: Hashable, Sendable {
    /// The value shown as 0.
    public var min: Double
    /// The value shown as one full lap.
    public var max: Double

    /// A range; the caller checks `min < max` (the config reader says so with its path).
    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }

    /// `value` in laps (1 = one lap); below `min` is 0.
    public func laps(_ value: Double) -> Double {
        guard max > min, value.isFinite else { return 0 }
        return Swift.max(0, (value - min) / (max - min))
    }
}
