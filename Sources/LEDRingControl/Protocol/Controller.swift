import RingModel

/// Applies requests to the rings' states at a time the caller passes in: the pure heart of the
/// daemon, so every verb is tested without sockets or clocks.
///
/// A request is checked whole (`Request.validate(rings:)`, the one check every front end shares)
/// before anything changes, so a bad request changes nothing.
public struct Controller: Sendable {
    /// The rings' names, in chain order.
    public let names: [String]
    /// What changes at run time about each ring, in chain order, one value per ring: so a ring
    /// is copied, carried over a reload and saved whole, never field by field.
    public private(set) var slots: [RingSlot]
    /// Each ring's state, in chain order.
    public var states: [RingState] { slots.map { $0.state } }
    /// Overall light, 0…1.
    public private(set) var brightness: Double
    /// Whether `brightness` was set by a request (or restored from one), not taken from the
    /// config: only such a value is saved, so editing the config's brightness is not overruled
    /// by a stale state file.
    public private(set) var brightnessSetAtRunTime = false
    /// Whether the LEDs are lit; off shows black whatever the values (which are kept).
    public private(set) var power = true
    /// The rings' specs when built from a layout (their ranges, lap clamps and default looks);
    /// empty when built from names alone (values are then laps).
    public private(set) var rings: [RingSpec] = []
    /// The looks a ring may switch to.
    public private(set) var looks: [Look] = []
    /// Notifications not yet expired (or not yet removed by `expire(at:)`), oldest first.
    public private(set) var notices: [ActiveNotice] = []
    /// How many notifications the caps (`maxNotices`, `maxNoticesPerRing`) have dropped so far,
    /// for the daemon to log.
    public private(set) var droppedNotices = 0

    /// At most this many notifications at once, keyed or not; past it the lowest priority goes,
    /// and of equal priority the oldest. A flood of new keys (an Alertmanager delivery of
    /// thousands of alerts, a client making keys up) then cannot grow the state file past what
    /// the reader takes, nor each frame's work.
    public static let maxNotices = 64
    /// At most this many over any one ring, dropped the same way.
    public static let maxNoticesPerRing = 16
    /// Each ring's timer, if it has one.
    public var timers: [RingTimer?] { slots.map { $0.timer } }
    /// Whether each ring is on (`Request.light`); off shows it dark, its value and look kept.
    public var ringsOn: [Bool] { slots.map { $0.on } }
    private var noticeCount = 0

    /// What applying a request did.
    public struct Outcome: Equatable, Sendable {
        /// The answer to send.
        public var reply: Reply
        /// Whether the picture or the saved values changed (draw a frame, save the state).
        public var changed: Bool

        /// An outcome.
        public init(reply: Reply, changed: Bool) {
            self.reply = reply
            self.changed = changed
        }
    }

    /// Rings called `names`, all at 0.
    public init(names: [String], brightness: Double) {
        self.names = names
        self.slots = Array(repeating: RingSlot(), count: names.count)
        self.brightness = brightness
    }

    /// The rings of `layout`, all at 0, with their ranges and looks.
    public init(layout: RingLayout, brightness: Double) {
        self.init(names: layout.rings.map { $0.name }, brightness: brightness)
        rings = layout.rings
        looks = layout.looks
    }

    /// Checks `request` against these rings, their ranges and looks; nothing changes.
    public func validate(_ request: Request) throws(RequestError) {
        try request.validate(rings: names, ranged: Set(rings.filter { $0.range != nil }.map { $0.name }), looks: looks.map { $0.name })
    }

    /// The name of the look ring `index` shows (resolving `default` to the config's), or nil:
    /// a config look's name, or a colour look's (`#ff2020 pulse`).
    public func look(of index: Int) -> String? {
        guard index < slots.count else { return nil }
        let name = slots[index].lookChoice ?? (index < rings.count ? rings[index].look : nil)
        guard let name, name != "none", name != "default" else { return nil }
        // A colour look is stored only checked and in its one spelling (`.look`, `restore`), and
        // the config's own looks are names, so it needs no parsing here, every frame.
        if name.hasPrefix("#") { return name }
        return looks.contains { $0.name == name } ? name : nil
    }

