import LEDRingControl
import LEDJSON
import RingModel

/// Reads the config's `rings` list into `RingSpec`s, reporting each bad value with its path.
enum RingConfig {
    /// Keys a ring object may have.
    static let keys = ["name", "shape", "leds", "segments", "startLED", "direction", "gradient", "span", "cap",
                       "capColor", "highlight", "headFrom", "track", "shadow", "laps", "spinner", "range", "zones", "look"]
    static let spinnerKeys = ["arc", "period", "reverses", "curve"]
    /// The keys of a colour zone and of a gradient stop.
    static let zoneKeys = ["upTo", "gradient"]
    static let stopKeys = ["color", "location"]

    /// Gradients for rings that name none: the activity rings' by name, else in turn.
    static func defaultGradient(name: String, index: Int) -> Gradient {
        switch name {
        case "move": return Palette.move
        case "exercise": return Palette.exercise
        case "stand": return Palette.stand
        default: return [Palette.move, Palette.exercise, Palette.stand][index % 3]
        }
    }

    /// Most rings in one config: far beyond any real installation, and it bounds the memory
    /// checking a config takes (each ring's gradient table is 12 KB).
    static let maxRings = 512

    /// Most colour zones in all the rings together: a zone is a gradient table of 12 KB.
    static let maxZones = 256

    /// Every ring in the list; nil when any ring is unusable (the problems say why).
    static func readAll(_ value: JSONValue, at path: String, into reader: inout ConfigReader) -> [RingSpec]? {
        guard let items = reader.array(value, at: path) else { return nil }
        if items.isEmpty {
            reader.report(path, "must list at least one ring, e.g. [{\"name\": \"move\", \"leds\": 24}]")
            return nil
        }
        // Refused before building anything per ring (50 000 rings cost 655 MB to check): each ring
        // has at least one LED, so more rings than the chain holds LEDs can never be valid, and each
        // ring's gradient table takes 12 KB, so the count is also capped well below that.
        guard items.count <= RingLayout.maxChainLEDs else {
            reader.report(path, "lists \(items.count) rings; a chain holds at most \(RingLayout.maxChainLEDs) LEDs, so at most \(RingLayout.maxChainLEDs) rings")
            return nil
        }
        guard items.count <= RingConfig.maxRings else {
            reader.report(path, "lists \(items.count) rings; at most \(RingConfig.maxRings) are supported (join rings into fewer, longer ones)")
            return nil
        }
        // Each zone has its own 12 KB gradient table: counted before any is built.
        let zones = items.reduce(0) { $0 + ($1.members?["zones"]?.items?.count ?? 0) }
        guard zones <= RingConfig.maxZones else {
            reader.report(path, "the rings list \(zones) colour zones in all; at most \(RingConfig.maxZones) are supported (each costs 12 KB of gradient)")
            return nil
        }
        var rings: [RingSpec] = []
        var failed = false
        var firstIndex: [String: Int] = [:]
        var total = 0
        for (index, item) in items.enumerated() {
            let ringPath = "\(path)[\(index)]"
            guard let ring = read(item, at: ringPath, index: index, into: &reader) else {
                failed = true
                continue
            }
            if let earlier = firstIndex[ring.name] {
                reader.report("\(ringPath).name", "\"\(ring.name)\" is already the name of \(path)[\(earlier)]; give each ring its own name")
                failed = true
            } else {
                firstIndex[ring.name] = index
            }
            total += ring.ledCount
            rings.append(ring)
        }
        if total > RingLayout.maxChainLEDs {
            reader.report(path, "the chain has \(total) LEDs; ledring drives at most \(RingLayout.maxChainLEDs)")
            failed = true
        }
        return failed ? nil : rings
    }

