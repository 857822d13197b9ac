/// The shape a ring's value is drawn in (the seeds' Ring, Pie and Square progress views).
public enum RingShape: String, Hashable, Sendable, CaseIterable {
    /// A circle filled from 12 o'clock, with laps, head, shadow and spinner.
    case ring
    /// Several concentric circles filled to the same angle by one value.
    case pie
    /// A straight strip filled from its first LED.
    case bar
}

/// One named indicator: a value shown on one or more segments of the chain.
public struct RingSpec: Sendable {
    /// The name people set it by (`move`).
    public var name: String
    /// How the value is drawn.
    public var shape: RingShape
    /// The physical circles or strip, in chain order; a `ring` or `bar` has one, a `pie` several.
    public var segments: [Segment]
    /// Colours, caps, shadow and spinner.
    public var appearance: RingAppearance

    /// Makes a ring.
    public init(name: String, shape: RingShape = .ring, segments: [Segment], appearance: RingAppearance) {
        self.name = name
        self.shape = shape
        self.segments = segments
        self.appearance = appearance
    }

    /// LEDs in all the ring's segments.
    public var ledCount: Int { segments.reduce(0) { $0 + $1.ledCount } }
}