    /// How much of ring `index`'s light shows at `t`: 1 while on, 0 while off, and in between
    /// while it fades (linearly, over the duration its `light` request gave).
    public func level(of index: Int, at t: Double) -> Float {
        guard index < slots.count else { return 1 }
        let on = slots[index].on
        let (since, fade) = slots[index].switched
        guard fade > 0, t < since + fade else { return on ? 1 : 0 }
        let done = Float(Swift.max(0, t - since) / fade)
        return on ? done : 1 - done
    }

    /// The index `RingPaint.look` takes for ring `index`'s own look (not a notification's):
    /// a config look's, or one past them for a colour look (`extraLooks`).
    private func paintIndex(of index: Int, extras: [String]) -> Int? {
        guard let name = look(of: index) else { return nil }
        if name.hasPrefix("#") { return extras.firstIndex { $0 == name }.map { looks.count + $0 } }
        return looks.firstIndex { $0.name == name }
    }

    /// The notification ring `index` shows at `t`: the highest priority, of those the latest.
    public func notice(for index: Int, at t: Double) -> ActiveNotice? {
        guard index < names.count else { return nil }
        var best: ActiveNotice?
        for active in notices where active.until > t && active.notice.covers(names[index]) {
            if let b = best, (b.notice.priority, b.sequence) > (active.notice.priority, active.sequence) { continue }
            best = active
        }
        return best
    }

    /// The looks made at run time: the rings' colour looks, then the colours of notifications,
    /// each once. A paint's look index past the config's looks points here.
    public var extraLooks: [ColorLook] {
        var out: [ColorLook] = []
        for i in names.indices {
            guard let name = look(of: i), !out.contains(where: { $0.name == name }), let look = Request.colorLook(name) else { continue }
            out.append(look)
        }
        for active in notices {
            guard let look = active.notice.colorLook, !out.contains(where: { $0.name == look.name }) else { continue }
            out.append(look)
        }
        return out
    }

    /// Each ring's look at `t` with notifications over it: what the renderer draws.
    /// A ring that is off stays dark under its own look, but a notification over it shows.
    public func paints(at t: Double) -> [RingPaint] { paints(at: t, extras: extraLooks.map { $0.name }) }

    /// `paints(at:)` with the names of `extraLooks` already at hand (the scene has them).
    func paints(at t: Double, extras: [String]) -> [RingPaint] {
        names.indices.map { i in
            guard let active = notice(for: i, at: t) else {
                return RingPaint(look: paintIndex(of: i, extras: extras), since: slots[i].lookSince, level: level(of: i, at: t))
            }
            // Without a value a notification is a status over the whole ring; with one, it shows it.
            let showsValue = active.notice.value != nil
            if let look = active.notice.look {
                let chosen = look == "default" ? (i < rings.count ? rings[i].look : nil) : look
                return RingPaint(look: chosen.flatMap { name in looks.firstIndex { $0.name == name } }, since: active.since,
                                 showsValue: showsValue)
            }
            let name = active.notice.colorLookName
            return RingPaint(look: extras.firstIndex { $0 == name }.map { looks.count + $0 }, since: active.since,
                             showsValue: showsValue)
        }
    }

    /// What each ring shows at `t` given what its state shows (`base`, `RingState.value(at:spinner:)`):
    /// a running timer's value replaces it, and a notification's value replaces both while the
    /// notification lasts.
    public func values(_ base: [RingValue], at t: Double) -> [RingValue] {
        base.enumerated().map { i, value in
            let own = i < slots.count ? slots[i].timer.map { RingValue.progress($0.value(at: t)) } ?? value : value
            return notice(for: i, at: t).flatMap { noticeValue($0.notice, on: i) }.map { RingValue.progress($0) } ?? own
        }
    }

    /// The laps `notice`'s value means on ring `index` (its units when the ring has a range).
    private func noticeValue(_ notice: Notice, on index: Int) -> Double? {
        guard let value = notice.value else { return nil }
        return index < rings.count ? rings[index].laps(value, percent: notice.valuePercent) : value
    }

