import LEDJSON
import RingModel
import Testing
@testable import LEDRingControl

/// Ranges and looks through the controller: values in a ring's own units, looks switched,
/// saved, restored and carried across a reload; a look without an effect asks for no frames.
@Suite struct LookAndRangeControllerTests {
    static func layout(looks: [Look] = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32)), effect: .pulse(period: 2)),
                                        Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96)))]) throws -> RingLayout {
        var co2 = RingSpec(name: "co2", segments: [Segment(ledCount: 12)], appearance: RingAppearance(gradient: Palette.stand))
        co2.range = ValueRange(min: 400, max: 2000)
        var build = RingSpec(name: "build", segments: [Segment(ledCount: 12)], appearance: RingAppearance(gradient: Palette.move))
        build.clampsAtOneLap = true
        var layout = try RingLayout(rings: [co2, build])
        layout.looks = looks
        return layout
    }

    static func apply(_ c: inout Controller, _ line: String, at t: Double = 0) throws -> Controller.Outcome {
        let outcome = c.apply(try Request.parse(line), at: t, status: { fatalError("no status") })
        return outcome
    }

    /// The snapshot (HTTP's state, MQTT's retained state) gives a ranged ring's value in its
    /// own units too, as it was sent, and reads it back.
    @Test func theSnapshotSaysTheValueInTheRingsUnits() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        _ = try Self.apply(&c, "set co2 812")
        let snapshot = RingSnapshot(controller: c, frame: [RGB8](repeating: .black, count: layout.ledCount), layout: layout, at: 1)
        #expect(snapshot.rings[0].units == 812 || abs((snapshot.rings[0].units ?? 0) - 812) < 1e-9)
        #expect(snapshot.rings[1].units == nil, "a ring without a range has no units")
        let text = snapshot.json.jsonText
        #expect(text.contains(#""units":812,"#), "\(text)")
        #expect(!text.contains(#""name":"build","spinning":false,"target":0,"units""#))
        #expect(try RingSnapshot(json: JSONValue.parse(text)).rings.map(\.units) == [812, nil])
    }

    /// The socket's reply and the snapshot report a ring alike: the same report, the snapshot
    /// adding only the LEDs (`Controller.report(ofRing:at:)` builds both).
    @Test func theReplyAndTheSnapshotReportEachRingAlike() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        _ = try Self.apply(&c, "set co2 812")
        _ = try Self.apply(&c, "look build failed")
        _ = try Self.apply(&c, "notify co2 color #0000ff for 10s priority 5 key b", at: 1)
        _ = try Self.apply(&c, "timer co2 25m", at: 1)
        let outcome = try Self.apply(&c, "spin build", at: 2)
        guard case .rings(let replied, _, _) = outcome.reply else { Issue.record("not rings: \(outcome.reply)"); return }
        let snapshot = RingSnapshot(controller: c, frame: [RGB8](repeating: RGB8(r: 9, g: 9, b: 9), count: layout.ledCount),
                                    layout: layout, at: 2)
        #expect(snapshot.rings.map { $0.leds.count } == [12, 12])
        #expect(snapshot.rings[1].spin != nil, "build spins")
        let withoutLEDs = snapshot.rings.map { ring -> RingSnapshot.Ring in
            var ring = ring
            ring.leds = []
            ring.display = []
            ring.spin = nil
            return ring
        }
        #expect(replied == withoutLEDs)
        #expect(replied[0].notice != nil && replied[0].units != nil && replied[0].timer?.left == 1499
                && replied[1].look == "failed" && replied[1].spinning)
    }

    @Test func valuesInTheRingsOwnUnits() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        #expect(try Self.apply(&c, "set co2 812").changed)
        #expect(abs(c.states[0].target - 412.0 / 1600) < 1e-12)
        _ = try Self.apply(&c, "set co2 50%")
        #expect(c.states[0].target == 0.5)
        _ = try Self.apply(&c, "set co2 5200")
        #expect(c.states[0].target == 3, "past max keeps lapping")
        _ = try Self.apply(&c, "set build 2.5")
        #expect(c.states[1].target == 1, "\"laps\": false stops at one lap")
        // A ring without a range still refuses 812 laps, and nothing changes.
        let refused = try Self.apply(&c, "set build 0.2 co2 400 build 812")
        #expect(!refused.changed && c.states[1].target == 1 && c.states[0].target == 3)
        #expect(refused.reply == .error("build 812: must be 0…100 (0 % to 10 000 %); 1 is one lap, e.g. 0.8 or 80%"))
    }

    @Test func looksAreSwitchedSavedAndRestored() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        #expect(!c.isAnimating(at: 0))
        _ = try Self.apply(&c, "look build passed", at: 5)
        #expect(c.paints(at: 5)[1] == RingPaint(look: 1, since: 5) && c.paints(at: 5)[0] == .plain)
        #expect(!c.isAnimating(at: 5), "a look without an effect asks for no frames")
        _ = try Self.apply(&c, "look build failed", at: 6)
        #expect(c.isAnimating(at: 1000), "a pulse keeps going")
        let bad = try Self.apply(&c, "look build sparkly", at: 7)
        #expect(!bad.changed && c.look(of: 1) == "failed")
        if case .error(let message) = bad.reply { #expect(message.contains("the looks are failed, passed, default, none")) }
        #expect(c.saved.looks == ["build": "failed"])

        var restarted = Controller(layout: try Self.layout(), brightness: 1)
        restarted.restore(c.saved, at: 100)
        #expect(restarted.look(of: 1) == "failed" && restarted.paints(at: 100)[1].since == 100)
        // A reload whose config no longer has the look drops it; one that has it keeps it.
        let kept = c.carried(to: try Self.layout())
        #expect(kept.look(of: 1) == "failed")
        let dropped = c.carried(to: try Self.layout(looks: []))
        #expect(dropped.look(of: 1) == nil && dropped.saved.looks.isEmpty)
        _ = try Self.apply(&c, "look build default", at: 8)
        #expect(c.look(of: 1) == nil && !c.isAnimating(at: 8))
    }

    @Test func theRingsDefaultLookAndNone() throws {
        var layout = try Self.layout()
        var rings = layout.rings
        rings[1].look = "passed"
        let looks = layout.looks
        layout = try RingLayout(rings: rings)
        layout.looks = looks
        var c = Controller(layout: layout, brightness: 1)
        #expect(c.look(of: 1) == "passed")
        _ = try Self.apply(&c, "look build none")
        #expect(c.look(of: 1) == nil)
        _ = try Self.apply(&c, "look build default")
        #expect(c.look(of: 1) == "passed")
    }
}
