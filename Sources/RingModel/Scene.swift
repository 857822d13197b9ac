/// What one ring shows in a frame.
public enum RingValue: Hashable, Sendable {
    /// A progress value (1 = one full lap).
    case progress(Double)
    /// The indeterminate spinner, with its tail this many turns from 12 o'clock.
    case spinner(tail: Double)
}

/// What the rings show in one frame, as the controller decides it: their values, their looks and
/// light, the run-time looks those refer to, and the pace. The one value that goes from the
/// controller (LEDRingControl) to the renderer (RingRender), so neither depends on the other.
public struct Scene: Sendable {
    /// Overall light, 0…1.
    public var brightness: Double
    /// What each ring shows, in layout order.
    public var values: [RingValue]
    /// How each ring is painted on top of its own picture, in layout order.
    public var paints: [RingPaint]
    /// The looks made at run time, which `paints` index past the layout's looks (their
    /// gradients are built only when these change).
    public var extraLooks: [ColorLook]
    /// The time shown (a look's effect runs on it).
    public var time: Double
    /// Whether the frame is part of an animation at the full frame rate (it then dithers in
    /// `.auto` mode); a still frame, or one of a slow timer's spaced-out frames, does not.
    public var animating: Bool

    /// A scene.
    public init(brightness: Double = 1, values: [RingValue], paints: [RingPaint] = [], extraLooks: [ColorLook] = [],
                time: Double = 0, animating: Bool = false) {
        self.brightness = brightness
        self.values = values
        self.paints = paints
        self.extraLooks = extraLooks
        self.time = time
        self.animating = animating
    }
}

extension RingState {
    /// What the ring shows at time `t`: its value, or the tail of its `spinner` while it spins.
    public func value(at t: Double, spinner: Spinner) -> RingValue {
        if let since = spinningSince { return .spinner(tail: spinner.tailPosition(at: t - since)) }
        return .progress(shown(at: t))
    }
}

extension RingLayout {
    /// What each ring shows at time `t` from its state.
    public func values(of states: [RingState], at t: Double) -> [RingValue] {
        zip(states, rings).map { state, ring in state.value(at: t, spinner: ring.appearance.spinner) }
    }
}