    /// The value ring `index` shows at `t`: a notification's, else its timer's, else its own.
    public func shownValue(of index: Int, at t: Double) -> Double {
        if let active = notice(for: index, at: t), let value = noticeValue(active.notice, on: index) { return value }
        if let timer = slots[index].timer { return timer.value(at: t) }
        return slots[index].state.shown(at: t)
    }

    /// Removes notifications that ended by `t`; whether any did (draw a frame, save the state).
    /// A timer that ran out leaves the ring at its end value (empty, or full with `up`) and
    /// switches it to its `then` look.
    public mutating func expire(at t: Double) -> Bool {
        let before = notices.count
        notices.removeAll { $0.until <= t }
        var changed = notices.count != before
        for i in slots.indices {
            guard let timer = slots[i].timer, let end = timer.end, end <= t else { continue }
            slots[i].state.set(timer.up ? 1 : 0, at: end)
            if let then = timer.then {
                slots[i].lookChoice = then == "default" ? nil : then
                slots[i].lookSince = end
            }
            slots[i].timer = nil
            // From the end on, for its whole length (unless the daemon woke past even that).
            if let notice = timer.notice, end + notice.duration > t { post(notice, at: end) }
            changed = true
        }
        return changed
    }

    /// Shows `notice` from `t`: a later one of equal priority over the same rings replaces the
    /// earlier. A keyed one replaces only the one with its key, keeping its start and order (a
    /// re-sent alert runs on where it was, lasting `duration` from now), and is replaced by no other.
    private mutating func post(_ notice: Notice, at t: Double) {
        if let key = notice.key, let i = notices.firstIndex(where: { $0.notice.key == key }) {
            notices[i].notice = notice
            notices[i].until = t + notice.duration
            return
        }
        if notice.key == nil {
            notices.removeAll { $0.notice.key == nil && $0.notice.priority == notice.priority && Set($0.notice.rings) == Set(notice.rings) }
        }
        noticeCount += 1
        notices.append(ActiveNotice(notice: notice, since: t, until: t + notice.duration, sequence: noticeCount))
        trimNotices(rings: notice.rings.isEmpty ? names : notice.rings)
    }

    /// Drops notifications past the caps: over the whole device, then over each of `rings` (the
    /// ones a new notification covers), the lowest priority first and of those the oldest (which
    /// may be the new one itself, if it has the lowest priority).
    private mutating func trimNotices(rings: [String]) {
        func dropLowest(among candidates: [Int]) {
            guard let victim = candidates.min(by: { (notices[$0].notice.priority, notices[$0].sequence)
                                                     < (notices[$1].notice.priority, notices[$1].sequence) }) else { return }
            notices.remove(at: victim)
            droppedNotices += 1
        }
        while notices.count > Controller.maxNotices { dropLowest(among: Array(notices.indices)) }
        for ring in rings {
            while true {
                let covering = notices.indices.filter { notices[$0].notice.covers(ring) }
                guard covering.count > Controller.maxNoticesPerRing else { break }
                dropLowest(among: covering)
            }
        }
    }

    /// When the next notification or timer ends: a deadline for the daemon's schedule (no polling).
    public var nextNoticeEnd: Double? { (notices.map { $0.until } + timers.compactMap { $0?.end }).min() }

    /// Applies `request` at time `t`; `status` is asked only for a status request.
    public mutating func apply(_ request: Request, at t: Double, status: () -> StatusReport) -> Outcome {
        do {
            return try perform(request, at: t, status: status)
        } catch {
            return Outcome(reply: .error(error.message), changed: false)
        }
    }

