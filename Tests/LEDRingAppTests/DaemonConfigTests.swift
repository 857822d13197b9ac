import Foundation
import LEDWire
import RingModel
import Testing
@testable import LEDRingApp

@Suite struct DaemonConfigTests {
    func parse(_ json: String) throws(ConfigError) -> DaemonConfig {
        try DaemonConfig.parse(Array(json.utf8), file: "test.json")
    }

    func problems(_ json: String) -> [String] { DaemonConfig.problems(json) }

    static var examplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/config.json").path
    }

    @Test func theDocumentedExampleIsValid() throws {
        let config = try DaemonConfig.load(path: Self.examplePath)
        #expect(config.layout.rings.map(\.name) == ["move", "exercise", "stand", "queue"])
        #expect(config.layout.ledCount == 24 + 16 + 12 + 9)
        #expect(config.output.driver == .ws2812SPI)
        #expect(config.output.spiHz == 3_600_000)
        #expect(config.color.brightness == 0.5 && config.fps == 30 && config.color.maxMilliamps == 2000)
        #expect(config.socket == SocketConfig(path: "/run/ledring/ledring.sock", mode: 0o660))
        #expect(config.gpio.power == GPIOConfig.Power(line: 17, activeLow: false))
        #expect(config.gpio.encoder?.ring == "move")
        #expect(config.http?.port == 8080 && config.http?.address == "127.0.0.1")
        #expect(config.mqtt?.device == "kitchen" && config.mqtt?.resolvedBaseTopic == "ledring/kitchen")
        let exercise = config.layout.rings[1]
        #expect(exercise.segments[0].startLED == 8 && exercise.segments[0].direction == .counterClockwise)
        #expect(exercise.appearance.cap == .square)
        #expect(exercise.appearance.gradient.stops.map(\.location) == [0, 0.8])
        #expect(exercise.appearance.track == .color(RGB8(r: 0x10, g: 0x20, b: 0)))
        let stand = config.layout.rings[2]
        #expect(stand.appearance.track == .off && stand.appearance.gradient.span == .fill)
        #expect(config.layout.rings[3].shape == .pie && config.layout.rings[3].segments.map(\.ledCount) == [8, 1])
    }

    /// What `--white`, `--hdr` and a fractional `--max-milliamps` do, the config file can say too,
    /// so a service user need not edit the unit's ExecStart; the command line still wins.
    @Test func whiteHDRAndAFractionalBudgetComeFromTheFile() throws {
        let config = try parse(#"{"white": "accurate", "hdr": true, "maxMilliamps": 300.4}"#)
        let settings = FrameSettings(config: config, color: ColorOptions(), fps: 30)
        #expect(settings.white == WhiteExtraction(named: "accurate") && settings.hdr && settings.maxMilliamps == 300.4)
        var line = ColorOptions()
        line.white = WhiteExtraction(named: "min")
        #expect(FrameSettings(config: config, color: line, fps: 30).white == WhiteExtraction(named: "min"))
        #expect(problems(#"{"white": "bright", "hdr": 1}"#) == [
            #"white: must be one of none, min, accurate, accurate-warm, accurate-neutral, accurate-cold, got "bright""#,
            "hdr: must be true or false, got 1"])
    }

    @Test func lapsShadowAndHighlightDefaultToTheLookInTheREADME() throws {
        let config = try parse(#"{"rings": [{"name": "a", "leds": 12}, {"name": "b", "leds": 12, "laps": "alternate", "shadow": 0.5}]}"#)
        let a = config.layout.rings[0].appearance, b = config.layout.rings[1].appearance
        #expect(a.laps == .turn && a.shadow == RingAppearance.defaultShadow && a.highlight == RingAppearance.defaultHighlight)
        #expect(b.laps == .alternate && b.shadow == 0.5)
        #expect(problems(#"{"rings": [{"name": "a", "leds": 12, "laps": "spiral"}]}"#).count == 1)
    }

    @Test func anEmptyObjectIsTheDefaultActivityRings() throws {
        let config = try parse("{}")
        #expect(config.layout.rings.map(\.name) == ["move", "exercise", "stand"])
        #expect(config.output.driver == nil && config.fps == 30 && config.socket.mode == 0o660)
    }

    @Test func everyProblemIsReportedAtOnceWithItsPath() {
        let found = problems("""
        {"rings": [{"name": "move", "leds": 24},
                   {"name": "exercise", "leds": 0, "cap": "pointy", "colour": "#ff0000"},
                   {"name": "move", "leds": 12}],
         "brightness": 2, "fps": "fast", "verbose": true,
         "output": {"driver": "ws2811", "spiHz": 12.5},
         "socket": {"mode": 660}}
        """)
        #expect(found.contains("rings[1].leds: must be 1…1024, got 0"))
        #expect(found.contains { $0.hasPrefix("rings[1].cap: must be one of round, square, got \"pointy\"") })
        #expect(found.contains { $0.hasPrefix("rings[1].colour: unknown key") })
        #expect(found.contains { $0.hasPrefix("rings[2].name: \"move\" is already the name of rings[0]") })
        #expect(found.contains("brightness: must be 0…1, got 2"))
        #expect(found.contains { $0.hasPrefix("fps: must be a number 1…240, got \"fast\"") })
        #expect(found.contains { $0.hasPrefix("verbose: unknown key") })
        #expect(found.contains { $0.hasPrefix("output.driver: must be one of ws2812-spi") })
        #expect(found.contains { $0.hasPrefix("output.spiHz: must be a whole number") })
        #expect(found.contains { $0.hasPrefix("socket.mode: must be an octal mode as a string") })
        #expect(found.count == 10)
    }

    @Test(arguments: [
        (##"{"rings": []}"##, "rings: must list at least one ring"),
        (##"{"rings": [{"leds": 3}]}"##, "rings[0].name: missing"),
        (##"{"rings": [{"name": "1st", "leds": 3}]}"##, "rings[0].name: must be letters"),
        (##"{"rings": [{"name": "a"}]}"##, "rings[0].leds: missing"),
        (##"{"rings": [{"name": "a", "leds": 2.5}]}"##, "rings[0].leds: must be a whole number 1…1024, got 2.5"),
        (##"{"rings": [{"name": "a", "leds": 8, "startLED": 8}]}"##, "rings[0].startLED: must be 0…7, got 8"),
        (##"{"rings": [{"name": "a", "shape": "pie", "leds": 8}]}"##, "rings[0].leds: does not apply to a pie"),
        (##"{"rings": [{"name": "a", "shape": "pie", "segments": [8, 0]}]}"##, "rings[0].segments[1]: must be 1…1024, got 0"),
        (##"{"rings": [{"name": "a", "leds": 8, "gradient": ["#ff0000", "red"]}]}"##, "rings[0].gradient[1]: must be a colour \"#rrggbb\", got \"red\""),
        (##"{"rings": [{"name": "a", "leds": 8, "gradient": [{"color": "#ff0000", "location": 0.5}, {"color": "#00ff00", "location": 0.2}]}]}"##,
         "rings[0].gradient[1].location: must not be less than the stop before it"),
        (##"{"rings": [{"name": "a", "leds": 8, "track": "dim"}]}"##, "rings[0].track: must be \"off\", an opacity 0…1 or a colour"),
        (##"{"rings": [{"name": "a", "leds": 8, "spinner": {"period": 0}}]}"##, "rings[0].spinner.period: must be 0.05…60, got 0"),
        (##"{"gamma": null}"##, "gamma: must be a number 1…4, got null"),
        (##"{"output": {"order": "GRX"}}"##, "output.order:"),
        (##"{"output": {"board": "rpi9"}}"##, "output.board: must be one of auto, beaglebone-black"),
        (##"{"output": {"format": "ansi"}}"##, "output.format: must be one of text, json, svg (ansi draws on a terminal"),
        (##"{"gpio": {"encoder": {"a": 5, "b": 5, "ring": "nope"}}}"##, "gpio.encoder.ring: no ring called \"nope\""),
        (##"{"gpio": {"power": {"line": -1}}}"##, "gpio.power.line: must be 0…1023, got -1"),
        (##"{"socket": {"path": "/run/ledring/"}}"##, "socket.path: names a directory"),
        (##"{"state": 5}"##, "state: must be a non-empty string, got 5"),
        (##"[1, 2]"##, "must be an object {…}, got [1, 2]"),
        (##"{"rings": [{"name": "a", "leds": 8},"##, "not valid JSON"),
    ])
    func badValuesAreNamed(json: String, expected: String) {
        let found = problems(json)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test func networkSectionsAreOptionalAndCheckedWithTheRestOfTheFile() throws {
        let plain = try parse("{}")
        #expect(plain.http == nil && plain.mqtt == nil)
        let config = try parse(##"{"http": {"port": 0, "token": "s3cret"}, "mqtt": {"host": "broker", "port": 1884, "qos": 0}}"##)
        #expect(config.http?.port == 0 && config.http?.token == "s3cret")
        #expect(config.mqtt?.host == "broker" && config.mqtt?.port == 1884 && config.mqtt?.qos == 0)
        let found = problems(##"{"fps": 0, "http": {"port": 70000, "bogus": 1}, "mqtt": {"qos": 3, "tls": {}}, "mqttt": {}}"##)
        #expect(found.contains("fps: must be 1…240, got 0"))
        #expect(found.contains("http.port: must be 0…65535, got 70000"))
        #expect(found.contains { $0.hasPrefix("http.bogus: unknown key") })
        #expect(found.contains("mqtt.qos: must be 0…2, got 3"))
        #expect(found.contains { $0.hasPrefix("mqtt.tls.caFile: is required") })
        #expect(found.contains { $0.hasPrefix("mqttt: unknown key") })
        #expect(problems(##"{"http": 8080}"##) == ["http: must be an object {…}, got 8080"])
    }

    @Test func booleansAreNotNumbersAndNumbersAreNotBooleans() {
        #expect(problems(##"{"fps": true}"##) == ["fps: must be a number 1…240, got true"])
        #expect(problems(##"{"gpio": {"power": {"line": 3, "activeLow": 1}}}"##) == ["gpio.power.activeLow: must be true or false, got 1"])
    }

    @Test func aSingleColourGradientIsSolidAndListsSpreadEvenly() throws {
        let config = try parse(##"{"rings": [{"name": "a", "leds": 8, "gradient": "#102030"}, {"name": "b", "leds": 8, "gradient": ["#000000", "#808080", "#ffffff"]}]}"##)
        #expect(config.layout.rings[0].appearance.gradient.stops.allSatisfy { $0.color == RGB8(r: 0x10, g: 0x20, b: 0x30) })
        #expect(config.layout.rings[1].appearance.gradient.stops.map(\.location) == [0, 0.5, 1])
    }

    @Test func theErrorMessageNamesTheFileOnEveryLine() {
        do {
            _ = try parse(##"{"fps": 0, "gamma": 9}"##)
            Issue.record("expected an error")
        } catch {
            #expect(Set(error.description.split(separator: "\n")) == ["test.json: fps: must be 1…240, got 0", "test.json: gamma: must be 1…4, got 9"])
            #expect(error.commandError.code == .config)
        }
    }
}
