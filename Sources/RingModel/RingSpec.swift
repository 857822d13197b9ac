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
    /// The ring's own units, when values are sent in them (`"range": [400, 2000]`); nil: laps.
    public var range: ValueRange?
    /// Whether values stop at one full lap (`"laps": false`) instead of lapping round again.
    public var clampsAtOneLap = false
    /// The look the ring shows unless told otherwise (a name in `RingLayout.looks`).
    public var look: String?

    /// Makes a ring.
    public init(name: String, shape: RingShape = .ring, segments: [Segment], appearance: RingAppearance) {
        self.name = name
        self.shape = shape
        self.segments = segments
        self.appearance = appearance
    }

    /// A value as sent (in the ring's units, or laps without a range; `percent` values are
    /// fractions of a lap whatever the range) as the laps drawn, at most 100.
    public func laps(_ value: Double, percent: Bool = false) -> Double {
        var laps = percent || range == nil ? value : range.map { $0.laps(value) } ?? value
        if clampsAtOneLap { laps = Swift.min(laps, 1) }
        return Swift.min(Swift.max(laps, 0), RingState.maxProgress)
    }

    /// LEDs in all the ring's segments.
    public var ledCount: Int { segments.reduce(0) { $0 + $1.ledCount } }
}