    /// `apply`, throwing the refusal with its kind instead of answering it.
    public mutating func perform(_ request: Request, at t: Double,
                                  status: () -> StatusReport) throws(RequestError) -> Outcome {
        try validate(request)
        switch request {
        case .set(let values, let duration, let curve):
            for update in values {
                let i = try Request.index(of: update.ring, in: names)
                let laps = i < rings.count ? rings[i].laps(update.value, percent: update.percent) : update.value
                slots[i].state.set(laps, at: t, duration: duration, curve: curve)
            }
        case .notify(let notice):
            post(notice, at: t)
        case .clearNotices:
            notices = []
        case .endNotice(let key):
            let before = notices.count
            notices.removeAll { $0.notice.key == key }
            // One that is not showing (ended, cleared, a typo) is refused, so the sender learns
            // that nothing was cleared; nothing changes either way.
            guard notices.count != before else {
                throw RequestError("notify --clear --key \(Request.shown(key)): no notification with that key is showing "
                                   + "(it ended, was cleared or was never sent); ledring get --json shows the ones that are",
                                   kind: .notShowing)
            }
        case .timer(let ring, let action):
            let i = try Request.index(of: ring, in: names)
            switch action {
            case .start(let duration, let up, let then, let notice):
                slots[i].timer = RingTimer(start: t, duration: duration, up: up, then: then, notice: notice)
            case .pause:
                guard var timer = slots[i].timer else { throw RequestError("timer: \(ring) has no timer to pause; start one with timer \(ring) 25m") }
                if timer.pausedAt == nil { timer.pausedAt = t }
                slots[i].timer = timer
            case .resume:
                guard var timer = slots[i].timer else { throw RequestError("timer: \(ring) has no timer to resume; start one with timer \(ring) 25m") }
                if let paused = timer.pausedAt { timer.start += t - paused; timer.pausedAt = nil }
                slots[i].timer = timer
            case .cancel:
                slots[i].timer = nil
            }
        case .look(let ringNames, let name):
            // A colour look is kept in its one spelling (`#FF2020` is `#ff2020`).
            let chosen = Request.colorLook(name)?.name ?? name
            for ring in ringNames {
                let i = try Request.index(of: ring, in: names)
                slots[i].lookChoice = chosen == "default" ? nil : chosen
                slots[i].lookSince = t
            }
        case .light(let ringNames, let on, let duration):
            for ring in ringNames {
                let i = try Request.index(of: ring, in: names)
                guard slots[i].on != on else { continue }
                // A fade reversed half way starts from the level it had reached.
                let from = level(of: i, at: t)
                let done = Double(on ? from : 1 - from)
                slots[i].on = on
                slots[i].switched = (since: t - done * duration, fade: duration)
            }
        case .get:
            return Outcome(reply: report(at: t), changed: false)
        case .reset(let duration, let curve):
            for i in slots.indices {
                slots[i].state.set(0, at: t, duration: duration, curve: curve)
            }
        case .spin(let rings):
            for name in rings { slots[try Request.index(of: name, in: names)].state.spin(at: t) }
        case .stop(let rings):
            if rings.isEmpty {
                for i in slots.indices { slots[i].state.stopSpinning() }
            }
            for name in rings { slots[try Request.index(of: name, in: names)].state.stopSpinning() }
        case .brightness(let value):
            brightness = value
            brightnessSetAtRunTime = true
        case .power(let on):
            // Saved: a reboot at night keeps the LEDs dark.
            let changed = on != power
            power = on
            return Outcome(reply: report(at: t), changed: changed)
        case .status:
            return Outcome(reply: .status(status()), changed: false)
        }
        return Outcome(reply: report(at: t), changed: true)
    }

    /// Every ring's report at `t` (`report(ofRing:at:)`), as the socket answers.
    public func report(at t: Double) -> Reply {
        .rings(names.indices.map { report(ofRing: $0, at: t) }, brightness: brightness, power: power)
    }

    /// Whether any ring moves after `t` (a transition, a spinner, an effect or a running timer).
    public func isAnimating(at t: Double) -> Bool { frameSpacing(at: t) != nil }

