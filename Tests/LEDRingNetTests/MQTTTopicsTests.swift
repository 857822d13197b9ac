import Foundation
import LEDRingControl
import LEDRingNet
import Testing

/// Topics, payloads and discovery without a broker: these run in every build.
@Suite struct MQTTTopicsTests {
    var settings: MQTTSettings {
        var s = MQTTSettings()
        s.device = "desk"
        return s
    }

    @Test func commandsFromTopicsAndPayloads() throws {
        let t = MQTTTopics(settings: settings)
        #expect(try t.command(topic: "ledring/desk/move/set", payload: Array("80%".utf8)) == .set(ring: "move", SetCommand(value: 0.8)))
        #expect(try t.command(topic: "ledring/all/move/set", payload: Array(#"{"value":1.2,"curve":"spring"}"#.utf8))
                == .set(ring: "move", SetCommand(value: 1.2, curve: .spring)))
        #expect(try t.command(topic: "ledring/desk/reset", payload: []) == .reset)
        #expect(try t.command(topic: "ledring/desk/spin", payload: Array("stand".utf8)) == .spin("stand"))
        #expect(try t.command(topic: "ledring/desk/brightness", payload: Array("40%".utf8)) == .brightness(0.4))
        #expect(try t.command(topic: "ledring/desk/power", payload: Array("OFF".utf8)) == .light(on: false, brightness: nil))
        #expect(try t.command(topic: "ledring/desk/power", payload: Array(#"{"state":"ON","brightness":25}"#.utf8))
                == .light(on: true, brightness: 0.25))
        #expect(try t.command(topic: "ledring/desk/move/state", payload: Array("{}".utf8)) == nil)
        #expect(try t.command(topic: "elsewhere/move/set", payload: Array("1".utf8)) == nil)
        #expect(t.isGroup("ledring/all/move/set") && !t.isGroup("ledring/desk/move/set"))
        #expect(t.subscriptions.contains("ledring/desk/+/set") && t.subscriptions.contains("ledring/all/reset"))
    }

    @Test(arguments: ["abc", "-1", "{\"value\":", "{\"value\":1,\"extra\":2}"])
    func badPayloadsThrowWithTheReason(payload: String) {
        #expect(throws: PayloadError.self) {
            try MQTTTopics(settings: settings).command(topic: "ledring/desk/move/set", payload: Array(payload.utf8))
        }
    }

    @Test func stateMessagesAreRetainedJSON() throws {
        let control = try InMemoryRingControl()
        try control.set(["move": 0.8], duration: nil, curve: nil)
        let messages = MQTTTopics(settings: settings).stateMessages(control.snapshot(), retain: true)
        #expect(messages.map(\.topic) == ["ledring/desk/move/state", "ledring/desk/exercise/state", "ledring/desk/stand/state", "ledring/desk/status"])
        #expect(messages.allSatisfy { $0.retain })
        #expect(messages[0].payload == #"{"percent":80,"spinning":false,"value":0.8}"#)
        #expect(messages[3].payload == #"{"brightness":100,"state":"ON"}"#)
    }

    @Test func discoveryHasEveryKeyHomeAssistantNeeds() throws {
        let messages = MQTTDiscovery.messages(settings: settings, rings: ["move", "stand"])
        #expect(messages.map(\.topic) == ["homeassistant/number/desk_move/config", "homeassistant/number/desk_stand/config",
                                          "homeassistant/light/desk/config"])
        for message in messages {
            try DiscoveryCheck.validate(message.topic, message.payload, base: "ledring/desk")
        }
    }
}
