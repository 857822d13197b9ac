import RingModel
import Testing
@testable import LEDRingApp

/// The config's `range`, `zones`, `looks` and `look`: read in the ring's own units, and every
/// mistake one problem with its path and the fix (the config is then refused whole).
@Suite struct LooksConfigTests {
    func problems(_ json: String) -> [String] { DaemonConfig.problems(json) }

    static let good = ##"""
    {"looks": {"failed": {"gradient": "#ff2020", "effect": "pulse", "period": "1.5s"},
               "passed": {"gradient": ["#20ff60", "#60ffa0"]}, "running": {"effect": "flash 2", "fill": "value"}},
     "rings": [{"name": "co2", "leds": 12, "range": [400, 2000], "laps": false,
                "zones": [{"upTo": 800, "gradient": "#20ff60"}, {"upTo": 1200, "gradient": "#ffa020"}, {"gradient": "#ff2020"}]},
               {"name": "build", "leds": 16, "look": "running"}]}
    """##

    @Test func rangesZonesAndLooksAreRead() throws {
        let config = try DaemonConfig.parse(Array(Self.good.utf8))
        let co2 = config.layout.rings[0]
        #expect(co2.range == ValueRange(min: 400, max: 2000) && co2.clampsAtOneLap)
        #expect(co2.appearance.zones.map(\.upTo) == [0.25, 0.5, .infinity], "zone ends in laps of the range")
        #expect(config.layout.rings[1].look == "running")
        #expect(config.layout.looks.map(\.name) == ["failed", "passed", "running"])
        #expect(config.layout.looks[0].effect == .pulse(period: 1.5) && config.layout.looks[0].gradient != nil)
        #expect(config.layout.looks[2].effect == .flash(count: 2, period: Effect.defaultFlashPeriod))
        #expect(config.layout.looks[2].gradient == nil)
        // A look is a status over the whole ring unless it says it tints the value.
        #expect(config.layout.looks.map(\.fill) == [.ring, .ring, .value])
    }

    @Test(arguments: [
        (##"{"rings": [{"name": "a", "leds": 8, "range": [2000, 400]}]}"##,
         "rings[0].range: min 2000 must be below max 400; write [min, max], e.g. [400, 2000]"),
        (##"{"rings": [{"name": "a", "leds": 8, "range": [5, 5]}]}"##, "rings[0].range: min 5 must be below max 5"),
        (##"{"rings": [{"name": "a", "leds": 8, "range": [5]}]}"##, "rings[0].range: must be [min, max]"),
        (##"{"rings": [{"name": "a", "leds": 8, "zones": [{"upTo": 0.8, "gradient": "#00ff00"}, {"upTo": 0.5, "gradient": "#ff0000"}, {"gradient": "#ff0000"}]}]}"##,
         "rings[0].zones[1].upTo: 0.5 must be above the zone before it (0.8); list zones from low to high"),
        (##"{"rings": [{"name": "a", "leds": 8, "zones": [{"gradient": "#00ff00"}, {"gradient": "#ff0000"}]}]}"##,
         "rings[0].zones[0].upTo: missing; every zone but the last ends at a value"),
        (##"{"looks": {"x": {"effect": "sparkle"}}, "rings": [{"name": "a", "leds": 8}]}"##,
         "looks.x.effect: effect \"sparkle\": unknown; use one of pulse, blink, flash N, none"),
        (##"{"looks": {"x": {"effect": "flash 0"}}, "rings": [{"name": "a", "leds": 8}]}"##,
         "looks.x.effect: effect \"flash 0\": give how many flashes, 1…100, e.g. flash 3"),
        (##"{"looks": {"x": {"effect": "pulse", "period": -1}}, "rings": [{"name": "a", "leds": 8}]}"##,
         "looks.x.period: period -1: must be seconds"),
        (##"{"looks": {"default": {"gradient": "#ff0000"}}, "rings": [{"name": "a", "leds": 8}]}"##,
         "looks.default: a look's name must be letters, digits, - and _ (not default or none)"),
        (##"{"looks": {"x": {}}, "rings": [{"name": "a", "leds": 8}]}"##, "looks.x: gives neither a gradient nor an effect"),
        (##"{"looks": {"x": {"effect": "pulse", "fill": "progress"}}, "rings": [{"name": "a", "leds": 8}]}"##,
         "looks.x.fill: must be \"ring\" (every LED, seen whatever the value; the default) or \"value\" (only the value's fill), got \"progress\""),
        (##"{"looks": {"x": {"effect": "pulse"}}, "rings": [{"name": "a", "leds": 8, "look": "y"}]}"##,
         "rings[0].look: no look called \"y\"; the looks are x"),
    ])
    func mistakesAreOneProblemWithThePathAndTheFix(json: String, expected: String) {
        let found = problems(json)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
    }
}
