import RingModel

extension Request {
    /// The short text form for shell use: `set move 0.8 [exercise 40%] [duration 1.5] [curve spring]`
    /// (`move=0.8` works too), `get`, `reset [duration S] [curve C]`, `spin RING…`, `stop [RING…]`,
    /// `brightness 0.5`, `power on|off [RING… [duration S]]`, `look RING… NAME`, `status`.
    public static func parseText(_ line: String) throws(RequestError) -> Request {
        var words: [String] = []
        for word in line.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            // `move=0.8` is the same as `move 0.8`, as on the client's command line.
            if let pair = ringValue(String(word)) {
                words += [pair.ring, pair.text]
            } else {
                words.append(String(word))
            }
        }
        guard let verb = words.first else { throw RequestError("empty request; send one of \(verbs)") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "set":
            let set = try Request.setWords(rest)
            return .set(values: set.values, duration: set.duration ?? 0, curve: set.curve ?? .easeInOut)
        case "reset":
            var duration = defaultResetDuration
            var curve = defaultResetCurve
            var i = 0
            while i < rest.count {
                guard i + 1 < rest.count else { throw RequestError("reset: \"\(Request.shown(rest[i]))\" needs a value, e.g. reset duration 1") }
                switch rest[i] {
                case "duration": duration = try Request.duration(rest[i + 1])
                case "curve": curve = try Request.curve(rest[i + 1])
                default: throw RequestError("reset: unknown option \"\(Request.shown(rest[i]))\"; use reset [duration S] [curve C]")
                }
                i += 2
            }
            return .reset(duration: duration, curve: curve)
        case "spin":
            guard !rest.isEmpty else { throw RequestError("spin: name the ring(s), e.g. spin stand") }
            return .spin(rings: rest)
        case "stop": return .stop(rings: rest)
        case "brightness":
            guard rest.count == 1 else { throw RequestError("brightness: give one value 0…1, e.g. brightness 0.5") }
            let text = rest[0]
            return .brightness(try Request.brightnessValue(text))
        case "power":
            // `power on|off` for the whole device; `power off RING… [duration S]` for rings.
            let on: Bool
            switch rest.first?.lowercased() ?? "" {
            case "on": on = true
            case "off": on = false
            default: throw RequestError("power: give on or off, e.g. power off (or power off move duration 2 for rings)")
            }
            if rest.count == 1 { return .power(on) }
            var rings = Array(rest.dropFirst())
            var duration = 0.0
            if rings.count >= 2, rings[rings.count - 2] == "duration" {
                duration = try Request.duration(rings[rings.count - 1])
                rings.removeLast(2)
            }
            guard !rings.isEmpty else { throw RequestError("power: name the ring(s) to switch, e.g. power off move") }
            return .light(rings: rings, on: on, duration: duration)
        case "notify":
            return try Request.parseNotify(rest, json: false)
        case "timer":
            return try Request.parseTimer(rest)
        case "look":
            guard rest.count >= 2 else { throw RequestError("look: give the ring(s) and a look, e.g. look build failed (default: the config's)") }
            return look(words: rest)
        case "get", "status":
            guard rest.isEmpty else { throw RequestError("\(verb) takes no arguments, got \"\(Request.shown(rest.joined(separator: " ")))\"") }
            return verb == "get" ? .get : .status
        default:
            throw RequestError("unknown verb \"\(Request.shown(verb))\"; use one of \(verbs)")
        }
    }
}

extension Request {
    /// The one reading of `set`'s words, wherever they come from (the text protocol, the client's
    /// command line, the one-shot's `--set`): `RING=VALUE` or `RING VALUE`, any number of them,
    /// and `duration S` / `curve C` (nil when not given). Each value goes through `update`, the
    /// one check of a ring's value; `written` is each value as it was written, for notes.
    public static func setWords(_ words: [String]) throws(RequestError)
        -> (values: [RingValueUpdate], written: [String], duration: Double?, curve: Curve?) {
        var values: [RingValueUpdate] = []
        var written: [String] = []
        var duration: Double?
        var curve: Curve?
        var i = 0
        while i < words.count {
            let key: String, text: String
            if let pair = ringValue(words[i]) {
                (key, text) = pair
                i += 1
            } else if i + 1 < words.count, !words[i + 1].contains("=") {
                (key, text) = (words[i], words[i + 1])
                i += 2
            } else {
                throw RequestError("set: \"\(Request.shown(words[i]))\" needs a value, e.g. set \(Request.shown(words[i]))=0.8 or set \(Request.shown(words[i])) 80%")
            }
            switch key {
            case "duration": duration = try Request.duration(text)
            case "curve": curve = try Request.curve(text)
            default:
                values.append(try Request.update(text, ring: key))
                written.append(text)
            }
        }
        guard !values.isEmpty else { throw RequestError("set: give at least one ring and value, e.g. set move=0.8 stand 45%") }
        return (values, written, duration, curve)
    }

    /// `RING=VALUE` split at its first `=` (a word starting with `=` names no ring: nil).
    public static func ringValue(_ word: String) -> (ring: String, text: String)? {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return nil }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// `look`'s words after the verb: the rings, then the look's name, which for a colour with
    /// an effect is two words (`build #ff2020 pulse`). At least two words.
    public static func look(words: [String]) -> Request {
        let n = words.count
        if n >= 3, words[n - 2].hasPrefix("#"), colorLookEffects.contains(words[n - 1]) {
            return .look(rings: Array(words.dropLast(2)), name: words[n - 2] + " " + words[n - 1])
        }
        return .look(rings: Array(words.dropLast()), name: words[n - 1])
    }
}
