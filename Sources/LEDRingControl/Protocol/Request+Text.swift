import RingRender

extension Request {
    /// The short text form for shell use: `set move 0.8 [exercise 40%] [duration 1.5] [curve spring]`
    /// (`move=0.8` works too), `get`, `reset [duration S] [curve C]`, `spin RING…`, `stop [RING…]`,
    /// `brightness 0.5`, `power on|off`, `status`.
    public static func parseText(_ line: String) throws(RequestError) -> Request {
        var words: [String] = []
        for word in line.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            // `move=0.8` is the same as `move 0.8`, as on the client's command line.
            if let equals = word.firstIndex(of: "="), equals != word.startIndex {
                words.append(String(word[..<equals]))
                words.append(String(word[word.index(after: equals)...]))
            } else {
                words.append(String(word))
            }
        }
        guard let verb = words.first else { throw RequestError("empty request; send one of \(verbs)") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "set":
            var values: [RingValueUpdate] = []
            var duration = 0.0
            var curve = Curve.easeInOut
            var i = 0
            while i < rest.count {
                let key = rest[i]
                guard i + 1 < rest.count else {
                    throw RequestError("set: \"\(Request.shown(key))\" needs a value, e.g. set \(Request.shown(key)) 0.8")
                }
                let text = rest[i + 1]
                switch key {
                case "duration": duration = try Request.duration(text)
                case "curve": curve = try Request.curve(text)
                default: values.append(try Request.update(text, ring: key))
                }
                i += 2
            }
            guard !values.isEmpty else { throw RequestError("set: give at least one ring and value, e.g. set move 0.8") }
            return .set(values: values, duration: duration, curve: curve)
        case "reset":
            var duration = defaultResetDuration
            var curve = Curve.easeInOut
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
            switch rest.count == 1 ? rest[0].lowercased() : "" {
            case "on": return .power(true)
            case "off": return .power(false)
            default: throw RequestError("power: give on or off, e.g. power off")
            }
        case "notify":
            return try Request.parseNotify(rest, json: false)
        case "timer":
            return try Request.parseTimer(rest)
        case "look":
            guard rest.count >= 2 else { throw RequestError("look: give the ring(s) and a look, e.g. look build failed (default: the config's)") }
            return .look(rings: Array(rest.dropLast()), name: rest[rest.count - 1])
        case "get", "status":
            guard rest.isEmpty else { throw RequestError("\(verb) takes no arguments, got \"\(Request.shown(rest.joined(separator: " ")))\"") }
            return verb == "get" ? .get : .status
        default:
            throw RequestError("unknown verb \"\(Request.shown(verb))\"; use one of \(verbs)")
        }
    }
}
