import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import Testing

/// Topics, payloads and discovery without a broker: these run in every build.
@Suite struct MQTTTopicsTests {
    var settings: MQTTSettings {
        var s = MQTTSettings()
        s.device = "desk"
        return s
    }

    /// A ranged ring's retained state carries its value in its own units (a CO₂ ring says
    /// `"units":812`, which a dashboard shows as it is), besides laps and percent.
    @Test func aRangedRingsStateSaysItsUnits() throws {
        var co2 = RingSnapshot.Ring(name: "co2", value: 0.2575, target: 0.2575, spinning: false, leds: [])
        co2.units = 812
        let snapshot = RingSnapshot(rings: [co2, .init(name: "move", value: 0.5, target: 0.5, spinning: false, leds: [])], brightness: 1, power: true)
        let topics = MQTTTopics(settings: settings)
        let payloads = topics.stateMessages(snapshot, retain: true).map(\.payload)
        #expect(payloads[0].contains(#""units":812"#), "\(payloads[0])")
        #expect(!payloads[1].contains("units"))
    }

    @Test func topicFiltersMatchAsTheSpecSays() {
        let cases: [(String, String, Bool)] = [
            ("octoPrint/event/#", "octoPrint/event/PrintDone", true), ("octoPrint/event/#", "octoPrint/event", true),
            ("octoPrint/event/#", "octoPrint/events/x", false), ("a/+/c", "a/b/c", true), ("a/+/c", "a/b/d/c", false),
            ("a/+", "a/", true), ("+/b", "a/b", true), ("#", "anything/at/all", true), ("#", "$SYS/broker", false),
            ("+/monitor", "$SYS/monitor", false), ("$SYS/#", "$SYS/broker", true), ("a/b", "a/b", true), ("a/b", "a/b/c", false),
            ("a/b/c", "a/b", false),
        ]
        for (filter, topic, expected) in cases {
            #expect(MQTTTopics.matches(filter: filter, topic: topic) == expected, "\(filter) vs \(topic)")
        }
    }

    @Test func commandsFromTopicsAndPayloads() throws {
        let t = MQTTTopics(settings: settings)
        func requests(_ topic: String, _ payload: String) throws -> [Request]? {
            try t.requests(topic: topic, payload: Array(payload.utf8))
        }
        #expect(try requests("ledring/desk/move/set", "80%") == [.set(values: [.init(ring: "move", value: 0.8, percent: true)], duration: 0, curve: .easeInOut)])
        #expect(try requests("ledring/desk/build/look", "failed") == [.look(rings: ["build"], name: "failed")])
        #expect(try requests("ledring/all/focus/timer", "25m then done") == [.timer(ring: "focus", .start(duration: 1500, up: false, then: "done"))])
        #expect(try requests("ledring/desk/focus/timer", "pause") == [.timer(ring: "focus", .pause)])
        #expect(try requests("ledring/desk/notify", "clear") == [.clearNotices])
        #expect(try requests("ledring/desk/notify", #"{"look":"failed","for":"30s"}"#) == [.notify(Notice(look: "failed", duration: 30))])
        #expect(try requests("ledring/all/move/set", #"{"value":1.2,"curve":"spring"}"#) == [.set(["move": 1.2], curve: .spring)])
        #expect(try requests("ledring/desk/reset", "") == [.defaultReset])
        #expect(try requests("ledring/desk/spin", "stand") == [.spin(rings: ["stand"])])
        #expect(try requests("ledring/desk/brightness", "40%") == [.brightness(0.4)])
        #expect(try requests("ledring/desk/power", "OFF") == [.power(false)])
        #expect(try requests("ledring/desk/power", #"{"state":"ON","brightness":25}"#) == [.brightness(0.25), .power(true)])
        #expect(try requests("ledring/desk/move/state", "{}") == nil)
        #expect(try requests("elsewhere/move/set", "1") == nil)
        #expect(t.isGroup("ledring/all/move/set") && !t.isGroup("ledring/desk/move/set"))
        #expect(t.subscriptions.contains("ledring/desk/+/set") && t.subscriptions.contains("ledring/all/reset"))
    }