    /// One ring; nil when it cannot be built.
    static func read(_ value: JSONValue, at path: String, index: Int, into reader: inout ConfigReader) -> RingSpec? {
        guard let m = reader.object(value, at: path, known: keys) else { return nil }
        func at(_ key: String) -> String { ConfigReader.join(path, key) }
        let before = reader.problems.count

        let name = reader.string(m["name"], at: at("name"))
        if m["name"] == nil { reader.report(at("name"), "missing; every ring needs a name, e.g. \"move\"") }
        if let name, !RingLayout.isValidName(name) {
            reader.report(at("name"), "must be letters, digits, - and _, starting with a letter (at most 32), got \"\(name)\"")
        }
        let shape = reader.choice(m["shape"], at: at("shape"), as: RingShape.self) ?? .ring
        var counts: [Int] = []
        if shape == .pie {
            if m["leds"] != nil { reader.report(at("leds"), "does not apply to a pie; list its circles in segments, e.g. [24, 16, 12, 1]") }
            if let items = reader.array(m["segments"], at: at("segments")) {
                if items.isEmpty { reader.report(at("segments"), "must list at least one circle, e.g. [24, 16, 12, 1]") }
                for (i, item) in items.enumerated() {
                    if let n = reader.integer(item, at: "\(at("segments"))[\(i)]", in: 1...Segment.maxLEDs) { counts.append(n) }
                }
            } else if m["segments"] == nil {
                reader.report(at("segments"), "missing; a pie lists its circles' LED counts, e.g. [24, 16, 12, 1]")
            }
        } else {
            if m["segments"] != nil { reader.report(at("segments"), "only a pie has segments; give leds for a \(shape.rawValue)") }
            if let n = reader.integer(m["leds"], at: at("leds"), in: 1...Segment.maxLEDs) { counts = [n] }
            if m["leds"] == nil { reader.report(at("leds"), "missing; give the ring's LED count, e.g. 24") }
        }
        let smallest = counts.min() ?? Segment.maxLEDs
        let startLED = reader.integer(m["startLED"], at: at("startLED"), in: 0...(max(smallest, 1) - 1)) ?? 0
        let direction = reader.choice(m["direction"], at: at("direction"), as: Direction.self) ?? .clockwise
        let span = reader.choice(m["span"], at: at("span"), as: GradientSpan.self) ?? .ring
        let gradient = readGradient(m["gradient"], at: at("gradient"), into: &reader)
        let cap = reader.choice(m["cap"], at: at("cap"), as: CapStyle.self) ?? .round
        let capColor = reader.color(m["capColor"], at: at("capColor"))
        let highlight = reader.number(m["highlight"], at: at("highlight"), in: 0...1) ?? Double(RingAppearance.defaultHighlight)
        let headFrom = reader.number(m["headFrom"], at: at("headFrom"), in: 0...1) ?? RingAppearance.defaultHeadFrom
        let shadow = reader.number(m["shadow"], at: at("shadow"), in: 0...1) ?? Double(RingAppearance.defaultShadow)
        // `"laps": false` stops values at one full lap; true (or a style) keeps lapping.
        var clampsAtOneLap = false
        var laps = LapStyle.turn
        switch m["laps"] {
        case .bool(let on)?: clampsAtOneLap = !on
        case let value?: laps = reader.choice(value, at: at("laps"), as: LapStyle.self) ?? .turn
        case nil: break
        }
        let range = readRange(m["range"], at: at("range"), into: &reader)
        let zones = readZones(m["zones"], at: at("zones"), range: range, into: &reader)
        let look = reader.string(m["look"], at: at("look"))
        let track = readTrack(m["track"], at: at("track"), into: &reader)
        var spinner = Spinner()
        if let value = m["spinner"], let s = reader.object(value, at: at("spinner"), known: spinnerKeys) {
            let sp = at("spinner")
            if let arc = reader.number(s["arc"], at: ConfigReader.join(sp, "arc"), in: 0.01...1) { spinner.arc = Float(arc) }
            if let period = reader.number(s["period"], at: ConfigReader.join(sp, "period"), in: 0.05...60) { spinner.period = period }
            if let reverses = reader.bool(s["reverses"], at: ConfigReader.join(sp, "reverses")) { spinner.reverses = reverses }
            if let curve = reader.choice(s["curve"], at: ConfigReader.join(sp, "curve"), as: Curve.self) { spinner.curve = curve }
        }

        guard reader.problems.count == before, let name, !counts.isEmpty else { return nil }
        let appearance = RingAppearance(
            gradient: (gradient ?? defaultGradient(name: name, index: index)).with(span: span),
            track: track ?? .opacity(0.1), cap: cap, capColor: capColor,
            highlight: Float(highlight), shadow: Float(shadow), laps: laps, spinner: spinner)
        var spec = RingSpec(name: name, shape: shape,
                            segments: counts.map { Segment(ledCount: $0, startLED: startLED, direction: direction) },
                            appearance: appearance)
        spec.appearance.zones = zones ?? []
        spec.appearance.headFrom = headFrom
        spec.range = range
        spec.clampsAtOneLap = clampsAtOneLap
        spec.look = look
        return spec
    }

    /// `[min, max]` in the ring's own units, min below max.
    static func readRange(_ value: JSONValue?, at path: String, into reader: inout ConfigReader) -> ValueRange? {
        guard let value else { return nil }
        guard let items = reader.array(value, at: path) else { return nil }
        guard items.count == 2 else {
            reader.report(path, "must be [min, max] in the ring's units, e.g. [400, 2000]")
            return nil
        }
        let limit = 1e12
        guard let low = reader.number(items[0], at: "\(path)[0]", in: -limit...limit),
              let high = reader.number(items[1], at: "\(path)[1]", in: -limit...limit) else { return nil }
        guard low < high else {
            reader.report(path, "min \(Request.shown(low)) must be below max \(Request.shown(high)); write [min, max], e.g. [400, 2000]")
            return nil
        }
        return ValueRange(min: low, max: high)
    }

