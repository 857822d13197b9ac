import LEDJSON
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import LEDRingNetTesting
import RingModel
import Synchronization
import Testing

/// look, notify and timer through HTTP routes and MQTT topics (the real broker), checked in the
/// frames the real controller draws on its test clock.
@Suite(.serialized) struct LookNotifyTimerNetTests {
    static func control() throws -> RecordingRingControl {
        var rings = Palette.activityRings()
        rings[2].range = ValueRange(min: 400, max: 2000)
        var layout = try RingLayout(rings: rings)
        layout.looks = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32)), effect: .pulse(period: 2)),
                        Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96)))]
        return RecordingRingControl(layout: layout)
    }

    static func isGreen(_ hex: String?) -> Bool { hex.flatMap { RGB8(hex: $0) }.map { $0.g > 100 && $0.r < 60 } ?? false }
    static func isBlue(_ hex: String?) -> Bool { hex.flatMap { RGB8(hex: $0) }.map { $0.b > 100 && $0.r < 60 && $0.g < 60 } ?? false }

    func route(_ control: RecordingRingControl, _ path: String, _ body: String) -> HTTPResponse? {
        let headers = body.hasPrefix("{") ? ["Content-Type": ["application/json"]] : [:]
        guard case .response(let r) = HTTPRouter(control: control, token: nil)
            .route(HTTPRequest(method: "POST", path: path, authorization: nil, body: Array(body.utf8), headers: headers)) else { return nil }
        return r
    }

    /// Messages on a source's topic go to the daemon's sources, retained ones too (a retained
    /// value is the latest); a topic that is also one of ours still acts as a command.
    @Test func sourceTopicsGoToTheSources() throws {
        let control = try Self.control()
        var settings = MQTTSettings()
        settings.device = "test"
        let got = Mutex<[(Int, String, Bool)]>([])
        let bridge = MQTTBridge(settings: settings, control: control, sourceTopics: ["octoPrint/event/#", "ledring/test/+/set"],
                                onSource: { k, payload, retained in
                                    got.withLock { $0.append((k, String(decoding: payload, as: UTF8.self), retained)) }
                                },
                                log: { _ in })
        bridge.received(topic: "octoPrint/event/PrintDone", payload: Array("done".utf8), retained: true)
        bridge.received(topic: "octoPrint/progress", payload: Array("5".utf8))
        bridge.received(topic: "ledring/test/move/set", payload: Array("0.5".utf8))
        // The retained one says so: its value counts, its notification does not (SourcePoller).
        #expect(got.withLock { $0.map { "\($0.0) \($0.1) \($0.2)" } } == ["0 done true", "1 0.5 false"])
        #expect(control.controller.states[0].target == 0.5, "our own command topic still sets the ring")
        var subscribed: [String] = []
        bridge.connected(subscribe: { subscribed = $0 }, publish: { _ in true })
        #expect(subscribed.contains("octoPrint/event/#") && subscribed.filter { $0 == "ledring/test/+/set" }.count == 1)
    }

    @Test func httpRoutes() throws {
        let control = try Self.control()
        #expect(route(control, "/api/rings/move", "1")?.status == 200)
        #expect(route(control, "/api/rings/move/look", "passed")?.status == 200)
        #expect(Self.isGreen(control.snapshot().ring(named: "move")?.leds[5]))
        #expect(route(control, "/api/rings/move/look", #"{"look":"sparkly"}"#)?.status == 400)
        #expect(route(control, "/api/rings/stand", "1200")?.status == 200, "a ranged ring takes its own units over HTTP")
        #expect(control.controller.states[2].target == 0.5)
        let before = control.snapshot().rings.map(\.leds)
        #expect(route(control, "/api/notify", ##"{"rings":["move"],"color":"#0000ff","for":"2s"}"##)?.status == 200)
        #expect(Self.isBlue(control.snapshot().ring(named: "move")?.leds[5]))
        #expect(route(control, "/api/notify", ##"{"color":"#0000ff"}"##)?.status == 400)
        control.advance(by: 2)
        #expect(control.snapshot().rings.map(\.leds) == before)
        #expect(route(control, "/api/rings/exercise/timer", #"{"duration":"10s","then":"passed"}"#)?.status == 200)
        control.advance(by: 5)
        #expect(control.snapshot().ring(named: "exercise")?.value == 0.5)
        #expect(route(control, "/api/rings/exercise/timer", #"{"action":"pause"}"#)?.status == 200)
        #expect(route(control, "/api/rings/exercise/timer", #"{"duration":-1}"#)?.status == 400)
        // A timer whose end shows a notification, over HTTP as over the socket.
        #expect(route(control, "/api/rings/move/timer", ##"{"duration":"2s","notify":{"color":"#0000ff","value":1,"for":"3s"}}"##)?.status == 200)
        control.advance(by: 2.5)
        #expect(Self.isBlue(control.snapshot().ring(named: "move")?.leds[5]))
    }

    /// GET /api/state parsed, and the event stream's `data:` line for the same moment.
    func state(_ control: RecordingRingControl) throws -> (state: JSONValue, event: JSONValue) {
        guard case .response(let r) = HTTPRouter(control: control, token: nil)
            .route(HTTPRequest(method: "GET", path: "/api/state", authorization: nil, body: [], headers: [:])) else {
            Issue.record("GET /api/state did not answer")
            return (.null, .null)
        }
        #expect(r.status == 200)
        let event = String(decoding: HTTPServing.event(control.snapshot()), as: UTF8.self)
        let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
        return (try JSONValue.parse(r.body), try JSONValue.parse(String(data)))
    }

    @Test func stateCarriesTimersLooksAndTheirNames() throws {
        let control = try Self.control()
        #expect(route(control, "/api/rings/exercise/timer", #"{"duration":"10m","then":"passed"}"#)?.status == 200)
        #expect(route(control, "/api/rings/stand/timer", #"{"duration":"90","up":true}"#)?.status == 200)
        #expect(route(control, "/api/rings/move/look", "failed")?.status == 200)
        control.advance(by: 12.34)
        for json in [try state(control).state, try state(control).event] {
            #expect(json["looks"] == .array([.string("failed"), .string("passed")]))
            let rings = try #require(json["rings"]?.items)
            #expect(rings[0]["look"] == .string("failed"))
            #expect(rings[0]["timer"] == nil, "a ring without a timer has no timer key")
            #expect(rings[1]["look"] == nil, "a ring in its own picture has no look key")
            #expect(rings[1]["timer"] == .object([("duration", .number(600)), ("left", .number(587.7)), ("paused", .bool(false)),
                                                  ("then", .string("passed")), ("up", .bool(false))]))
            #expect(rings[2]["timer"] == .object([("duration", .number(90)), ("left", .number(77.7)), ("paused", .bool(false)),
                                                  ("up", .bool(true))]))
        }
        // Paused, the time left stays where it was however long it waits.
        #expect(route(control, "/api/rings/exercise/timer", #"{"action":"pause"}"#)?.status == 200)
        control.advance(by: 100)
        let paused = try #require(try state(control).state["rings"]?.items?[1]["timer"])
        #expect(paused["paused"] == .bool(true))
        #expect(paused["left"] == .number(587.7))
        #expect(route(control, "/api/rings/exercise/timer", #"{"action":"resume"}"#)?.status == 200)
        control.advance(by: 7.7)
        #expect(try state(control).state["rings"]?.items?[1]["timer"]?["left"] == .number(580))
        #expect(route(control, "/api/rings/exercise/timer", #"{"action":"cancel"}"#)?.status == 200)
        #expect(try state(control).state["rings"]?.items?[1]["timer"] == nil)
    }

    @Test(.enabled(if: MQTTBridge.isAvailable)) func mqttTopics() throws {
        let broker = try MosquittoBroker()
        let control = try Self.control()
        let settings = MQTTBridgeTests.settings(broker)
        let bridge = MQTTBridge(settings: settings, control: control, log: { _ in })
        try bridge.start()
        defer { bridge.stop() }
        #expect(eventually { bridge.isConnected })
        try broker.publish("ledring/test/move/set", "1")
        try broker.publish("ledring/test/move/look", "passed")
        #expect(eventually { Self.isGreen(control.snapshot().ring(named: "move")?.leds[5]) })
        try broker.publish("ledring/test/stand/set", "1200")
        #expect(eventually { control.controller.states[2].target == 0.5 })
        let before = control.snapshot().rings.map(\.leds)
        try broker.publish("ledring/all/notify", "move color #0000ff for 2s priority 3")
        #expect(eventually { Self.isBlue(control.snapshot().ring(named: "move")?.leds[5]) })
        control.advance(by: 2)
        #expect(control.snapshot().rings.map(\.leds) == before)
        try broker.publish("ledring/test/exercise/timer", "10s up")
        #expect(eventually { control.controller.timers[1] != nil })
        control.advance(by: 5)
        #expect(control.snapshot().ring(named: "exercise")?.value == 0.5)
    }
}
