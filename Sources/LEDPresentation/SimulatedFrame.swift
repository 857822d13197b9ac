
/// One frame as the simulated driver shows it: the drive levels plus what each ring stands for.
public struct SimulatedFrame: Sendable {
    /// What one ring shows in the frame.
    public struct Ring: Sendable {
        /// The ring's name.
        public var name: String
        /// The value shown (1 = 100 %).
        public var progress: Double
        /// Whether the ring shows the indeterminate spinner.
        public var spinning: Bool
        /// Where the ring's LEDs start on the chain, and how many there are.
        public var range: Range<Int>

        /// Makes a ring entry.
        public init(name: String, progress: Double, spinning: Bool, range: Range<Int>) {
            self.name = name
            self.progress = progress
            self.spinning = spinning
            self.range = range
        }
    }

    /// The frame's number, from 0.
    public var index: Int
    /// The time the frame shows, seconds.
    public var time: Double
    /// The rings, in chain order.
    public var rings: [Ring]
    /// Estimated supply current of the frame after limiting, mA.
    public var milliamps: Double
    /// The power limiter's uniform scale (1 when nothing was limited).
    public var scale: Float

    /// Makes a frame description.
    public init(index: Int, time: Double, rings: [Ring], milliamps: Double = 0, scale: Float = 1) {
        self.index = index
        self.time = time
        self.rings = rings
        self.milliamps = milliamps
        self.scale = scale
    }
}
