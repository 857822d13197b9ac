/// What the current limiter did to one frame.
public struct PowerReport: Hashable, Sendable {
    /// The estimated current of the frame as sent (after limiting), in mA, idle included.
    public var milliamps: Double
    /// The uniform scale applied to every drive level: 1 when nothing was limited, 0 when the
    /// budget does not even cover the LEDs' idle current.
    public var scale: Float
    /// The idle current of the LEDs, which no scale reduces, in mA.
    public var idleMilliamps: Double
    /// False only when the idle current alone exceeds a budget: the frame is dark and still over.
    public var withinBudget: Bool

    /// Makes a report.
    public init(milliamps: Double, scale: Float, idleMilliamps: Double, withinBudget: Bool) {
        self.milliamps = milliamps
        self.scale = scale
        self.idleMilliamps = idleMilliamps
        self.withinBudget = withinBudget
    }

    /// True when the limiter dimmed the frame.
    public var limited: Bool { scale < 1 }

    /// Nothing drawn yet: no current, not limited.
    public static let empty = PowerReport(milliamps: 0, scale: 1, idleMilliamps: 0, withinBudget: true)
}
