import LEDJSON

extension Request {
    /// The request as one JSON line (without the newline), as the client sends it.
    public var jsonLine: String {
        json.jsonText
    }

    /// The request as the JSON the socket takes, keys in the order the protocol documents them.
    public var json: JSONValue {
        func list(_ names: [String]) -> JSONValue { .array(names.map(JSONValue.string)) }
        switch self {
        case .set(let values, let duration, let curve):
            let rings = JSONValue.object(values.map {
                ($0.ring, $0.percent ? JSONValue.string(Request.shown($0.value * 100) + "%") : JSONValue.number($0.value))
            })
            return .object([("verb", .string("set")), ("rings", rings), ("duration", .number(duration)),
                            ("curve", .string(curve.rawValue))])
        case .get: return .object([("verb", .string("get"))])
        case .reset(let duration, let curve):
            return .object([("verb", .string("reset")), ("duration", .number(duration)), ("curve", .string(curve.rawValue))])
        case .spin(let rings): return .object([("verb", .string("spin")), ("rings", list(rings))])
        case .stop(let rings): return .object([("verb", .string("stop")), ("rings", list(rings))])
        case .brightness(let value): return .object([("verb", .string("brightness")), ("value", .number(value))])
        case .status: return .object([("verb", .string("status"))])
        case .power(let on): return .object([("verb", .string("power")), ("on", .bool(on))])
        case .light(let rings, let on, let duration):
            return .object([("verb", .string("power")), ("on", .bool(on)), ("rings", list(rings)), ("duration", .number(duration))])
        case .notify(let notice): return Request.noticeJSON(notice)
        case .timer(let ring, let action): return Request.timerJSON(ring: ring, action)
        case .clearNotices: return .object([("verb", .string("notify")), ("clear", .bool(true))])
        case .endNotice(let key): return .object([("verb", .string("notify")), ("clear", .bool(true)), ("key", .string(key))])
        case .look(let rings, let name): return .object([("verb", .string("look")), ("rings", list(rings)), ("look", .string(name))])
        }
    }
}
