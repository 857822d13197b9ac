import LEDJSON
import LEDRingControl
import LEDRingNet
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

    @Test func discoveryPayloadsHaveSortedKeys() throws {
        var settings = MQTTSettings()
        settings.device = "kitchen"
        for message in MQTTDiscovery.messages(settings: settings, rings: ["move"]) {
            let keys = try #require(JSONValue.parse(message.payload).members?.keys)
            #expect(keys == keys.sorted(), "\(message.topic)")
        }
    }
}
