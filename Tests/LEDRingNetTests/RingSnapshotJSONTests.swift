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

    @Test func discoveryPayloadsHaveSortedKeys() throws {
        var settings = MQTTSettings()
        settings.device = "kitchen"
        for message in MQTTDiscovery.messages(settings: settings, rings: ["move"]) {
            let keys = try #require(JSONValue.parse(message.payload).members?.keys)
            #expect(keys == keys.sorted(), "\(message.topic)")
        }
    }
}
