extension Board {
    /// Everything wrong with this board description, empty when it is usable; checked when a
    /// catalog loads so a bad file fails at start-up with its name, not mid-run.
    public func validationProblems(fileName: String? = nil) -> [String] {
        var problems: [String] = []
        if id.isEmpty || id.contains(where: { !($0.isLowercase || $0.isNumber || $0 == "-") }) {
            problems.append("id \"\(id)\" must be lower-case letters, digits and dashes")
        }
        if let fileName, fileName != "\(id).json" {
            problems.append("file \(fileName) must be named \(id).json after its id")
        }
        if displayName.isEmpty { problems.append("displayName is empty") }
        if isGeneric {
            // A generic file describes a SoC; board strings in it would make an unknown board look known.
            if !id.hasPrefix("generic-") { problems.append("match.soc is only for generic files; name the id generic-<soc>") }
            if !match.compatible.isEmpty || !match.modelPrefixes.isEmpty {
                problems.append("a generic file matches by match.soc only; move its compatible strings and model prefixes to a board file")
            }
        } else if id.hasPrefix("generic-") {
            problems.append("generic file \(id) needs SoC compatible strings in match.soc")
        } else if match.compatible.isEmpty && match.modelPrefixes.isEmpty {
            problems.append("match needs at least one compatible string or model prefix")
        }
        if match.compatible.contains(where: { $0.isEmpty }) || match.modelPrefixes.contains(where: { $0.isEmpty })
            || match.soc.contains(where: { $0.isEmpty }) {
            problems.append("match contains an empty string, which would match every board")
        }
        if configFiles.isEmpty || configFiles.contains(where: { !$0.hasPrefix("/") }) {
            problems.append("configFiles must list absolute paths")
        }
        for filter in (configFilters ?? []) + configFiltersMaybe where !BootConfig.modelFilters.contains(filter) {
            problems.append("config filter \"\(filter)\" is not a config.txt model filter (\(BootConfig.modelFilters.joined(separator: ", ")))")
        }
        if configFilters == nil && !configFiltersMaybe.isEmpty {
            problems.append("configFiltersMaybe needs configFilters (a board without sections has no maybe filters)")
        }
        if let filters = configFilters, let both = configFiltersMaybe.first(where: filters.contains) {
            problems.append("config filter \"\(both)\" is in both configFilters and configFiltersMaybe")
        }
        if gpioChipLabels.isEmpty { problems.append("gpioChipLabels is empty") }
        if spi.isEmpty && pio == nil { problems.append("the board has neither an SPI port nor a PIO output") }
        for port in spi where !port.device.hasPrefix("/dev/spidev") || port.bus < 0 || port.chipSelect < 0 {
            problems.append("SPI port \(port.device) must be a /dev/spidev node with non-negative bus and chip select")
        }
        if spiClock.minDivider == 0 || spiClock.maxDivider < spiClock.minDivider {
            problems.append("spiClock divider range \(spiClock.minDivider)...\(spiClock.maxDivider) is empty or starts at 0")
        }
        if let low = spiClock.sourceMinHz, let high = spiClock.sourceHz, low > high {
            problems.append("spiClock.sourceMinHz \(low) is above sourceHz \(high)")
        }
        if let core = coreClock, core.defaultMinMHz > core.defaultMHz || core.recommendedMHz <= 0 {
            problems.append("coreClock defaults \(core.defaultMinMHz)...\(core.defaultMHz) MHz are inconsistent")
        }
        if let pio, !pio.device.hasPrefix("/dev/") || pio.bytesPerLED <= 0 {
            problems.append("pio output \(pio.device) must be a /dev node with a positive bytesPerLED")
        }
        if sources.isEmpty { problems.append("sources is empty; say where the facts came from") }
        return problems
    }
}
