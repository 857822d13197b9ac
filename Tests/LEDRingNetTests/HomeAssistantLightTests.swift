import Foundation
import LEDJSON
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import RingModel
import Testing

/// Each ring as Home Assistant's MQTT JSON-schema light, the reset button and the looks select:
/// discovery against Home Assistant's rules (`DiscoveryCheck`), every field of the command
/// payload as Home Assistant sends it, and the state it reads back after each.
@Suite struct HomeAssistantLightTests {
    static let settings: MQTTSettings = {
        var s = MQTTSettings()
        s.device = "desk"
        return s
    }()
    static let topics = MQTTTopics(settings: settings)

    static func control() throws -> RecordingRingControl {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32)), effect: .pulse(period: 2)),
                        Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96)))]
        return RecordingRingControl(layout: layout)
    }

    /// Sends `payload` to `ring`'s light topic as the bridge does: parsed, then each request submitted.
    static func send(_ control: RecordingRingControl, _ ring: String, _ payload: String) throws {
        let requests = try #require(try topics.requests(topic: topics.light(ring), payload: Array(payload.utf8),
                                                        current: { control.snapshot() }))
        for request in requests { try control.submit(request) }
    }

    /// The ring light's discovery config.
    static func lightConfig(_ ring: String, looks: [String] = ["failed", "passed"]) throws -> [String: Any] {
        let message = try #require(MQTTDiscovery.messages(settings: settings, rings: ["move", "exercise", "stand"], looks: looks)
            .first { $0.topic == "homeassistant/light/desk_\(ring)/config" })
        return try DiscoveryCheck.decode(message.payload)
    }

    /// `ring`'s state as published, checked against what Home Assistant's light reads.
    static func state(_ control: RecordingRingControl, _ ring: String) throws -> [String: Any] {
        let message = try #require(topics.stateMessages(control.snapshot(), retain: true).first { $0.topic == topics.state(ring) })
        let state = try DiscoveryCheck.decode(message.payload)
        for problem in DiscoveryCheck.stateProblems(state, light: try lightConfig(ring)) { Issue.record("state \(message.payload): \(problem)") }
        return state
    }

    static func leds(_ control: RecordingRingControl, _ ring: String) -> [RGB8] {
        (control.snapshot().ring(named: ring)?.leds ?? []).compactMap { RGB8(hex: $0) }
    }

    // MARK: Discovery

    @Test(arguments: [[String](), ["failed", "passed"]])
    func discoveryFollowsHomeAssistantsRules(looks: [String]) throws {
        let messages = MQTTDiscovery.messages(settings: Self.settings, rings: ["move", "exercise", "stand"], looks: looks)
        var ids: [String] = []
        for message in messages {
            #expect(message.retain)
            try DiscoveryCheck.validate(message.topic, message.payload, base: "ledring/desk")
            ids.append(try #require(try DiscoveryCheck.decode(message.payload)["unique_id"] as? String))
        }
        #expect(Set(ids).count == ids.count, "unique ids: \(ids)")
        let light = try Self.lightConfig("move", looks: looks)
        #expect(light["command_topic"] as? String == "ledring/desk/move/light")
        #expect(light["state_topic"] as? String == "ledring/desk/move/state")
        #expect(light["supported_color_modes"] as? [String] == ["rgb"])
        #expect(light["effect_list"] as? [String] == ["default"] + looks + ["none", "pulse", "blink"])
        #expect(light["unique_id"] as? String == "ledring_desk_move_light")
        #expect(light["flash_time_short"] as? Int == 2 && light["flash_time_long"] as? Int == 10)
    }

    @Test func theResetButtonPressesReset() throws {
        let messages = MQTTDiscovery.messages(settings: Self.settings, rings: ["move"])
        let button = try DiscoveryCheck.decode(try #require(messages.first { $0.topic == "homeassistant/button/desk_reset/config" }).payload)
        #expect(button["command_topic"] as? String == "ledring/desk/reset")
        let press = try #require(button["payload_press"] as? String)
        #expect(try Self.topics.requests(topic: "ledring/desk/reset", payload: Array(press.utf8)) == [.defaultReset])
        #expect(button["unique_id"] as? String == "ledring_desk_reset")
    }

    /// The validator refuses what Home Assistant refuses, so a passing discovery means something.
    @Test(arguments: [
        ("supported_color_modes", #"["onoff","rgb"]"#), ("supported_color_modes", #"[]"#), ("supported_color_modes", #"["brightness","rgb"]"#),
        ("supported_color_modes", #"["white"]"#), ("supported_color_modes", #"["rgb","rgb"]"#), ("supported_color_modes", #"["sparkle"]"#),
        ("effect_list", "null"), ("flash_time_short", "0"), ("schema", #""basic""#), ("rgb", "true"), ("brightness_scale", "0"),
        ("command_topic", "null"),
    ])
    func theValidatorCatchesWhatHomeAssistantRefuses(key: String, json: String) throws {
        var light = try Self.lightConfig("move")
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        if value is NSNull { light.removeValue(forKey: key) } else { light[key] = value }
        #expect(!DiscoveryCheck.problems("homeassistant/light/desk_move/config", light, base: "ledring/desk").isEmpty)
    }

    // MARK: Commands, each with the state Home Assistant then reads

    @Test func onAndOff() throws {
        let control = try Self.control()
        try control.submit(.set(["move": 0.5]))
        let lit = Self.leds(control, "move")
        #expect(try Self.state(control, "move")["state"] as? String == "ON")
        try Self.send(control, "move", #"{"state":"OFF"}"#)
        #expect(Self.leds(control, "move").allSatisfy { $0 == .black })
        #expect(try Self.state(control, "move")["state"] as? String == "OFF")
        #expect(control.snapshot().ring(named: "move")?.target == 0.5, "off keeps the value")
        try Self.send(control, "move", #"{"state":"ON"}"#)
        #expect(Self.leds(control, "move") == lit)
        #expect(try Self.state(control, "move")["state"] as? String == "ON")
        try Self.send(control, "move", "OFF")
        #expect(try Self.state(control, "move")["state"] as? String == "OFF")
    }

    @Test func aColourIsASolidLook() throws {
        let control = try Self.control()
        try control.submit(.set(["move": 1]))
        try Self.send(control, "move", #"{"state":"ON","color":{"r":255,"g":0,"b":0}}"#)
        let red = Self.leds(control, "move")
        // Red all round (the head lifted a little towards white, the LED under its shadow dimmer).
        #expect(red.allSatisfy { $0.r > 150 && Int($0.g) < Int($0.r) / 3 && Int($0.b) < Int($0.r) / 3 }, "\(red.map(\.hex))")
        let state = try Self.state(control, "move")
        #expect(state["color_mode"] as? String == "rgb")
        #expect(state["color"] as? [String: Int] == ["r": 255, "g": 0, "b": 0])
        #expect(state["effect"] as? String == "none" && state["look"] as? String == "#ff0000")
        // Home Assistant scales the colour by its brightness slider: half as bright, half the light.
        try Self.send(control, "move", #"{"state":"ON","color":{"r":128,"g":0,"b":0}}"#)
        #expect(Self.leds(control, "move").allSatisfy { $0.r > 20 && $0.r < 120 })
    }

    @Test func effectsAreLooksOrWhatAColourDoes() throws {
        let control = try Self.control()
        try Self.send(control, "move", #"{"state":"ON","effect":"failed"}"#)
        #expect(control.controller.look(of: 0) == "failed")
        #expect(try Self.state(control, "move")["effect"] as? String == "failed")
        #expect(try Self.state(control, "move")["color_mode"] == nil)
        // A colour effect without a colour: white; a colour later keeps the effect, an effect keeps the colour.
        try Self.send(control, "move", #"{"effect":"pulse"}"#)
        #expect(control.controller.look(of: 0) == "#ffffff pulse")
        try Self.send(control, "move", #"{"color":{"r":0,"g":0,"b":255}}"#)
        #expect(control.controller.look(of: 0) == "#0000ff pulse")
        try Self.send(control, "move", #"{"effect":"blink"}"#)
        #expect(control.controller.look(of: 0) == "#0000ff blink")
        #expect(try Self.state(control, "move")["effect"] as? String == "blink")
        try Self.send(control, "move", #"{"effect":"none"}"#)
        #expect(control.controller.look(of: 0) == "#0000ff")
        try Self.send(control, "move", #"{"effect":"default"}"#)
        #expect(control.controller.look(of: 0) == nil)
        #expect(try Self.state(control, "move")["effect"] as? String == "default")
    }

    @Test(arguments: [("2", 2.0), ("10", 10.0), (#""short""#, 2.0), (#""long""#, 10.0)])
    func aFlashIsANotificationThatEnds(flash: String, seconds: Double) throws {
        let control = try Self.control()
        let before = Self.leds(control, "move")
        try Self.send(control, "move", #"{"state":"ON","flash":\#(flash)}"#)
        let notice = try #require(control.controller.notices.first?.notice)
        #expect(notice.rings == ["move"] && notice.duration == seconds && notice.value == 1)
        #expect(notice.effect == .flash(count: Int(seconds * 2), period: 0.5))
        let white = Self.leds(control, "move")
        // White all round (the current limiter holds a whole white ring at the Pi's budget).
        #expect(white.allSatisfy { $0.r > 60 && $0.r == $0.g && $0.g == $0.b }, "the whole ring flashes white: \(white.map(\.hex))")
        control.advance(by: seconds + 0.01)
        #expect(control.controller.notices.isEmpty)
        #expect(Self.leds(control, "move") == before)
    }

    @Test func aFlashTakesTheColourItIsSentWith() throws {
        let control = try Self.control()
        try Self.send(control, "move", #"{"color":{"r":0,"g":255,"b":0},"flash":2}"#)
        #expect(control.controller.notices.first?.notice.color == RGB8(r: 0, g: 255, b: 0))
    }

    @Test func aTransitionIsTheFadesLength() throws {
        let control = try Self.control()
        try control.submit(.set(["move": 1]))
        let full = Self.leds(control, "move").map { Int($0.r) + Int($0.g) + Int($0.b) }.reduce(0, +)
        try Self.send(control, "move", #"{"state":"OFF","transition":2}"#)
        #expect(control.commands.last == .light(rings: ["move"], on: false, duration: 2))
        control.advance(by: 1)
        let half = Self.leds(control, "move").map { Int($0.r) + Int($0.g) + Int($0.b) }.reduce(0, +)
        #expect(half > 0 && half < full, "half way through the fade: \(half) of \(full)")
        control.advance(by: 1)
        #expect(Self.leds(control, "move").allSatisfy { $0 == .black })
        #expect(try Self.state(control, "move")["state"] as? String == "OFF")
    }

    @Test(arguments: [
        "MAYBE", "{", #"{"state":"MAYBE"}"#, #"{"color":{"r":300,"g":0,"b":0}}"#, #"{"color":{"r":1,"g":2}}"#,
        #"{"color":{"r":1.5,"g":2,"b":3}}"#, #"{"color":{"h":10,"s":20}}"#, #"{"effect":"sparkle"}"#, #"{"brightness":100}"#,
        #"{"flash":"forever"}"#, #"{"flash":0}"#, #"{"transition":-1}"#, #"{"state":"ON","transition":"slow"}"#,
        #"{"effect":"failed","color":{"r":1,"g":2,"b":3}}"#, "{}", #"{"state":"ON","color_temp":300}"#,
    ])
    func junkChangesNothing(payload: String) throws {
        let control = try Self.control()
        try control.submit(.set(["move": 0.5]))
        let before = control.snapshot()
        #expect(throws: RequestError.self) {
            try Self.topics.requests(topic: Self.topics.light("move"), payload: Array(payload.utf8), current: { control.snapshot() })
        }
        #expect(control.snapshot() == before)
    }

    // MARK: State across a restart

    @Test func aRestartComesBackWithTheSameLightState() throws {
        let control = try Self.control()
        try Self.send(control, "move", #"{"color":{"r":255,"g":128,"b":0},"effect":"pulse"}"#)
        try Self.send(control, "stand", "OFF")
        let saved = try SavedState(json: try JSONValue.parse(control.controller.saved.json.jsonText))
        var restored = Controller(layout: control.layout, brightness: 1)
        restored.restore(saved, at: 0)
        let again = RingSnapshot(controller: restored, frame: [], layout: control.layout, at: 0)
        #expect(Self.topics.stateMessages(again, retain: true).map(\.payload)
                == Self.topics.stateMessages(control.snapshot(), retain: true).map(\.payload))
    }
}
