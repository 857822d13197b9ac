import RingModel

/// A notification: takes over rings (all when `rings` is empty) for a while with a look or a
/// colour, optionally showing a value, then gives back exactly what was there. It is an overlay:
/// the rings' own states run on underneath, untouched, so a transition or spinner in progress
/// is where it would have been when the notification ends.
public struct Notice: Equatable, Sendable {
    /// The rings it takes over; empty: every ring.
    public var rings: [String]
    /// A look from the config, or nil when `color` is given.
    public var look: String?
    /// A solid colour, or nil when `look` is given.
    public var color: RGB8?
    /// The effect on top of `color` (a look brings its own).
    public var effect: Effect
    /// The value shown meanwhile, as sent (nil: each ring's own value): laps, or on a ring with a
    /// `range` its own units, unless `valuePercent` (then a fraction of a lap on every ring).
    public var value: Double?
    /// Whether `value` was written as a percentage (`80%`).
    public var valuePercent = false
    /// How long it lasts, seconds.
    public var duration: Double
    /// Higher wins; of equal priority the later replaces the earlier.
    public var priority: Int
    /// Who it belongs to (an alert's fingerprint, say), or nil. A keyed notification is replaced
    /// only by a later one with the same key (which keeps its start, so its effect runs on) and
    /// ended early by `Request.endNotice(key:)`; several keyed ones over the same rings coexist.
    public var key: String?

    /// A notification.
    public init(rings: [String] = [], look: String? = nil, color: RGB8? = nil, effect: Effect = .none,
                value: Double? = nil, valuePercent: Bool = false, duration: Double, priority: Int = 0, key: String? = nil) {
        self.rings = rings
        self.look = look
        self.color = color
        self.effect = effect
        self.value = value
        self.valuePercent = valuePercent
        self.duration = duration
        self.priority = priority
        self.key = key
    }

    /// Longest notification: a day.
    public static let maxDuration = 86_400.0
    /// Longest key, bytes.
    public static let maxKeyBytes = 256
    /// Priorities run from -100 to 100.
    public static let priorities = -100...100

    /// Whether it covers the ring called `name`.
    public func covers(_ name: String) -> Bool { rings.isEmpty || rings.contains(name) }

    /// The look a colour notification is drawn with, named so the same colour and effect
    /// share one (the renderer builds a gradient per name).
    public var colorLook: ColorLook? {
        guard let color, let name = colorLookName else { return nil }
        return ColorLook(name: name, color: color, effect: effect)
    }

    /// `colorLook`'s name.
    public var colorLookName: String? {
        color.map { "notice \($0.hex) \(effect.name) \(effect.period)" }
    }
}

/// A notification being shown: when it started and ends (monotonic seconds) and its order.
public struct ActiveNotice: Equatable, Sendable {
    /// What was asked.
    public var notice: Notice
    /// When it started (its effect's time 0).
    public var since: Double
    /// When it ends.
    public var until: Double
    /// Arrival order, for equal priorities.
    public var sequence: Int

    /// An active notification.
    public init(notice: Notice, since: Double, until: Double, sequence: Int) {
        self.notice = notice
        self.since = since
        self.until = until
        self.sequence = sequence
    }
}

/// The notification showing over a ring, as `get`, `/api/state`, MQTT and the page report it:
/// so anyone can see why a ring is red, and for how long.
public struct ShownNotice: Equatable, Sendable {
    /// Its key (an alert's fingerprint), if it has one.
    public var key: String?
    /// The config's look it shows, or nil for a colour.
    public var look: String?
    /// Its colour as `#rrggbb`, or nil for a look.
    public var color: String?
    /// The effect on top of the colour (`none`, `pulse`, `blink`, `flash 3`).
    public var effect: String
    /// Its priority, −100…100.
    public var priority: Int
    /// The value it shows meanwhile, as sent, if any.
    public var value: Double?
    /// Seconds left.
    public var left: Double

    /// A notification entry.
    public init(key: String? = nil, look: String? = nil, color: String? = nil, effect: String = "none",
                priority: Int = 0, value: Double? = nil, left: Double) {
        self.key = key
        self.look = look
        self.color = color
        self.effect = effect
        self.priority = priority
        self.value = value
        self.left = left
    }

    /// `active` as it stands at `t`.
    public init(_ active: ActiveNotice, at t: Double) {
        let notice = active.notice
        self.init(key: notice.key, look: notice.look, color: notice.color?.hex, effect: notice.effect.name,
                  priority: notice.priority, value: notice.value, left: Swift.max(0, active.until - t))
    }
}
