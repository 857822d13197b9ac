/// Which way progress runs on a ring compared with the order of its LEDs on the chain.
public enum Direction: String, Hashable, Sendable, CaseIterable {
    /// Progress follows the chain: start LED, then start+1, start+2, …
    case clockwise
    /// Progress runs against the chain: start LED, then start−1, start−2, …
    case counterClockwise
}

/// One physical circle (or strip) of LEDs: a run of consecutive LEDs on a chain.
public struct Segment: Hashable, Sendable {
    /// Largest LED count a segment may have.
    public static let maxLEDs = 1024

    /// How many LEDs the segment has, 1…1024.
    public var ledCount: Int
    /// Which of the segment's LEDs (0-based, in chain order) sits at 12 o'clock.
    public var startLED: Int
    /// Which way progress runs on the chain.
    public var direction: Direction

    /// Makes a segment; `startLED` is reduced modulo the LED count.
    public init(ledCount: Int, startLED: Int = 0, direction: Direction = .clockwise) {
        self.ledCount = ledCount
        self.startLED = ledCount > 0 ? ((startLED % ledCount) + ledCount) % ledCount : 0
        self.direction = direction
    }

    /// The chain index (within the segment) of the LED at position `k` counted from 12 o'clock in
    /// the direction of travel.
    @inlinable
    public func physicalIndex(ofPosition k: Int) -> Int {
        switch direction {
        case .clockwise: return (startLED + k) % ledCount
        case .counterClockwise: return (startLED - k + ledCount) % ledCount
        }
    }
}
