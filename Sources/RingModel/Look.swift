/// A named way for a ring to look, switched at run time (`ledring look build failed`): a gradient
/// replacing the ring's own (and its zones), an effect, or both.
public struct Look: Sendable {
    /// The name people switch to.
    public var name: String
    /// The fill's colours; nil keeps the ring's own gradient and zones.
    public var gradient: Gradient?
    /// The animation on top.
    public var effect: Effect
    /// What it lights: the whole ring (a status, seen whatever the value) or the value's fill.
    public var fill: LookFill

    /// A look.
    public init(name: String, gradient: Gradient? = nil, effect: Effect = .none, fill: LookFill = .ring) {
        self.name = name
        self.gradient = gradient
        self.effect = effect
        self.fill = fill
    }
}

/// A look of one colour and an effect, chosen at run time (a ring's `#ff2020 pulse`, a
/// notification's colour). It is its name, colour and effect alone, so naming, checking and
/// comparing one every frame builds no gradient (a `Gradient` samples 1024 OKLab steps);
/// `look` builds the renderer's look, which it asks for only when the run-time looks change.
public struct ColorLook: Hashable, Sendable {
    /// The look's name, as rings are switched to it.
    public var name: String
    /// The one colour it fills with.
    public var color: RGB8
    /// The animation on top.
    public var effect: Effect

    /// A colour look.
    public init(name: String, color: RGB8, effect: Effect) {
        self.name = name
        self.color = color
        self.effect = effect
    }

    /// The look the renderer draws: a solid gradient of `color` with `effect`.
    public var look: Look { Look(name: name, gradient: Gradient(solid: color), effect: effect) }
}

/// What a look lights. A look is a status by default ("failed", "passed", a notification's
/// colour): it lights every LED of the ring in its colours, so it is seen on a ring at 0 % as on
/// one at 70 %. A look that tints a progress instead says `"fill": "value"`.
public enum LookFill: String, Hashable, Sendable, CaseIterable {
    /// Every LED, in the gradient around the ring; no track, no head. A spinner stays a spinner.
    case ring
    /// The ring's value, drawn as without a look (track, fill, head), in the look's colours.
    case value
}

/// How a ring is painted in one frame on top of its configured appearance: which look (an index
/// into `RingLayout.looks`, nil for none) and since when, so its effect starts at its beginning,
/// and how much of its light is let through (a ring switched off, or fading).
public struct RingPaint: Hashable, Sendable {
    /// The look's index in the layout, or nil for the ring's own picture.
    public var look: Int?
    /// When the look was chosen (the effect's time 0), on the renderer's clock.
    public var since: Double
    /// The scale of the whole ring's light, 0 (dark) … 1, on top of the look's effect.
    public var level: Float
    /// Whether the value is drawn even under a look that lights the whole ring: a notification
    /// that brings its own value shows that value in its colours.
    public var showsValue: Bool

    /// A paint.
    public init(look: Int? = nil, since: Double = 0, level: Float = 1, showsValue: Bool = false) {
        self.look = look
        self.since = since
        self.level = level
        self.showsValue = showsValue
    }

    /// The ring's own picture, no look.
    public static let plain = RingPaint()
}
