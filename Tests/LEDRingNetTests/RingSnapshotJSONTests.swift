import Foundation
import LEDJSON
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import RingModel
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

    /// A spinning ring says how its spinner moves (for the page to move it between snapshots):
    /// its tail sampled over one cycle, where in the cycle the snapshot is, its circles; only
    /// while its LEDs show the spinner, and read back by a client.
    @Test func aSpinnerCarriesItsMotion() throws {
        let control = try RecordingRingControl()
        try control.submit(.spin(rings: ["move"]))
        control.advance(by: 2.3)
        let snapshot = control.snapshot()
        let spin = try #require(snapshot.ring(named: "move")?.spin)
        let spinner = Spinner()
        #expect(spin.cycle == spinner.period && abs(spin.at - 0.3) < 1e-9 && spin.segments == [24])
        #expect(spin.tail.count == RingSnapshot.Spin.samplesPerSweep + 1)
        for (i, tail) in spin.tail.enumerated().dropLast() {
            #expect(tail == spinner.tailPosition(at: Double(i) / 64), "sample \(i)")
        }
        #expect(spin.tail.last == 1, "the sweep's end, not the next sweep's start at 0")
        #expect(snapshot.ring(named: "stand")?.spin == nil)
        let text = String(decoding: snapshot.jsonBytes(), as: UTF8.self)
        #expect(text.contains(#""spin":{"at":0.3,"cycle":1,"segments":[24],"tail":[0,"#), "\(text)")
        var back = snapshot
        back.rings[0].spin?.tail = spin.tail.map(RingSnapshot.Spin.rounded)
        back.rings[0].spin?.at = RingSnapshot.Spin.rounded(spin.at)
        #expect(try RingSnapshot(json: JSONValue.parse(text)) == back)
        #expect(throws: JSONProblem(path: "rings[0].spin.segments", message: "must be a list of LED counts")) {
            try RingSnapshot(json: JSONValue.parse(text.replacingOccurrences(of: #""segments":[24]"#, with: #""segments":[1e300]"#)))
        }

        // Reversing sweeps: the cycle is two sweeps, forth then back.
        let reversingSpinner = Spinner(period: 0.8, reverses: true)
        let reversing = RingSnapshot.Spin(reversingSpinner, elapsed: 2.5, segments: [12, 8])
        #expect(reversing.cycle == 1.6 && abs(reversing.at - 0.9) < 1e-9 && reversing.tail.count == 129)
        #expect(reversing.tail[64] == 1 && reversing.tail[128] == 0 && abs(reversing.tail[96] - reversingSpinner.tailPosition(at: 1.2)) < 1e-12)

        // Not while the LEDs show something else: under a notification, the power off, the ring off.
        try control.submit(.notify(Notice(rings: ["move"], color: RGB8(r: 255, g: 0, b: 0), duration: 10, key: "k")))
        #expect(control.snapshot().ring(named: "move")?.spin == nil)
        try control.submit(.endNotice(key: "k"))
        #expect(control.snapshot().ring(named: "move")?.spin != nil)
        try control.submit(.power(false))
        #expect(control.snapshot().ring(named: "move")?.spin == nil)
        try control.submit(.power(true))
        try control.submit(.light(rings: ["move"], on: false, duration: 0))
        #expect(control.snapshot().ring(named: "move")?.spin == nil)
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