    /// `[{"upTo": 800, "gradient": "#20ff60"}, …, {"gradient": "#ff2020"}]`: each zone's end in
    /// the ring's units (laps without a range), rising; the last zone needs no end.
    static func readZones(_ value: JSONValue?, at path: String, range: ValueRange?,
                          into reader: inout ConfigReader) -> [ColorZone]? {
        guard let value else { return nil }
        guard let items = reader.array(value, at: path) else { return nil }
        guard !items.isEmpty else {
            reader.report(path, "must list at least one zone, e.g. [{\"upTo\": 800, \"gradient\": \"#20ff60\"}, {\"gradient\": \"#ff2020\"}]")
            return nil
        }
        var zones: [ColorZone] = []
        var previous: Double?
        var bad = false
        for (i, item) in items.enumerated() {
            let zonePath = "\(path)[\(i)]"
            guard let z = reader.object(item, at: zonePath, known: zoneKeys) else { bad = true; continue }
            let last = i == items.count - 1
            var end = Double.infinity
            if let raw = z["upTo"] {
                if let n = reader.number(raw, at: ConfigReader.join(zonePath, "upTo"), in: -1e12...1e12) {
                    if let previous, n <= previous {
                        reader.report(ConfigReader.join(zonePath, "upTo"),
                                      "\(Request.shown(n)) must be above the zone before it (\(Request.shown(previous))); list zones from low to high")
                        bad = true
                    }
                    previous = n
                    if !last { end = range?.laps(n) ?? n }
                } else {
                    bad = true
                }
            } else if !last {
                reader.report(ConfigReader.join(zonePath, "upTo"), "missing; every zone but the last ends at a value, e.g. \"upTo\": 800")
                bad = true
            }
            if z["gradient"] == nil { reader.report(ConfigReader.join(zonePath, "gradient"), "missing; give a colour \"#rrggbb\" or a list") }
            if let gradient = readGradient(z["gradient"], at: ConfigReader.join(zonePath, "gradient"), into: &reader) {
                zones.append(ColorZone(upTo: end, gradient: gradient))
            } else {
                bad = true
            }
        }
        return bad ? nil : zones
    }

    /// `"#rrggbb"` (one colour), or a list of colours (spread evenly) and `{color, location}` stops.
    static func readGradient(_ value: JSONValue?, at path: String, into reader: inout ConfigReader) -> Gradient? {
        guard let value else { return nil }
        if case .string = value { return reader.color(value, at: path).map { Gradient(solid: $0) } }
        guard let items = reader.array(value, at: path) else { return nil }
        if items.isEmpty {
            reader.report(path, "must list at least one colour, e.g. [\"#dd1f3b\", \"#ef3680\"]")
            return nil
        }
        var stops: [GradientStop] = []
        var bad = false
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            let even = items.count > 1 ? Float(i) / Float(items.count - 1) : 0
            if case .object = item {
                guard let s = reader.object(item, at: itemPath, known: stopKeys) else { bad = true; continue }
                if s["color"] == nil { reader.report(ConfigReader.join(itemPath, "color"), "missing; give \"#rrggbb\"") }
                let color = reader.color(s["color"], at: ConfigReader.join(itemPath, "color"))
                let location = reader.number(s["location"], at: ConfigReader.join(itemPath, "location"), in: 0...1)
                if s["location"] != nil && location == nil { bad = true }
                if let color { stops.append(GradientStop(color: color, location: location.map(Float.init) ?? even)) } else { bad = true }
            } else if let color = reader.color(item, at: itemPath) {
                stops.append(GradientStop(color: color, location: even))
            } else {
                bad = true
            }
        }
        guard !bad else { return nil }
        do {
            return try Gradient(stops: stops)
        } catch {
            switch error {
            case .locationsOutOfOrder(let index):
                reader.report("\(path)[\(index)].location", "must not be less than the stop before it, got \(stops[index].location)")
            case .locationOutOfRange(let index, let location):
                reader.report("\(path)[\(index)].location", "must be 0…1, got \(location)")
            case .noStops:
                reader.report(path, "must list at least one colour")
            }
            return nil
        }
    }

    /// `"off"`, an opacity 0…1 of the start colour, or a colour of its own.
    static func readTrack(_ value: JSONValue?, at path: String, into reader: inout ConfigReader) -> Track? {
        guard let value else { return nil }
        switch value {
        case .string("off"): return .off
        case .string(let s) where s.hasPrefix("#"): return reader.color(value, at: path).map(Track.color)
        case .number: return reader.number(value, at: path, in: 0...1).map { .opacity(Float($0)) }
        default:
            reader.report(path, "must be \"off\", an opacity 0…1 or a colour \"#rrggbb\", got \(value.shown)")
            return nil
        }
    }
}
