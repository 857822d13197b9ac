import LEDJSON
import RingModel

extension Request {
    public static let jsonKeys: [String: [String]] = [
        "set": ["verb", "rings", "duration", "curve"],
        "get": ["verb"],
        "reset": ["verb", "duration", "curve"],
        "spin": ["verb", "rings"],
        "stop": ["verb", "rings"],
        "brightness": ["verb", "value"],
        "status": ["verb"],
        "power": ["verb", "on", "rings", "duration"],
        "look": ["verb", "rings", "look"],
        "timer": ["verb", "ring", "duration", "up", "then", "notify", "action"],
        "notify": ["verb", "rings", "look", "color", "effect", "period", "value", "for", "priority", "clear", "key"],
    ]

    /// `{"verb":"set","rings":{"move":0.8},"duration":1.5,"curve":"easeInOut"}`,
    /// `{"verb":"spin","rings":["stand"]}`, `{"verb":"brightness","value":0.5}`, `{"verb":"get"}`.
    public static func parseJSON(_ line: String) throws(RequestError) -> Request {
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue.parse(line)
        } catch {
            throw RequestError("not valid JSON (\(error)); send one object per line, e.g. {\"verb\":\"get\"}")
        }
        guard case .object(let members) = document else {
            throw RequestError("a request must be a JSON object, e.g. {\"verb\":\"get\"}")
        }
        guard case .string(let verb)? = members["verb"] else {
            throw RequestError("missing \"verb\"; use one of \(verbs)")
        }
        guard let known = jsonKeys[verb] else {
            let shown = verb.count > 40 ? String(verb.prefix(40)) + "…" : verb
            throw RequestError("unknown verb \"\(shown)\"; use one of \(verbs)")
        }
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw RequestError("\(verb): unknown key \"\(unknown)\"; a \(verb) request has \(known.joined(separator: ", "))")
        }
        if verb == "notify" { return try parseNotifyJSON(members) }
        if verb == "timer" { return try parseTimerJSON(members) }
        let duration = try members["duration"].map { (d) throws(RequestError) in try Request.duration(d) }
        var curve = Curve.easeInOut
        if let value = members["curve"] {
            guard case .string(let text) = value else { throw RequestError("curve \(value.shown): must be a string like \"spring\"") }
            curve = try Request.curve(text)
        }
        switch verb {
        case "set":
            guard case .object(let rings)? = members["rings"], !rings.isEmpty else {
                throw RequestError("set: \"rings\" must be an object of ring names and values, e.g. {\"move\":0.8}")
            }
            var values: [RingValueUpdate] = []
            for member in rings.sortedByKey {
                let name = member.key
                switch member.value {
                case .number(let n): values.append(RingValueUpdate(ring: name, value: try checkedFinite(n, ring: name, shown: JSONValue.format(n))))
                case .string(let text) where ProgressText.isPercent(text): values.append(try Request.update(text, ring: name))
                default: throw RequestError("\(name) \(member.value.shown): must be a number 0…100 (1 = one lap) or a percentage like \"80%\"")
                }
            }
            let seconds = duration ?? 0
            return .set(values: values, duration: seconds, curve: curve)
        case "reset":
            return .reset(duration: duration ?? defaultResetDuration, curve: members["curve"] == nil ? defaultResetCurve : curve)
        case "spin", "stop", "look":
            var names: [String] = []
            switch members["rings"] {
            case nil: break
            case .string(let name)?: names = [name]
            case .array(let items)?:
                for item in items {
                    guard case .string(let name) = item else { throw RequestError("\(verb): \"rings\" must list ring names, got \(item.shown)") }
                    names.append(name)
                }
            case let other?: throw RequestError("\(verb): \"rings\" must list ring names, got \(other.shown)")
            }
            if verb == "spin" && names.isEmpty { throw RequestError("spin: name the ring(s), e.g. {\"verb\":\"spin\",\"rings\":[\"stand\"]}") }
            if verb == "look" {
                guard !names.isEmpty, case .string(let look)? = members["look"] else {
                    throw RequestError("look: give \"rings\" and \"look\", e.g. {\"verb\":\"look\",\"rings\":[\"build\"],\"look\":\"failed\"}")
                }
                return .look(rings: names, name: look)
            }
            return verb == "spin" ? .spin(rings: names) : .stop(rings: names)
        case "brightness":
            guard let value = try optionalNumber(members["value"], name: "brightness") else {
                throw RequestError("brightness: give \"value\" 0…1, e.g. {\"verb\":\"brightness\",\"value\":0.5}")
            }
            return .brightness(try Request.checkedBrightness(value, shown: JSONValue.format(value)))
        case "power":
            guard case .bool(let on)? = members["on"] else {
                throw RequestError("power: give \"on\" true or false, e.g. {\"verb\":\"power\",\"on\":false}")
            }
            // With rings: those rings on or off (fading over "duration"); without: the device.
            guard let listed = members["rings"] else {
                guard duration == nil else { throw RequestError("power: \"duration\" needs \"rings\", e.g. {\"verb\":\"power\",\"on\":false,\"rings\":[\"move\"],\"duration\":2}") }
                return .power(on)
            }
            var names: [String] = []
            switch listed {
            case .string(let name): names = [name]
            case .array(let items):
                for item in items {
                    guard case .string(let name) = item else { throw RequestError("power: \"rings\" must list ring names, got \(item.shown)") }
                    names.append(name)
                }
            default: throw RequestError("power: \"rings\" must list ring names, got \(listed.shown)")
            }
            guard !names.isEmpty else { throw RequestError("power: name the ring(s) to switch, e.g. power off move") }
            return .light(rings: names, on: on, duration: duration ?? 0)
        case "get": return .get
        default: return .status
        }
    }

    private static func optionalNumber(_ value: JSONValue?, name: String) throws(RequestError) -> Double? {
        guard let value else { return nil }
        guard case .number(let n) = value else { throw RequestError("\(name) \(value.shown): must be a number") }
        return n
    }
}
