import LEDJSON

extension SavedState {
    /// The state file's document: keys in a fixed order, rings by name, so the file is the same
    /// bytes for the same state.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let brightness { members.append(("brightness", .number(brightness))) }
        members.append(("rings", .object(rings.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number($0.value)) })))
        members.append(("spinning", .array(spinning.map(JSONValue.string))))
        // Only when there are any, so a state without looks is the same bytes as before.
        if !looks.isEmpty {
            members.append(("looks", .object(looks.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })))
        }
        if !off.isEmpty { members.append(("off", .array(off.map(JSONValue.string)))) }
        // Only when off, so a state with the lights on is the same bytes as before.
        if !power { members.append(("power", .bool(false))) }
        if !timers.isEmpty {
            members.append(("timers", .object(timers.sorted { $0.key < $1.key }.map { name, timer in
                var m: [(String, JSONValue)] = [("start", .number(timer.start)), ("duration", .number(timer.duration)), ("up", .bool(timer.up))]
                if let paused = timer.pausedAt { m.append(("pausedAt", .number(paused))) }
                if let then = timer.then { m.append(("then", .string(then))) }
                if let notice = timer.notice { m.append(("notify", Request.noticeMembers(notice))) }
                return (name, JSONValue.object(m))
            })))
        }
        if !notices.isEmpty {
            members.append(("notices", .array(notices.map { saved in
                guard case .object(let pairs) = Request.noticeJSON(saved.notice) else { return JSONValue.null }
                return JSONValue.object(pairs.pairs.filter { $0.key != "verb" }.map { ($0.key, $0.value) } + [("until", .number(saved.until))])
            })))
        }
        return .object(members)
    }

    /// Reads a state file's document; throws what is wrong, with its path. Keys it does not know
    /// are ignored, so a newer ledring's file still restores the values this one knows.
    public init(json: JSONValue) throws(JSONProblem) {
        guard case .object(let members) = json else {
            throw JSONProblem(path: "", message: "must be an object {…}, got \(json.shown)")
        }
        guard case .object(let ringMembers)? = members["rings"] else {
            throw JSONProblem(path: "rings", message: members["rings"] == nil ? "missing" : "must be an object of ring values")
        }
        var rings: [String: Double] = [:]
        for member in ringMembers.pairs {
            guard case .number(let value) = member.value else {
                throw JSONProblem(path: "rings.\(member.key)", message: "must be a number, got \(member.value.shown)")
            }
            rings[member.key] = value
        }
        guard case .array(let items)? = members["spinning"] else {
            throw JSONProblem(path: "spinning", message: members["spinning"] == nil ? "missing" : "must be a list of ring names")
        }
        var spinning: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let name) = item else {
                throw JSONProblem(path: "spinning[\(i)]", message: "must be a ring name, got \(item.shown)")
            }
            spinning.append(name)
        }
        var brightness: Double?
        switch members["brightness"] {
        case nil, .null?: brightness = nil
        case .number(let value)?: brightness = value
        case let other?: throw JSONProblem(path: "brightness", message: "must be a number, got \(other.shown)")
        }
        var looks: [String: String] = [:]
        switch members["looks"] {
        case nil, .null?: break
        case .object(let items)?:
            for member in items.pairs {
                guard case .string(let look) = member.value else {
                    throw JSONProblem(path: "looks.\(member.key)", message: "must be a look name, got \(member.value.shown)")
                }
                looks[member.key] = look
            }
        case let other?: throw JSONProblem(path: "looks", message: "must be an object of ring names and looks, got \(other.shown)")
        }
        self.init(rings: rings, spinning: spinning, brightness: brightness, looks: looks)
        switch members["off"] {
        case nil, .null?: break
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                guard case .string(let name) = item else {
                    throw JSONProblem(path: "off[\(i)]", message: "must be a ring name, got \(item.shown)")
                }
                off.append(name)
            }
        case let other?: throw JSONProblem(path: "off", message: "must be a list of ring names, got \(other.shown)")
        }
        switch members["power"] {
        case nil, .null?: break
        case .bool(let on)?: power = on
        case let other?: throw JSONProblem(path: "power", message: "must be true or false, got \(other.shown)")
        }
        if case .object(let items)? = members["timers"] {
            for member in items.pairs {
                guard case .object(let m) = member.value, case .number(let start)? = m["start"], case .number(let duration)? = m["duration"],
                      duration > 0, duration <= RingTimer.maxDuration else {
                    throw JSONProblem(path: "timers.\(member.key)", message: "must be a timer with start and duration")
                }
                var paused: Double?
                if case .number(let p)? = m["pausedAt"] { paused = p }
                var then: String?
                if case .string(let name)? = m["then"] { then = name }
                var notice: Notice?
                if case .object(let n)? = m["notify"] {
                    do throws(RequestError) {
                        guard case .notify(let parsed) = try Request.parseNotifyJSON(n) else { throw RequestError("not a notification") }
                        notice = parsed
                    } catch {
                        throw JSONProblem(path: "timers.\(member.key).notify", message: error.message)
                    }
                }
                timers[member.key] = RingTimer(start: start, duration: duration, up: m["up"] == .bool(true), pausedAt: paused, then: then,
                                               notice: notice)
            }
        }
        if case .array(let items)? = members["notices"] {
            for (i, item) in items.enumerated() {
                guard case .object(let m) = item, case .number(let until)? = m["until"] else {
                    throw JSONProblem(path: "notices[\(i)]", message: "must be a notification with \"until\"")
                }
                do throws(RequestError) {
                    if case .notify(let notice) = try Request.parseNotifyJSON(m) {
                        notices.append(SavedNotice(notice: notice, until: until))
                    }
                } catch {
                    throw JSONProblem(path: "notices[\(i)]", message: error.message)
                }
            }
        }
    }
}
