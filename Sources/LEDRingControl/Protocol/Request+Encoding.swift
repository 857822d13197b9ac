extension Request {
    /// The request as one JSON line (without the newline), as the client sends it.
    public var jsonLine: String {
        func list(_ names: [String]) -> String { "[" + names.map(JSONText.string).joined(separator: ",") + "]" }
        switch self {
        case .set(let values, let duration, let curve):
            let rings = JSONText.object(values.map { ($0.ring, JSONText.number($0.value)) })
            return JSONText.object([("verb", "\"set\""), ("rings", rings), ("duration", JSONText.number(duration)),
                                    ("curve", JSONText.string(curve.rawValue))])
        case .get: return #"{"verb":"get"}"#
        case .reset(let duration, let curve):
            return JSONText.object([("verb", "\"reset\""), ("duration", JSONText.number(duration)),
                                    ("curve", JSONText.string(curve.rawValue))])
        case .spin(let rings): return JSONText.object([("verb", "\"spin\""), ("rings", list(rings))])
        case .stop(let rings): return JSONText.object([("verb", "\"stop\""), ("rings", list(rings))])
        case .brightness(let value): return JSONText.object([("verb", "\"brightness\""), ("value", JSONText.number(value))])
        case .status: return #"{"verb":"status"}"#
        case .power(let on): return JSONText.object([("verb", "\"power\""), ("on", on ? "true" : "false")])
        }
    }
}
