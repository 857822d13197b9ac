import RingModel

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
    /// Rings in `ranged` take values in their own units (any finite number); `looks` names the
    /// looks a `look` request may choose.
    public func validate(rings names: [String], ranged: Set<String> = [], looks: [String] = []) throws(RequestError) {
        switch self {
        case .set(let values, let duration, _):
            for update in values {
                _ = try Request.index(of: update.ring, in: names)
                if update.percent || !ranged.contains(update.ring) {
                    _ = try Request.checkedValue(update.value, ring: update.ring,
                                                 shown: update.percent ? Request.shown(update.value * 100) + "%" : nil)
                } else {
                    _ = try Request.checkedFinite(update.value, ring: update.ring)
                }
            }
            _ = try Request.checkedDuration(duration)
        case .reset(let duration, _):
            _ = try Request.checkedDuration(duration)
        case .spin(let rings), .stop(let rings):
            for ring in rings { _ = try Request.index(of: ring, in: names) }
        case .brightness(let value):
            _ = try Request.checkedBrightness(value)
        case .notify(let notice):
            try Request.checkedNotice(notice, rings: names, ranged: ranged, looks: looks)
        case .clearNotices:
            break
        case .endNotice(let key):
            try Request.checkedNoticeKey(key)
        case .timer(let ring, let action):
            _ = try Request.index(of: ring, in: names)
            if case .start(let duration, _, let then, let notice) = action {
                guard duration > 0 else { throw RequestError("timer: \(DurationText.format(duration)) must be longer than 0, e.g. timer focus 25m") }
                _ = try Request.checkedDuration(duration, shown: DurationText.format(duration), limit: RingTimer.maxDuration, name: "timer")
                if let then { _ = try Request.checkedLook(then, in: looks) }
                if let notice { try Request.checkedNotice(notice, rings: names, ranged: ranged, looks: looks) }
            }
        case .look(let rings, let name):
            for ring in rings { _ = try Request.index(of: ring, in: names) }
            _ = try Request.checkedLook(name, in: looks)
        case .light(let rings, _, let duration):
            guard !rings.isEmpty else { throw RequestError("power: name the ring(s) to switch, e.g. power off move") }
            for ring in rings { _ = try Request.index(of: ring, in: names) }
            _ = try Request.checkedDuration(duration)
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

    /// `value` when it is a finite number: a value in a ring's own units (`"range"`).
    public static func checkedFinite(_ value: Double, ring: String, shown: String? = nil) throws(RequestError) -> Double {
        guard value.isFinite else {
            throw RequestError("\(Request.shown(ring)) \(Request.shown(shown ?? Request.shown(value))): must be a finite number: laps (0.8), a percentage (80%) or the ring's own units when it has a range")
        }
        return value
    }

    /// A notification whose rings and look exist, with one of a look and a colour, a value in
    /// 0…100 laps (any finite number in the own units of a ring in `ranged` it covers, unless
    /// written as a percentage), a duration above 0 and at most a day, a priority in -100…100.
    public static func checkedNotice(_ notice: Notice, rings names: [String], ranged: Set<String> = [],
                                     looks: [String]) throws(RequestError) {
        for ring in notice.rings { _ = try index(of: ring, in: names) }
        switch (notice.look, notice.color) {
        case (let look?, nil): _ = try checkedLook(look, in: looks)
        case (nil, _?): break
        default: throw RequestError("notify: give a look or a colour (not both), e.g. notify build look failed for 30s or notify color #ff2020 effect pulse for 1m")
        }
        if let value = notice.value {
            let shown = notice.valuePercent ? Request.shown(value * 100) + "%" : nil
            for name in names where notice.covers(name) {
                if notice.valuePercent || !ranged.contains(name) {
                    _ = try checkedValue(value, ring: "value", shown: shown)
                } else {
                    _ = try checkedFinite(value, ring: "value")
                }
            }
        }
        guard notice.duration > 0 else {
            throw RequestError("notify: for \(DurationText.format(notice.duration)): must be longer than 0, e.g. for 30s")
        }
        _ = try checkedDuration(notice.duration, shown: DurationText.format(notice.duration), limit: Notice.maxDuration, name: "for")
        guard Notice.priorities.contains(notice.priority) else {
            throw RequestError("priority \(notice.priority): must be -100…100 (higher wins), e.g. priority 10")
        }
        if let key = notice.key { try checkedNoticeKey(key) }
    }

    /// A notification's key: 1…256 bytes without control characters.
    public static func checkedNoticeKey(_ key: String) throws(RequestError) {
        guard !key.isEmpty, key.utf8.count <= Notice.maxKeyBytes,
              !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw RequestError("key \"\(Request.shown(key))\": must be 1…\(Notice.maxKeyBytes) bytes without control characters, e.g. key build-alert")
        }
    }

    /// A colour written `#rrggbb`.
    public static func color(_ text: String) throws(RequestError) -> RGB8 {
        guard text.hasPrefix("#"), let color = RGB8(hex: text) else {
            throw RequestError("color \"\(Request.shown(text))\": must be \"#rrggbb\", e.g. #ff2020")
        }
        return color
    }

    /// Names every look request may use besides the config's: the ring's own look, and none.
    public static let builtInLooks = ["default", "none"]

    /// The effects a colour look may have (`#ff2020 pulse`), with their default periods.
    public static let colorLookEffects = ["none", "pulse", "blink"]

    /// The look a colour name stands for: `#rrggbb` (a solid fill of that colour) optionally
    /// followed by one space and an effect of `colorLookEffects` (`#ff2020 pulse`); nil for any
    /// other name. Written this way, a colour chosen at run time is a look name like any other:
    /// saved, restored, reported and switched by the same `look` request.
    public static func colorLook(_ name: String) -> ColorLook? {
        guard name.hasPrefix("#") else { return nil }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count <= 2, let color = RGB8(hex: String(words[0])), words[0].count == 7 else { return nil }
        var effect = Effect.none
        if words.count == 2 {
            switch words[1] {
            case "none": effect = .none
            case "pulse": effect = .pulse(period: Effect.defaultPulsePeriod)
            case "blink": effect = .blink(period: Effect.defaultBlinkPeriod)
            default: return nil
            }
        }
        return ColorLook(name: colorLookName(color, effect: effect), color: color, effect: effect)
    }

    /// How a colour look is written: `#ff2020`, or `#ff2020 pulse` with an effect.
    public static func colorLookName(_ color: RGB8, effect: Effect) -> String {
        effect == .none ? color.hex : "\(color.hex) \(effect.name)"
    }

    /// `name` when it is a look in `looks`, a built-in one or a colour look.
    public static func checkedLook(_ name: String, in looks: [String]) throws(RequestError) -> String {
        if name.hasPrefix("#") {
            guard colorLook(name) != nil else {
                throw RequestError("look \"\(Request.shown(name))\": a colour look is #rrggbb, optionally with \(colorLookEffects.joined(separator: ", ")), e.g. #ff2020 pulse")
            }
            return name
        }
        guard builtInLooks.contains(name) || looks.contains(name) else {
            let known = looks.isEmpty ? "the config defines no looks; add \"looks\": {\"\(Request.shown(name))\": {\"gradient\": \"#ff2020\"}}"
                                      : "the looks are \((looks + builtInLooks).joined(separator: ", "))"
            throw RequestError("no look called \"\(Request.shown(name))\"; \(known)")
        }
        return name
    }

    /// A ring's value from text as sent: a percentage (`80%`, a fraction of a lap, checked
    /// 0…100 laps) or a number (laps, or the ring's own units; checked by `validate`).
    public static func update(_ text: String, ring: String) throws(RequestError) -> RingValueUpdate {
        let value = try number(text, name: ring)
        if ProgressText.isPercent(text) {
            return RingValueUpdate(ring: ring, value: try checkedValue(value, ring: ring, shown: text), percent: true)
        }
        return RingValueUpdate(ring: ring, value: try checkedFinite(value, ring: ring, shown: text))
    }

    /// `text` as `ProgressText` reads it, or the error saying how to write one.
    static func number(_ text: String, name: String) throws(RequestError) -> Double {
        guard let value = ProgressText.parse(text) else { throw notALapValue("\"\(Request.shown(text))\"", name: name) }
        return value
    }

    /// A value in laps that is not a number: `written` is how the sender wrote it (quoted text,
    /// or JSON), `name` the ring.
    static func notALapValue(_ written: String, name: String) -> RequestError {
        RequestError("\(Request.shown(name)) \(written): not a number; give a fraction like 0.8 (1.3 is 130 %) or a percentage like 80%")
    }

    /// A 0…1 value that is not a number: `written` as the sender wrote it, `name` the setting.
    static func notAFraction(_ written: String, name: String) -> RequestError {
        RequestError("\(name) \(written): not a number; give 0…1 or 0%…100%")
    }

    /// `value` when it is seconds in 0…`limit` (3600 for a transition); nil (not a number) is
    /// refused too. `name` says which duration it is in the message (`duration`, `for`).
    public static func checkedDuration(_ value: Double?, shown: String? = nil, limit: Double = maxDuration,
                                       name: String = "duration") throws(RequestError) -> Double {
        guard let value, value.isFinite, value >= 0, value <= limit else {
            let text = shown ?? value.map { Request.shown($0) } ?? "?"
            let most = limit == maxDuration ? "3600" : "\(Request.shown(limit)) (\(DurationText.format(limit)))"
            throw RequestError("\(name) \(Request.shown(text)): must be seconds from 0 to \(most), e.g. 1.5, 90s or 1m30s")
        }
        return value
    }

    /// `value` when it is a brightness in 0…1.
    public static func checkedBrightness(_ value: Double, shown: String? = nil) throws(RequestError) -> Double {
        try checkedFraction(value, name: "brightness", shown: shown)
    }

    /// `value` when it is a finite fraction in 0…1: a brightness, the one-shot's `--shadow`.
    /// `name` is the setting; `shown` how the sender wrote the value, else the number.
    public static func checkedFraction(_ value: Double, name: String, shown: String? = nil) throws(RequestError) -> Double {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw RequestError("\(name) \(Request.shown(shown ?? Request.shown(value))): must be 0…1 (or 0%…100%)")
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
        try checkedValue(try number(text, name: ring), ring: ring, shown: text)
    }

    /// A brightness from text: a fraction (`0.5`) or a percentage (`50%`), checked.
    public static func brightnessValue(_ text: String) throws(RequestError) -> Double {
        try fraction(text, name: "brightness")
    }

    /// A fraction from text (`0.5`, `50%`), checked 0…1; `name` is the setting, for messages.
    public static func fraction(_ text: String, name: String) throws(RequestError) -> Double {
        guard let value = ProgressText.parse(text) else { throw notAFraction("\"\(Request.shown(text))\"", name: name) }
        return try checkedFraction(value, name: name, shown: text)
    }
}
