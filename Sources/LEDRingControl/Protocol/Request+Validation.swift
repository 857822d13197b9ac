import RingRender

/// The one place the limits are checked: every parser and `validate(rings:)` call these, so a
/// value, a duration or a brightness is refused with the same words whichever front end it came
/// through, and no front end keeps its own copy of a range.
extension Request {
    /// Largest value: 100 laps (10 000 %).
    public static let maxValue = ProgressText.maxValue
    /// Longest transition, seconds.
    public static let maxDuration = ProgressText.maxDuration

    /// Checks the whole request against the rings called `names` before anything changes: every
    /// ring exists, every value is in 0…100 laps, the duration in 0…3600 s, the brightness 0…1.
    public func validate(rings names: [String]) throws(RequestError) {
        switch self {
        case .set(let values, let duration, _):
            for update in values {
                _ = try Request.index(of: update.ring, in: names)
                _ = try Request.checkedValue(update.value, ring: update.ring)
            }
            _ = try Request.checkedDuration(duration)
        case .reset(let duration, _):
            _ = try Request.checkedDuration(duration)
        case .spin(let rings), .stop(let rings):
            for ring in rings { _ = try Request.index(of: ring, in: names) }
        case .brightness(let value):
            _ = try Request.checkedBrightness(value)
        case .get, .status, .power:
            break
        }
    }

    /// Where `ring` is in `names`, or the error naming the rings there are.
    public static func index(of ring: String, in names: [String]) throws(RequestError) -> Int {
        guard let i = names.firstIndex(of: ring) else { throw .unknownRing(ring, known: names) }
        return i
    }

    /// `value` when it is finite and within 0…100 laps; `shown` is how the sender wrote it
    /// (`10000%`), else the number.
    public static func checkedValue(_ value: Double, ring: String, shown: String? = nil) throws(RequestError) -> Double {
        let text = Request.shown(shown ?? Request.shown(value))
        guard value.isFinite else {
            throw RequestError("\(Request.shown(ring)) \(text): must be a finite number; give a fraction like 0.8 or a percentage like 80%")
        }
        guard value >= 0, value <= maxValue else {
            throw RequestError("\(Request.shown(ring)) \(text): must be 0…100 (0 % to 10 000 %); 1 is one lap, e.g. 0.8 or 80%")
        }
        return value
    }

    /// `value` when it is seconds in 0…3600; nil (not a number) is refused too.
    public static func checkedDuration(_ value: Double?, shown: String? = nil) throws(RequestError) -> Double {
        guard let value, value.isFinite, value >= 0, value <= maxDuration else {
            let text = shown ?? value.map { Request.shown($0) } ?? "?"
            throw RequestError("duration \(Request.shown(text)): must be seconds from 0 to 3600, e.g. 1.5")
        }
        return value
    }

    /// `value` when it is a brightness in 0…1.
    public static func checkedBrightness(_ value: Double, shown: String? = nil) throws(RequestError) -> Double {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw RequestError("brightness \(Request.shown(shown ?? Request.shown(value))): must be 0…1 (or 0%…100%)")
        }
        return value
    }

    /// A curve by name.
    public static func curve(_ text: String) throws(RequestError) -> Curve {
        guard let curve = Curve(rawValue: text) else {
            throw RequestError("curve \"\(Request.shown(text))\": unknown; use one of \(Curve.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
        return curve
    }

    /// A progress value from text: a fraction (`0.8`) or a percentage (`80%`), checked.
    public static func value(_ text: String, for ring: String) throws(RequestError) -> Double {
        guard let value = ProgressText.parse(text) else {
            throw RequestError("\(Request.shown(ring)) \"\(Request.shown(text))\": not a number; give a fraction like 0.8 (1.3 is 130 %) or a percentage like 80%")
        }
        return try checkedValue(value, ring: ring, shown: text)
    }

    /// A brightness from text: a fraction (`0.5`) or a percentage (`50%`), checked.
    public static func brightnessValue(_ text: String) throws(RequestError) -> Double {
        guard let value = ProgressText.parse(text) else {
            throw RequestError("brightness \"\(Request.shown(text))\": not a number; give 0…1 or 0%…100%")
        }
        return try checkedBrightness(value, shown: text)
    }
}
