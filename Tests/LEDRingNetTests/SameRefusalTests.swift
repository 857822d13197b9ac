import Foundation
import LEDRingControl
import LEDRingControlTesting
import Synchronization
import Testing
@testable import LEDRingNet

/// One mistake, one answer: the socket, HTTP and MQTT refuse the same bad input with the same
/// words (they all go through `Request`'s one check) and change nothing.
@Suite struct SameRefusalTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var what: String
        var socket: String
        var http: (path: String, body: String)
        var mqtt: (topic: String, payload: String)
        var message: String
        var testDescription: String { what }
    }

    static let cases: [Case] = [
        Case(what: "unknown ring", socket: "set nope 0.5", http: ("/api/rings/nope", "0.5"), mqtt: ("ledring/test/nope/set", "0.5"),
             message: "no ring called \"nope\"; the rings are move, exercise, stand"),
        Case(what: "value 101 laps", socket: "set move 101", http: ("/api/rings/move", "101"), mqtt: ("ledring/test/move/set", "101"),
             message: "move 101: must be 0…100 (0 % to 10 000 %); 1 is one lap, e.g. 0.8 or 80%"),
        Case(what: "negative duration", socket: #"{"verb":"set","rings":{"move":0.5},"duration":-1}"#,
             http: ("/api/rings/move", #"{"value":0.5,"duration":-1}"#), mqtt: ("ledring/test/move/set", #"{"value":0.5,"duration":-1}"#),
             message: "duration -1: must be seconds from 0 to 3600, e.g. 1.5, 90s or 1m30s"),
        Case(what: "negative duration (text)", socket: "set move 0.5 duration -1",
             http: ("/api/rings/move", #"{"value":"50%","duration":-1}"#), mqtt: ("ledring/test/move/set", #"{"value":"50%","duration":-1}"#),
             message: "duration -1: must be seconds from 0 to 3600, e.g. 1.5, 90s or 1m30s"),
        Case(what: "brightness 2", socket: "brightness 2", http: ("/api/brightness", "2"), mqtt: ("ledring/test/brightness", "2"),
             message: "brightness 2: must be 0…1 (or 0%…100%)"),
        Case(what: "a colour look with a short colour", socket: "look move #ff00", http: ("/api/rings/move/look", "#ff00"),
             mqtt: ("ledring/test/move/look", "#ff00"),
             message: "look \"#ff00\": a colour look is #rrggbb, optionally with none, pulse, blink, e.g. #ff2020 pulse"),
        Case(what: "unknown ring's light", socket: "power off nope", http: ("/api/rings/nope/power", "off"), mqtt: ("ledring/test/nope/light", "OFF"),
             message: "no ring called \"nope\"; the rings are move, exercise, stand"),
    ]

    /// The socket's path: parse the line, then apply it as the daemon's loop does.
    func socket(_ line: String) -> (message: String?, changed: Bool) {
        var controller = Controller(names: ["move", "exercise", "stand"], brightness: 1)
        let before = controller.report(at: 0)
        do {
            let outcome = controller.apply(try Request.parse(line), at: 0, status: { fatalError("no status here") })
            guard case .error(let message) = outcome.reply else { return (nil, true) }
            return (message, outcome.changed || controller.report(at: 0) != before)
        } catch {
            return (error.message, false)
        }
    }

    @Test(arguments: SameRefusalTests.cases)
    func theSameMistakeGetsTheSameAnswerEverywhere(_ c: Case) throws {
        let (socketMessage, socketChanged) = socket(c.socket)
        #expect(socketMessage == c.message, "socket")
        #expect(!socketChanged)

        let http = try RecordingRingControl()
        let before = http.snapshot()
        let router = HTTPRouter(control: http, token: nil)
        let headers = c.http.body.hasPrefix("{") ? ["Content-Type": ["application/json"]] : [:]
        guard case .response(let response) = router.route(HTTPRequest(method: "POST", path: c.http.path, authorization: nil,
                                                                      body: Array(c.http.body.utf8), headers: headers)) else {
            Issue.record("no response")
            return
        }
        let body = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
        #expect(body?["error"] == c.message, "HTTP")
        #expect(response.status == (c.message.hasPrefix("no ring called") ? 404 : 400))
        #expect(http.commands.isEmpty && http.snapshot() == before)

        let mqtt = try RecordingRingControl()
        let logged = Mutex<[String]>([])
        var settings = MQTTSettings()
        settings.device = "test"
        let bridge = MQTTBridge(settings: settings, control: mqtt, log: { line in logged.withLock { $0.append(line) } })
        bridge.received(topic: c.mqtt.topic, payload: Array(c.mqtt.payload.utf8))
        #expect(logged.withLock { $0 } == ["ignored \(c.mqtt.topic): \(c.message)"], "MQTT")
        #expect(mqtt.commands.isEmpty && mqtt.snapshot() == before)
    }
}