    /// How far apart frames after `t` may be without losing a step: nil when nothing moves; 0
    /// while a transition, a spinner or an effect moves (every frame the wire allows counts);
    /// while only timers run, the time a timer's ring takes to move one of the 256 drive levels
    /// of one LED (`duration / (LEDs × RGB8.levels)`), so a 25-minute timer on 24 LEDs asks for a frame
    /// every 0.24 s instead of 60 a second. Rings built from names alone (no LED counts) get 0.
    public func frameSpacing(at t: Double) -> Double? {
        if slots.contains(where: { $0.state.isAnimating(at: t) }) || names.indices.contains(where: { effectMoves(on: $0, at: t) })
            || slots.contains(where: { $0.switched.fade > 0 && t < $0.switched.since + $0.switched.fade }) {
            return 0
        }
        var spacing: Double?
        for i in slots.indices {
            guard let timer = slots[i].timer, let end = timer.end, t < end else { continue }
            let leds = i < rings.count ? rings[i].ledCount : 0
            let step = leds > 0 ? timer.duration / Double(leds * RGB8.levels) : 0
            spacing = Swift.min(spacing ?? step, step)
        }
        return spacing
    }

    /// Whether ring `index` shows an effect that still changes after `t` (its look's, or a
    /// notification's over it). A look without an effect, or a finished flash, asks for no frames.
    private func effectMoves(on index: Int, at t: Double) -> Bool {
        if let active = notice(for: index, at: t) {
            let effect = active.notice.color != nil ? active.notice.effect
                : looks.first { $0.name == active.notice.look }?.effect ?? .none
            if effect.isAnimating(at: t - active.since) { return true }
        }
        guard slots[index].on, let name = look(of: index),
              let effect = Request.colorLook(name)?.effect ?? looks.first(where: { $0.name == name })?.effect else { return false }
        return effect.isAnimating(at: t - slots[index].lookSince)
    }

    /// What survives a restart: targets, spinners, brightness, looks (notifications are saved
    /// by `saved(wallOffset:)`, which knows the wall clock).
    public var saved: SavedState { saved(wallOffset: nil) }

    /// What survives a restart, with each notification's end on the wall clock: `wallOffset` is
    /// wall-clock time minus this controller's (monotonic) time now; nil leaves notifications out.
    public func saved(wallOffset: Double?) -> SavedState {
        var state = savedValues
        if let wallOffset {
            state.notices = notices.map { SavedState.SavedNotice(notice: $0.notice, until: $0.until + wallOffset) }
            for (i, name) in names.enumerated() {
                guard var timer = slots[i].timer else { continue }
                // Wall-clock start; a paused one keeps how far it got instead.
                timer.start += wallOffset
                if let paused = timer.pausedAt { timer.pausedAt = paused + wallOffset }
                state.timers[name] = timer
            }
        }
        return state
    }

    private var savedValues: SavedState {
        var values: [String: Double] = [:]
        var spinning: [String] = []
        for (name, state) in zip(names, states) {
            values[name] = state.target
            if state.spinningSince != nil { spinning.append(name) }
        }
        var chosen: [String: String] = [:]
        for (i, name) in names.enumerated() { if let look = slots[i].lookChoice { chosen[name] = look } }
        var state = SavedState(rings: values, spinning: spinning, brightness: brightnessSetAtRunTime ? brightness : nil,
                               looks: chosen)
        state.off = names.indices.filter { !slots[$0].on }.map { names[$0] }
        state.power = power
        return state
    }

