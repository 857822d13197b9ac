import LEDJSON
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import RingRender
import Testing

@Suite struct RingSnapshotJSONTests {
    @Test func writesSortedKeysAndReadsBack() throws {
        let snapshot = RingSnapshot(rings: [.init(name: "move", value: 0.5, target: 1, spinning: false, leds: ["#ff0000", "#000000"])],
                                    brightness: 1, power: true)
        let text = String(decoding: snapshot.jsonBytes(), as: UTF8.self)
        #expect(text.hasPrefix(##"{"brightness":1,"power":true,"rings":[{"display":["#"##))
        #expect(text.hasSuffix(##""leds":["#ff0000","#000000"],"name":"move","spinning":false,"target":1,"value":0.5}]}"##))
        #expect(try RingSnapshot(json: JSONValue.parse(text)) == snapshot)
        #expect(throws: JSONProblem(path: "rings[0].value", message: "must be a number")) {
            try RingSnapshot(json: JSONValue.parse(#"{"brightness":1,"power":true,"rings":[{"name":"a","value":"x"}]}"#))
        }
    }

    @Test func looksAndTimersReadBack() throws {
        var move = RingSnapshot.Ring(name: "move", value: 0.5, target: 1, spinning: false, leds: ["#ff0000"])
        move.look = "failed"
        move.timer = RingSnapshot.Timer(left: 412.25, duration: 600, paused: true, up: true, then: "passed")
        var snapshot = RingSnapshot(rings: [move, .init(name: "stand", value: 0, target: 0, spinning: false, leds: [])],
                                    brightness: 1, power: true)
        snapshot.looks = ["failed", "passed"]
        let text = String(decoding: snapshot.jsonBytes(), as: UTF8.self)
        #expect(text.hasPrefix(##"{"brightness":1,"looks":["failed","passed"],"power":true,"rings":[{"display":["#"##))
        #expect(text.contains(##""leds":["#ff0000"],"look":"failed","name":"move","spinning":false,"target":1,"timer":{"duration":600,"left":412.3,"paused":true,"then":"passed","up":true},"value":0.5}"##))
        #expect(text.hasSuffix(#"{"display":[],"leds":[],"name":"stand","spinning":false,"target":0,"value":0}]}"#))
        var back = snapshot
        back.rings[0].timer?.left = 412.3
        #expect(try RingSnapshot(json: JSONValue.parse(text)) == back)
    }

    /// Why a ring is red: the notification over it, in `/api/state` and SSE (with its seconds
    /// left), read back by a client, and in the retained MQTT state without the seconds (so the
    /// state is not republished as they run down); through the real controller and renderer.
    @Test func aNotificationShowsInTheStateEverywhere() throws {
        let control = try RecordingRingControl()
        try control.submit(.notify(Notice(rings: ["move"], color: RGB8(r: 255, g: 32, b: 32), effect: .pulse(period: 2),
                                          duration: 60, priority: 5, key: "c0ffee")))
        control.advance(by: 18.46)
        let snapshot = control.snapshot()
        let move = try #require(snapshot.ring(named: "move")?.notice)
        #expect(move == ShownNotice(key: "c0ffee", color: "#ff2020", effect: "pulse", priority: 5, left: 60 - 18.46))
        #expect(snapshot.ring(named: "stand")?.notice == nil)
        let text = String(decoding: snapshot.jsonBytes(), as: UTF8.self)
        #expect(text.contains(##""name":"move","notice":{"color":"#ff2020","effect":"pulse","key":"c0ffee","left":41.5,"priority":5},"##), "\(text)")
        var back = snapshot
        back.rings[0].notice?.left = 41.5
        #expect(try RingSnapshot(json: JSONValue.parse(text)) == back)
        let topics = MQTTTopics(settings: MQTTSettings())
        let state = try #require(topics.stateMessages(snapshot, retain: true).first { $0.topic == topics.state("move") })
        #expect(state.payload.contains(##""notice":{"color":"#ff2020","effect":"pulse","key":"c0ffee","priority":5}"##), "\(state.payload)")
        control.advance(by: 1)
        #expect(topics.stateMessages(control.snapshot(), retain: true).map(\.payload) == topics.stateMessages(snapshot, retain: true).map(\.payload),
                "the retained state is the same a second later")
        control.advance(by: 60)
        #expect(control.snapshot().ring(named: "move")?.notice == nil, "gone when it ends")
    }

    @Test func discoveryPayloadsHaveSortedKeys() throws {
        var settings = MQTTSettings()
        settings.device = "kitchen"
        for message in MQTTDiscovery.messages(settings: settings, rings: ["move"]) {
            let keys = try #require(JSONValue.parse(message.payload).members?.keys)
            #expect(keys == keys.sorted(), "\(message.topic)")
        }
    }
}
