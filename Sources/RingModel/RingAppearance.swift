/// How a ring's end looks: the seeds' `lineCap`.
public enum CapStyle: String, Hashable, Sendable, CaseIterable {
    /// Soft: a value between two LEDs lights the head LED partly, so slow changes move smoothly.
    case round
    /// Hard: an LED is either lit or not (lit once it is at least half covered).
    case square
}

/// What the unfilled part of a ring shows.
public enum Track: Hashable, Sendable {
    /// Nothing: unfilled LEDs are dark.
    case off
    /// The ring's start colour at this opacity over black, composited in sRGB like the seeds'
    /// `.opacity(0.1)`.
    case opacity(Float)
    /// A colour of its own, like the activity-ring seed's `outlineRed`.
    case color(RGB8)
}

/// The indeterminate spinner: an arc that sweeps round the ring.
public struct Spinner: Hashable, Sendable {
    /// Length of the arc as a fraction of the ring, 0…1 (the seeds use 20 %).
    public var arc: Float
    /// Seconds for one sweep round the ring.
    public var period: Double
    /// Timing of each sweep.
    public var curve: Curve
    /// Whether every other sweep runs backwards (SwiftUI's `repeatForever` default) rather than
    /// starting again from 12 o'clock.
    public var reverses: Bool

    /// Makes a spinner style.
    public init(arc: Float = 0.2, period: Double = 1, curve: Curve = .easeInOut, reverses: Bool = false) {
        self.arc = arc
        self.period = period
        self.curve = curve
        self.reverses = reverses
    }

    /// Where the arc's tail is, in turns (0…1) from 12 o'clock, `t` seconds after the spin began.
    @inlinable
    public func tailPosition(at t: Double) -> Double {
        guard period > 0, t.isFinite, t > 0 else { return 0 }
        let sweeps = t / period
        let whole = sweeps.rounded(.down)
        let eased = curve.value(at: sweeps - whole)
        let backwards = reverses && Int(whole.truncatingRemainder(dividingBy: 2)) == 1
        return backwards ? 1 - eased : eased
    }
}

/// Everything about how one ring looks, apart from its value.
public struct RingAppearance: Sendable {
    /// The fill's colours.
    public var gradient: Gradient
    /// What unfilled LEDs show.
    public var track: Track
    /// Soft or hard head.
    public var cap: CapStyle
    /// The head's colour; nil means the gradient's end colour.
    public var capColor: RGB8?
    /// How far the head is lifted towards white, 0…1.
    public var highlight: Float
    /// How much the head's shadow dims the light beneath it, just ahead of the head, once the
    /// ring closes: 0 (none) … 1 (dark).
    public var shadow: Float
    /// How the gradient is drawn past 100 %.
    public var laps: LapStyle
    /// The indeterminate spinner.
    public var spinner: Spinner
    /// Colour by value: the gradient of the zone the shown value is in (empty: `gradient`).
    public var zones: [ColorZone] = []
    /// The value from which the head shows its own colour (the cap colour lifted by
    /// `highlight`): below it the head is the fill's own colour, as the seed's ring draws no end
    /// cap until progress passes 0.95 (so a ring at 4 % starts in the start colour, not a pastel
    /// of the end colour); it reaches full strength `headRamp` later. 0: from the start.
    public var headFrom: Double = RingAppearance.defaultHeadFrom

    /// The seed's threshold for the end cap: `if progress > 0.95` in the activity-ring seed.
    public static let defaultHeadFrom = 0.95
    /// How far past `headFrom` the head takes to reach its colour, so it fades in, never jumps.
    public static let headRamp = 0.05

    /// The default shadow strength, chosen by looking at the pictures (README, "How a ring is
    /// drawn"): enough to mark where the head is past 100 %, while the shadowed LED keeps two
    /// thirds of its light and so never reads as a dead LED.
    public static let defaultShadow: Float = 0.35
    /// The default lift of the head towards white: past 100 % the LEDs behind the head are close
    /// to the end colour, and a fifth of the way to white is what lets the eye find the head there.
    public static let defaultHighlight: Float = 0.2

    /// Makes an appearance; the defaults are the seeds' look.
    public init(gradient: Gradient, track: Track = .opacity(0.1), cap: CapStyle = .round,
                capColor: RGB8? = nil, highlight: Float = RingAppearance.defaultHighlight,
                shadow: Float = RingAppearance.defaultShadow, laps: LapStyle = .turn,
                spinner: Spinner = Spinner()) {
        self.gradient = gradient
        self.track = track
        self.cap = cap
        self.capColor = capColor
        self.highlight = highlight
        self.shadow = shadow
        self.laps = laps
        self.spinner = spinner
    }

    /// The linear colour of an unfilled LED.
    public var trackColor: LinearRGB {
        switch track {
        case .off:
            return .black
        case .opacity(let alpha):
            // Composite in sRGB over black, as SwiftUI does, then decode to light.
            let a = clamp01(alpha)
            let start = gradient.stops.first?.color ?? .black
            return LinearRGB(r: SRGB.toLinear(Float(start.r) / 255 * a),
                             g: SRGB.toLinear(Float(start.g) / 255 * a),
                             b: SRGB.toLinear(Float(start.b) / 255 * a))
        case .color(let c):
            return SRGB.linear(c)
        }
    }

    /// How much of the head's own colour shows at value `p`, 0…1 (`headFrom`).
    @inlinable
    public func headStrength(at p: Double) -> Float {
        guard headFrom > 0 else { return 1 }
        return Float(Swift.min(Swift.max((p - headFrom) / RingAppearance.headRamp, 0), 1))
    }

    /// The linear colour of the head: the cap colour lifted towards white by `highlight`.
    public var headColor: LinearRGB {
        let base = capColor.map(SRGB.linear) ?? gradient.endColor
        return base.mixed(with: .white, amount: clamp01(highlight))
    }
}
