import LEDJSON

extension RingSnapshot {
    /// The snapshot as JSON, keys sorted (what `/api/state` and SSE send): `looks` only when the
    /// config has looks, a ring's `look` only while it shows one, `notice` only while a
    /// notification shows over it, `on` only while it is off, its `timer` only while it has one,
    /// `units` only for a ring with a range, `spin` only while its LEDs show the spinner.
    public var json: JSONValue {
        var top: [(String, JSONValue)] = [("brightness", .number(brightness))]
        if !looks.isEmpty { top.append(("looks", .array(looks.map(JSONValue.string)))) }
        top.append(("power", .bool(power)))
        top.append(("rings", .array(rings.map { ring in
            var members: [(String, JSONValue)] = [
                ("display", .array(ring.display.map(JSONValue.string))),
                ("leds", .array(ring.leds.map(JSONValue.string))),
            ]
            if let look = ring.look { members.append(("look", .string(look))) }
            members.append(("name", .string(ring.name)))
            if let notice = ring.notice { members.append(("notice", notice.json)) }
            // Only while off, so the state of a lit ring is as before.
            if !ring.on { members.append(("on", .bool(false))) }
            if let spin = ring.spin { members.append(("spin", spin.json)) }
            members.append(("spinning", .bool(ring.spinning)))
            members.append(("target", .number(ring.target)))
            if let timer = ring.timer { members.append(("timer", timer.json)) }
            if let units = ring.units { members.append(("units", .number(RingSnapshot.rounded(units)))) }
            members.append(("value", .number(ring.value)))
            return JSONValue.object(members)
        })))
        return .object(top)
    }

    /// A value in a ring's own units as people write it: 812, 21.5, not 811.9999999999999.
    public static func rounded(_ value: Double) -> Double {
        (value * 1e6).rounded() / 1e6
    }

    /// The snapshot as compact JSON bytes.
    public func jsonBytes() -> [UInt8] {
        Array(json.jsonText.utf8)
    }

    /// Reads a snapshot back from its JSON (what a client of `/api/state` does).
    public init(json: JSONValue) throws(JSONProblem) {
        func need<T>(_ value: T?, _ path: String, _ what: String) throws(JSONProblem) -> T {
            guard let value else { throw JSONProblem(path: path, message: "must be \(what)") }
            return value
        }
        func strings(_ value: JSONValue?, _ path: String, _ what: String = "a list of colours") throws(JSONProblem) -> [String] {
            let items = try need(value?.items, path, what)
            var out: [String] = []
            for item in items { out.append(try need(item.string, path, what)) }
            return out
        }
        var rings: [Ring] = []
        for (i, ring) in try need(json["rings"]?.items, "rings", "a list").enumerated() {
            let path = "rings[\(i)]"
            var entry = Ring(name: try need(ring["name"]?.string, path + ".name", "a string"),
                             value: try need(ring["value"]?.number, path + ".value", "a number"),
                             target: try need(ring["target"]?.number, path + ".target", "a number"),
                             spinning: try need(ring["spinning"]?.bool, path + ".spinning", "true or false"),
                             leds: try strings(ring["leds"], path + ".leds"),
                             display: try strings(ring["display"], path + ".display"))
            if let look = ring["look"] { entry.look = try need(look.string, path + ".look", "a string") }
            if let on = ring["on"] { entry.on = try need(on.bool, path + ".on", "true or false") }
            if let units = ring["units"] { entry.units = try need(units.number, path + ".units", "a number") }
            if let notice = ring["notice"] {
                let at = path + ".notice"
                func text(_ key: String) throws(JSONProblem) -> String? {
                    try notice[key].map { (value: JSONValue) throws(JSONProblem) -> String in try need(value.string, at + "." + key, "a string") }
                }
                entry.notice = ShownNotice(key: try text("key"), look: try text("look"), color: try text("color"),
                                           effect: try need(notice["effect"]?.string, at + ".effect", "a string"),
                                           priority: Int(try need(notice["priority"]?.number, at + ".priority", "a number")),
                                           value: try notice["value"].map { (v: JSONValue) throws(JSONProblem) -> Double in try need(v.number, at + ".value", "a number") },
                                           left: try need(notice["left"]?.number, at + ".left", "a number"))
            }
            if let spin = ring["spin"] {
                let at = path + ".spin"
                func numbers(_ key: String) throws(JSONProblem) -> [Double] {
                    var out: [Double] = []
                    for item in try need(spin[key]?.items, at + "." + key, "a list of numbers") {
                        out.append(try need(item.number, at + "." + key, "a list of numbers"))
                    }
                    return out
                }
                entry.spin = Spin(cycle: try need(spin["cycle"]?.number, at + ".cycle", "a number"),
                                  at: try need(spin["at"]?.number, at + ".at", "a number"),
                                  tail: try numbers("tail"), segments: [])
                for count in try numbers("segments") {
                    guard let whole = Int(exactly: count), whole > 0 else {
                        throw JSONProblem(path: at + ".segments", message: "must be a list of LED counts")
                    }
                    entry.spin?.segments.append(whole)
                }
            }
            if let timer = ring["timer"] {
                let at = path + ".timer"
                var then: String? = nil
                if let name = timer["then"] { then = try need(name.string, at + ".then", "a string") }
                entry.timer = Timer(left: try need(timer["left"]?.number, at + ".left", "a number"),
                                    duration: try need(timer["duration"]?.number, at + ".duration", "a number"),
                                    paused: try need(timer["paused"]?.bool, at + ".paused", "true or false"),
                                    up: try need(timer["up"]?.bool, at + ".up", "true or false"), then: then)
            }
            rings.append(entry)
        }
        self.init(rings: rings, brightness: try need(json["brightness"]?.number, "brightness", "a number"),
                  power: try need(json["power"]?.bool, "power", "true or false"))
        if let names = json["looks"] { looks = try strings(names, "looks", "a list of names") }
    }
}

