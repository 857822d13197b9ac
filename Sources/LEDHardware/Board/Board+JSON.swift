import LEDJSON

/// Board files are read with LEDJSON's reader, so a bad file lists every problem with its path
/// (`spi[0].mosi.header: missing`), unknown keys included (a typo would otherwise hide a fact).
extension Board {
    /// Reads a board document; nil when something was wrong (the reader says what).
    static func read(_ value: JSONValue, into reader: inout JSONReader) -> Board? {
        let before = reader.reported
        guard let m = reader.object(value, at: "", known: ["id", "displayName", "match", "configFiles", "configFilters",
                                                            "configFiltersMaybe", "gpioChipLabels",
                                                            "spi", "spiClock", "coreClock", "pio", "quirks", "sources", "unverified"])
        else { return nil }
        var fields = Fields(m, at: "", reader: reader)
        let id = fields.string("id")
        let displayName = fields.string("displayName")
        let match = fields.object("match", known: ["compatible", "modelPrefixes", "soc"]) { f in
            Match(compatible: f.strings("compatible") ?? [], modelPrefixes: f.strings("modelPrefixes") ?? [],
                  soc: f.strings("soc", optional: true) ?? [])
        }
        let configFiles = fields.strings("configFiles")
        let configFilters = fields.strings("configFilters", optional: true)
        let configFiltersMaybe = fields.strings("configFiltersMaybe", optional: true)
        let gpioChipLabels = fields.strings("gpioChipLabels")
        let spi = fields.list("spi", known: ["device", "bus", "chipSelect", "mosi", "sclk", "enable"]) { f in
            SPIPort(device: f.string("device") ?? "", bus: f.integer("bus") ?? 0, chipSelect: f.integer("chipSelect") ?? 0,
                    mosi: f.pin("mosi") ?? Pin(header: "", name: ""), sclk: f.pin("sclk") ?? Pin(header: "", name: ""),
                    enable: f.string("enable") ?? "")
        }
        let spiClock = fields.object("spiClock", known: ["rule", "sourceHz", "sourceMinHz", "minDivider", "maxDivider", "note"]) { f in
            SPIClock(rule: f.choice("rule", as: SPIClock.DividerRule.self) ?? .evenDivider,
                     sourceHz: f.hertz("sourceHz", optional: true), sourceMinHz: f.hertz("sourceMinHz", optional: true),
                     minDivider: f.hertz("minDivider") ?? 1, maxDivider: f.hertz("maxDivider") ?? 1, note: f.string("note") ?? "")
        }
        let coreClock = fields.object("coreClock", optional: true,
                                      known: ["key", "minKey", "defaultMHz", "defaultMinMHz", "recommendedMHz",
                                              "enableUARTFixesAtMHz", "hdmi4kp60MaxMHz"]) { f in
            CoreClock(key: f.string("key") ?? "", minKey: f.string("minKey") ?? "", defaultMHz: f.integer("defaultMHz") ?? 0,
                      defaultMinMHz: f.integer("defaultMinMHz") ?? 0, recommendedMHz: f.integer("recommendedMHz") ?? 0,
                      enableUARTFixesAtMHz: f.integer("enableUARTFixesAtMHz", optional: true),
                      hdmi4kp60MaxMHz: f.integer("hdmi4kp60MaxMHz", optional: true))
        }
        let pio = fields.object("pio", optional: true, known: ["device", "overlay", "bytesPerLED"]) { f in
            PIOOutput(device: f.string("device") ?? "", overlay: f.string("overlay") ?? "", bytesPerLED: f.integer("bytesPerLED") ?? 0)
        }
        let quirks = fields.list("quirks", known: ["summary", "fix"]) { f in
            Quirk(summary: f.string("summary") ?? "", fix: f.string("fix") ?? "")
        }
        let sources = fields.strings("sources")
        let unverified = fields.strings("unverified")
        reader = fields.reader
        guard reader.reported == before, let id, let displayName, let match, let configFiles, let gpioChipLabels, let spi,
              let spiClock, let quirks, let sources, let unverified else { return nil }
        return Board(id: id, displayName: displayName, match: match, configFiles: configFiles, configFilters: configFilters,
                     configFiltersMaybe: configFiltersMaybe ?? [], gpioChipLabels: gpioChipLabels,
                     spi: spi, spiClock: spiClock, coreClock: coreClock, pio: pio, quirks: quirks, sources: sources,
                     unverified: unverified)
    }

    /// The members of one object of a board file and the reader their problems go to.
    struct Fields {
        let members: JSONMembers
        let path: String
        var reader: JSONReader

        init(_ members: JSONMembers, at path: String, reader: JSONReader) {
            self.members = members
            self.path = path
            self.reader = reader
        }

        func at(_ key: String) -> String { JSONReader.join(path, key) }

        /// The value of `key`; a missing required key is reported, `null` counts as missing.
        mutating func value(_ key: String, optional: Bool) -> JSONValue? {
            guard let value = members[key], !value.isNull else {
                if !optional { reader.report(at(key), "missing") }
                return nil
            }
            return value
        }

        mutating func string(_ key: String) -> String? {
            reader.string(value(key, optional: false), at: at(key))
        }

        mutating func integer(_ key: String, optional: Bool = false) -> Int? {
            reader.integer(value(key, optional: optional), at: at(key), in: 0...1_000_000)
        }

        mutating func hertz(_ key: String, optional: Bool = false) -> UInt32? {
            // Int32.max, not UInt32.max: the range must fit a 32-bit Pi's Int (no SPI source clock is near 2 GHz).
            reader.integer(value(key, optional: optional), at: at(key), in: 0...Int(Int32.max)).map { UInt32($0) }
        }

        mutating func strings(_ key: String, optional: Bool = false) -> [String]? {
            guard let value = value(key, optional: optional) else { return nil }
            return reader.strings(value, at: at(key), example: "\"text\"")
        }

        mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) -> T? where T.RawValue == String {
            reader.choice(value(key, optional: false), at: at(key), as: type)
        }

        mutating func pin(_ key: String) -> Pin? {
            object(key, known: ["header", "name"]) { f in Pin(header: f.string("header") ?? "", name: f.string("name") ?? "") }
        }

        /// An object read by `build` with its own fields.
        mutating func object<T>(_ key: String, optional: Bool = false, known: [String], _ build: (inout Fields) -> T) -> T? {
            guard let value = value(key, optional: optional) else { return nil }
            return read(value, at: at(key), known: known, build)
        }

        /// A list of objects, each read by `build`.
        mutating func list<T>(_ key: String, known: [String], _ build: (inout Fields) -> T) -> [T]? {
            guard let items = reader.array(value(key, optional: false), at: at(key)) else { return nil }
            var out: [T] = []
            for (i, item) in items.enumerated() {
                if let built = read(item, at: JSONReader.join(at(key), index: i), known: known, build) { out.append(built) }
            }
            return out.count == items.count ? out : nil
        }

        private mutating func read<T>(_ value: JSONValue, at path: String, known: [String], _ build: (inout Fields) -> T) -> T? {
            guard let members = reader.object(value, at: path, known: known) else { return nil }
            var inner = Fields(members, at: path, reader: reader)
            let built = build(&inner)
            reader = inner.reader
            return built
        }
    }
}
