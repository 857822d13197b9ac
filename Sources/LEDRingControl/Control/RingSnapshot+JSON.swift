import LEDJSON

extension RingSnapshot {
    /// The snapshot as JSON, keys sorted (what `/api/state`, SSE and MQTT send).
    public var json: JSONValue {
        .object([
            ("brightness", .number(brightness)),
            ("power", .bool(power)),
            ("rings", .array(rings.map { ring in
                JSONValue.object([
                    ("display", .array(ring.display.map(JSONValue.string))),
                    ("leds", .array(ring.leds.map(JSONValue.string))),
                    ("name", .string(ring.name)),
                    ("spinning", .bool(ring.spinning)),
                    ("target", .number(ring.target)),
                    ("value", .number(ring.value)),
                ])
            })),
        ])
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
        func strings(_ value: JSONValue?, _ path: String) throws(JSONProblem) -> [String] {
            let items = try need(value?.items, path, "a list of colours")
            var out: [String] = []
            for item in items { out.append(try need(item.string, path, "a list of colours")) }
            return out
        }
        var rings: [Ring] = []
        for (i, ring) in try need(json["rings"]?.items, "rings", "a list").enumerated() {
            let path = "rings[\(i)]"
            rings.append(Ring(name: try need(ring["name"]?.string, path + ".name", "a string"),
                              value: try need(ring["value"]?.number, path + ".value", "a number"),
                              target: try need(ring["target"]?.number, path + ".target", "a number"),
                              spinning: try need(ring["spinning"]?.bool, path + ".spinning", "true or false"),
                              leds: try strings(ring["leds"], path + ".leds"),
                              display: try strings(ring["display"], path + ".display")))
        }
        self.init(rings: rings, brightness: try need(json["brightness"]?.number, "brightness", "a number"),
                  power: try need(json["power"]?.bool, "power", "true or false"))
    }
}