    // `-1` may be a ranged ring's value: the ring's validation refuses it (SameRefusalTests).
    @Test(arguments: ["abc", "-1%", "{\"value\":", "{\"value\":1,\"extra\":2}"])
    func badPayloadsThrowWithTheReason(payload: String) {
        #expect(throws: RequestError.self) {
            try MQTTTopics(settings: settings).requests(topic: "ledring/desk/move/set", payload: Array(payload.utf8))
        }
    }

    /// A timer object with a key the socket's timer does not have (a typo) is refused, as the
    /// socket, HTTP and the notify topic refuse one, not started without it.
    @Test func aTimerObjectWithAnUnknownKeyIsRefused() throws {
        let t = MQTTTopics(settings: settings)
        #expect(try t.requests(topic: "ledring/desk/focus/timer", payload: Array(#"{"duration":"25m","then":"done"}"#.utf8))
                == [.timer(ring: "focus", .start(duration: 1500, up: false, then: "done"))])
        #expect(throws: RequestError.self) {
            try t.requests(topic: "ledring/desk/focus/timer", payload: Array(#"{"duration":"25m","thne":"done"}"#.utf8))
        }
        #expect(throws: RequestError.self) {
            try t.requests(topic: "ledring/desk/focus/timer", payload: Array(#"{"duration":"25m","ring":"other"}"#.utf8))
        }
    }

    @Test func stateMessagesAreRetainedJSON() throws {
        let control = try RecordingRingControl()
        try control.submit(.set(["move": 0.8]))
        let messages = MQTTTopics(settings: settings).stateMessages(control.snapshot(), retain: true)
        #expect(messages.map(\.topic) == ["ledring/desk/move/state", "ledring/desk/exercise/state", "ledring/desk/stand/state", "ledring/desk/status"])
        #expect(messages.allSatisfy { $0.retain })
        #expect(messages[0].payload == #"{"effect":"default","percent":80,"spinning":false,"state":"ON","value":0.8}"#)
        #expect(messages[3].payload == #"{"brightness":100,"state":"ON"}"#)
    }

    @Test func discoveryHasEveryKeyHomeAssistantNeeds() throws {
        let messages = MQTTDiscovery.messages(settings: settings, rings: ["move", "stand"])
        #expect(messages.map(\.topic) == ["homeassistant/number/desk_move/config", "homeassistant/number/desk_stand/config",
                                          "homeassistant/light/desk_move/config", "homeassistant/light/desk_stand/config",
                                          "homeassistant/button/desk_reset/config", "homeassistant/light/desk/config"])
        for message in messages {
            try DiscoveryCheck.validate(message.topic, message.payload, base: "ledring/desk")
        }
    }

    @Test func looksAreASelectPerRingAndTheStateSaysWhichShows() throws {
        let messages = MQTTDiscovery.messages(settings: settings, rings: ["build"], looks: ["failed", "passed"])
        let select = try #require(messages.first { $0.topic == "homeassistant/select/desk_build_look/config" })
        let text = select.payload
        #expect(text.contains(#""command_topic":"ledring/desk/build/look""#))
        #expect(text.contains(#""options":["default","none","failed","passed"]"#))
        // The look when it is an option, else None (a colour look is none of them).
        #expect(text.contains(#""value_template":"{% set look = value_json.look %}{{ look if look in ['default','none','failed','passed'] else 'None' }}""#))
        var snapshot = RingSnapshot(rings: [.init(name: "build", value: 1, target: 1, spinning: false, leds: [])], brightness: 1, power: true)
        snapshot.looks = ["failed", "passed"]
        snapshot.rings[0].look = "failed"
        let state = MQTTTopics(settings: settings).stateMessages(snapshot, retain: true)[0]
        #expect(state.payload.contains(#""look":"failed""#))
        // A selected option comes back as a look request on the command topic.
        #expect(try MQTTTopics(settings: settings).requests(topic: "ledring/desk/build/look", payload: Array("passed".utf8))
                == [.look(rings: ["build"], name: "passed")])
    }
}
