import LEDJSON

extension Request {
    /// `notify [RING…] (look NAME | color #RRGGBB [effect E] [period S]) [value V] for DURATION
    /// [priority N] [key K]`, `notify clear` or `notify clear KEY`: the text form; the client's
    /// `--look`, `--color`… come here with their dashes dropped.
    public static func parseNotify(_ words: [String], json: Bool) throws(RequestError) -> Request {
        if words == ["clear"] { return .clearNotices }
        if words.count == 2, words[0] == "clear" { return .endNotice(key: words[1]) }
        var rings: [String] = []
        var notice = Notice(duration: 0)
        var effectText: String?
        var period: Double?
        var duration: Double?
        var i = 0
        func next(_ key: String) throws(RequestError) -> String {
            guard i + 1 < words.count else { throw RequestError("notify: \"\(Request.shown(key))\" needs a value, e.g. notify build look failed for 30s") }
            i += 1
            return words[i]
        }
        while i < words.count {
            let word = words[i]
            switch word {
            case "look": notice.look = try next(word)
            case "color", "colour": notice.color = try Request.color(try next(word))
            case "effect":
                var text = try next(word)
                // `flash 3` is two words.
                if text == "flash", i + 1 < words.count, Int(words[i + 1]) != nil { i += 1; text += " " + words[i] }
                effectText = text
            case "period": period = try Request.duration(try next(word), name: "period")
            case "value":
                // Checked against the rings it covers (their ranges) by `validate`.
                let update = try Request.update(try next(word), ring: "value")
                notice.value = update.value
                notice.valuePercent = update.percent
            case "for": duration = try Request.duration(try next(word), limit: Notice.maxDuration, name: "for")
            case "priority":
                let text = try next(word)
                guard let n = Int(text) else { throw RequestError("priority \"\(Request.shown(text))\": must be a whole number -100…100, e.g. priority 10") }
                notice.priority = n
            case "key": notice.key = try next(word)
            default:
                guard rings.count == i else {
                    throw RequestError("notify: unknown word \"\(Request.shown(word))\"; use notify [RING…] (look NAME | color #RRGGBB [effect E]) [value V] for DURATION [priority N]")
                }
                rings.append(word)
            }
            i += 1
        }
        notice.rings = rings
        if let effectText { notice.effect = try Request.effect(effectText, period: period) }
        guard let duration else { throw RequestError("notify: say how long with for DURATION, e.g. for 30s or for 5m") }
        notice.duration = duration
        return .notify(notice)
    }

    /// `{"verb":"notify","rings":["build"],"look":"failed","value":1,"for":"30s","priority":5}`,
    /// `{"verb":"notify","color":"#ff2020","effect":"pulse","for":60}`, `{"verb":"notify","clear":true}`,
    /// and with `"key"`: a keyed notification, or with `"clear":true` the end of that one only.
    public static func parseNotifyJSON(_ members: JSONMembers) throws(RequestError) -> Request {
        var key: String?
        if let raw = members["key"] {
            guard case .string(let k) = raw else { throw RequestError("notify: \"key\" must be a string, got \(raw.shown)") }
            key = k
        }
        if case .bool(true)? = members["clear"] { return key.map { .endNotice(key: $0) } ?? .clearNotices }
        var notice = Notice(duration: 0)
        notice.key = key
        switch members["rings"] {
        case nil: break
        case .string(let name)?: notice.rings = [name]
        case .array(let items)?:
            for item in items {
                guard case .string(let name) = item else { throw RequestError("notify: \"rings\" must list ring names, got \(item.shown)") }
                notice.rings.append(name)
            }
        case let other?: throw RequestError("notify: \"rings\" must list ring names, got \(other.shown)")
        }
        func text(_ key: String) throws(RequestError) -> String? {
            guard let value = members[key] else { return nil }
            guard case .string(let s) = value else { throw RequestError("notify: \"\(key)\" must be a string, got \(value.shown)") }
            return s
        }
        notice.look = try text("look")
        if let c = try text("color") { notice.color = try Request.color(c) }
        let period = try members["period"].map { (p) throws(RequestError) in try Request.duration(p, name: "period") }
        if let e = try text("effect") { notice.effect = try Request.effect(e, period: period) }
        if let raw = members["value"] {
            let update = try SetCommand.parseUpdate(raw, ring: "value")
            notice.value = update.value
            notice.valuePercent = update.percent
        }
        guard let d = members["for"] else { throw RequestError("notify: give \"for\", how long, e.g. {\"verb\":\"notify\",\"look\":\"failed\",\"for\":\"30s\"}") }
        notice.duration = try Request.duration(d, limit: Notice.maxDuration, name: "for")
        if let p = members["priority"] {
            guard case .number(let n) = p, n == n.rounded(), abs(n) <= 1000 else {
                throw RequestError("priority \(p.shown): must be a whole number -100…100, e.g. 10")
            }
            notice.priority = Int(n)
        }
        return .notify(notice)
    }