    /// Puts back saved values at `t`, without animating; rings not in this layout are ignored.
    /// Notifications come back with the time they had left (`wallOffset`: wall-clock time minus
    /// `t` now); ended ones, and ones naming rings or looks this config lacks, are dropped.
    public mutating func restore(_ saved: SavedState, at t: Double, wallOffset: Double? = nil) {
        if let wallOffset {
            for (i, name) in names.enumerated() {
                guard var timer = saved.timers[name] else { continue }
                timer.start -= wallOffset
                if let paused = timer.pausedAt {
                    // Paused: as far as it got, paused now.
                    timer.start = t - (paused - wallOffset - timer.start)
                    timer.pausedAt = t
                }
                if let then = timer.then, !(Request.builtInLooks.contains(then) || looks.contains { $0.name == then }) { timer.then = nil }
                slots[i].timer = timer
            }
            for s in saved.notices where s.until - wallOffset > t {
                guard (try? Request.checkedNotice(s.notice, rings: names, looks: looks.map { $0.name })) != nil else { continue }
                noticeCount += 1
                notices.append(ActiveNotice(notice: s.notice, since: t, until: s.until - wallOffset, sequence: noticeCount))
            }
            // A file from before the caps (or edited by hand) is held to them too.
            trimNotices(rings: names)
        }
        for (i, name) in names.enumerated() {
            if let value = saved.rings[name] { slots[i].state.set(value, at: t, duration: 0) }
            if saved.spinning.contains(name) { slots[i].state.spin(at: t) }
            // A look the config no longer has is dropped: the ring shows its own again.
            if let look = saved.looks[name],
               Request.builtInLooks.contains(look) || Request.colorLook(look) != nil || looks.contains(where: { $0.name == look }) {
                slots[i].lookChoice = Request.colorLook(look)?.name ?? look
                slots[i].lookSince = t
            }
            if saved.off.contains(name) {
                slots[i].on = false
                slots[i].switched = (since: t, fade: 0)
            }
        }
        if let b = saved.brightness {
            brightness = b
            brightnessSetAtRunTime = true
        }
        power = saved.power
    }

    /// The same values on a new set of rings (after a config reload): rings are matched by name,
    /// each keeping its state and whether it is on (a ring's look and timer need the layout's
    /// looks: `carried(to: RingLayout)`); new rings start at 0, and transitions in flight carry
    /// on. A new config brightness (`newBrightness`) replaces one set at run time.
    public func carried(to newNames: [String], brightness newBrightness: Double? = nil) -> Controller {
        var next = Controller(names: newNames, brightness: newBrightness ?? brightness)
        next.brightnessSetAtRunTime = newBrightness == nil && brightnessSetAtRunTime
        next.power = power
        for (i, name) in newNames.enumerated() {
            guard let old = names.firstIndex(of: name) else { continue }
            next.slots[i] = slots[old]
            next.slots[i].timer = nil
            next.slots[i].lookChoice = nil
        }
        return next
    }

    /// The same values and looks on a new layout (after a config reload): each ring matched by
    /// name keeps its whole slot, except that a look, or a timer's `then` look, the new config no
    /// longer has is dropped; timers and notifications run on.
    public func carried(to layout: RingLayout, brightness newBrightness: Double? = nil) -> Controller {
        var next = carried(to: layout.rings.map { $0.name }, brightness: newBrightness)
        next.rings = layout.rings
        next.looks = layout.looks
        let lookNames = layout.looks.map { $0.name }
        func known(_ look: String) -> Bool {
            Request.builtInLooks.contains(look) || Request.colorLook(look) != nil || lookNames.contains(look)
        }
        next.droppedNotices = droppedNotices
        next.notices = notices.filter { (try? Request.checkedNotice($0.notice, rings: next.names, looks: lookNames)) != nil }
        next.noticeCount = noticeCount
        for (i, name) in next.names.enumerated() {
            guard let old = names.firstIndex(of: name) else { continue }
            var slot = slots[old]
            if let then = slot.timer?.then, !known(then) { slot.timer?.then = nil }
            if let look = slot.lookChoice, !known(look) {
                slot.lookChoice = nil
                slot.lookSince = 0
            }
            next.slots[i] = slot
        }
        return next
    }
}

/// What changes at run time about one ring: its value (state), the look chosen for it, its timer,
/// and whether it is switched on. The controller keeps one per ring, so a ring is never copied
/// or carried field by field.
public struct RingSlot: Sendable {
    /// Its value: target, transition, spinner.
    public var state = RingState()
    /// The look chosen at run time; nil for the ring's own from the config (`default`).
    public var lookChoice: String?
    /// When that look was chosen (its effect's time 0).
    public var lookSince = 0.0
    /// Its timer, if it has one.
    public var timer: RingTimer?
    /// Whether it is on (`Request.light`); off shows it dark, its value and look kept.
    public var on = true
    /// When it was last switched on or off, and how long that fade takes.
    public var switched: (since: Double, fade: Double) = (0, 0)

    /// A ring at 0, on, with its own look and no timer.
    public init() {}
}