extension RingSnapshot.Spin {
    /// `{"at":0.4213,"cycle":1,"segments":[12],"tail":[0,0.0012,…,1]}`: times and positions
    /// rounded to 0.0001 (a tenth of a millisecond; a ten-thousandth of a turn).
    public var json: JSONValue {
        .object([("at", .number(RingSnapshot.Spin.rounded(at))), ("cycle", .number(cycle)),
                 ("segments", .array(segments.map { .number(Double($0)) })),
                 ("tail", .array(tail.map { .number(RingSnapshot.Spin.rounded($0)) }))])
    }

    /// To 0.0001, as the JSON carries it.
    public static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }
}

extension RingSnapshot.Timer {
    /// `{"duration":600,"left":412.3,"paused":false,"then":"done","up":false}`: seconds left rounded
    /// to 0.1 (as the socket's `timerLeft`), `then` only when set.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("duration", .number(duration)), ("left", .number((left * 10).rounded() / 10)),
                                              ("paused", .bool(paused))]
        if let then { members.append(("then", .string(then))) }
        members.append(("up", .bool(up)))
        return .object(members)
    }
}

extension ShownNotice {
    /// `{"color":"#ff2020","effect":"pulse","key":"c0ffee","left":41.5,"priority":0}`: keys
    /// sorted, `key`, `look`, `color` and `value` only when set, seconds left rounded to 0.1.
    public var json: JSONValue {
        var members = stableMembers
        members.append(("left", .number((left * 10).rounded() / 10)))
        return JSONValue.object(members).sortingKeys()
    }

    /// The members that do not change while it shows (no `left`): what a retained MQTT state
    /// carries, so it is not republished as the seconds run down.
    public var stableMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let color { members.append(("color", .string(color))) }
        members.append(("effect", .string(effect)))
        if let key { members.append(("key", .string(key))) }
        if let look { members.append(("look", .string(look))) }
        members.append(("priority", .number(Double(priority))))
        if let value { members.append(("value", .number(value))) }
        return members
    }
}