    /// `timer RING DURATION [up] [then LOOK]`, `timer RING pause|resume|cancel`.
    public static func parseTimer(_ words: [String]) throws(RequestError) -> Request {
        let usage = "use timer RING DURATION [up] [then LOOK] [notify …] or timer RING pause|resume|cancel, e.g. timer focus 25m then done"
        guard words.count >= 2 else { throw RequestError("timer: give a ring and a duration; \(usage)") }
        let ring = words[0]
        switch words[1] {
        case "pause": return .timer(ring: ring, .pause)
        case "resume": return .timer(ring: ring, .resume)
        case "cancel": return .timer(ring: ring, .cancel)
        default: break
        }
        let duration = try Request.duration(words[1], limit: RingTimer.maxDuration, name: "timer")
        var up = false
        var then: String?
        var notice: Notice?
        var i = 2
        while i < words.count {
            switch words[i] {
            case "up": up = true
            case "then" where i + 1 < words.count: i += 1; then = words[i]
            case "notify":
                // The rest is a notify request's words: `notify look done for 1m`.
                notice = try Request.timerNotice(try Request.parseNotify(Array(words[(i + 1)...]), json: false), ring: ring)
                i = words.count
                continue
            default: throw RequestError("timer: unknown word \"\(Request.shown(words[i]))\"; \(usage)")
            }
            i += 1
        }
        return .timer(ring: ring, .start(duration: duration, up: up, then: then, notify: notice))
    }

    /// `{"verb":"timer","ring":"focus","duration":"25m","up":false,"then":"done"}` or
    /// `{"verb":"timer","ring":"focus","action":"pause"}`.
    public static func parseTimerJSON(_ members: JSONMembers) throws(RequestError) -> Request {
        guard case .string(let ring)? = members["ring"] else { throw RequestError("timer: give \"ring\", e.g. {\"verb\":\"timer\",\"ring\":\"focus\",\"duration\":\"25m\"}") }
        if case .string(let action)? = members["action"], action != "start" {
            switch action {
            case "pause": return .timer(ring: ring, .pause)
            case "resume": return .timer(ring: ring, .resume)
            case "cancel": return .timer(ring: ring, .cancel)
            default: throw RequestError("timer: action \"\(Request.shown(action))\": use start, pause, resume or cancel")
            }
        }
        guard let d = members["duration"] else { throw RequestError("timer: give \"duration\", e.g. \"25m\"") }
        let duration = try Request.duration(d, limit: RingTimer.maxDuration, name: "timer")
        var then: String?
        if let t = members["then"] {
            guard case .string(let name) = t else { throw RequestError("timer: \"then\" must be a look name, got \(t.shown)") }
            then = name
        }
        var notice: Notice?
        if let n = members["notify"] {
            guard case .object(let object) = n else {
                throw RequestError("timer: \"notify\" must be a notification object, e.g. {\"look\":\"done\",\"for\":\"1m\"}, got \(n.shown)")
            }
            notice = try Request.timerNotice(try Request.parseNotifyJSON(object), ring: ring)
        }
        return .timer(ring: ring, .start(duration: duration, up: members["up"] == .bool(true), then: then, notify: notice))
    }

    /// The notification a timer shows at its end: `request` must be a notification (not
    /// `clear`); without rings of its own it covers the timer's ring.
    static func timerNotice(_ request: Request, ring: String) throws(RequestError) -> Notice {
        guard case .notify(var notice) = request else {
            throw RequestError("timer: notify needs a notification, e.g. timer \(Request.shown(ring)) 25m notify color #ff2020 effect flash 3 for 30s")
        }
        if notice.rings.isEmpty { notice.rings = [ring] }
        return notice
    }

    /// A timer request as JSON.
    static func timerJSON(ring: String, _ action: TimerAction) -> JSONValue {
        switch action {
        case .start(let duration, let up, let then, let notice):
            var members: [(String, JSONValue)] = [("verb", .string("timer")), ("ring", .string(ring)), ("duration", .number(duration)), ("up", .bool(up))]
            if let then { members.append(("then", .string(then))) }
            if let notice { members.append(("notify", noticeMembers(notice))) }
            return .object(members)
        case .pause: return .object([("verb", .string("timer")), ("ring", .string(ring)), ("action", .string("pause"))])
        case .resume: return .object([("verb", .string("timer")), ("ring", .string(ring)), ("action", .string("resume"))])
        case .cancel: return .object([("verb", .string("timer")), ("ring", .string(ring)), ("action", .string("cancel"))])
        }
    }

    /// A notification as the JSON the socket takes.
    static func noticeJSON(_ notice: Notice) -> JSONValue {
        .object([("verb", .string("notify"))] + noticePairs(notice))
    }

    /// A notification's members without the verb: what a timer's `notify` holds.
    static func noticeMembers(_ notice: Notice) -> JSONValue { .object(noticePairs(notice)) }

    private static func noticePairs(_ notice: Notice) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if !notice.rings.isEmpty { members.append(("rings", .array(notice.rings.map(JSONValue.string)))) }
        if let look = notice.look { members.append(("look", .string(look))) }
        if let color = notice.color { members.append(("color", .string(color.hex))) }
        if notice.effect != .none {
            members.append(("effect", .string(notice.effect.name)))
            members.append(("period", .number(notice.effect.period)))
        }
        if let value = notice.value {
            members.append(("value", notice.valuePercent ? .string(JSONValue.format(value * 100) + "%") : .number(value)))
        }
        members.append(("for", .number(notice.duration)))
        members.append(("priority", .integer(notice.priority)))
        if let key = notice.key { members.append(("key", .string(key))) }
        return members
    }
}
