import LEDRingControl
import LEDRingControlTesting
import RingModel
import Synchronization
import Testing

/// The front ends' test double: the real controller behind a test clock.
@Suite struct RecordingRingControlTests {
    @Test func setShowsInTheSnapshotAndTheFrame() throws {
        let control = try RecordingRingControl()
        let before = control.snapshot()
        #expect(before.rings.map(\.name) == ["move", "exercise", "stand"])
        #expect(before.rings.map(\.leds.count) == [24, 16, 12])
        try control.submit(.set(["move": 0.5]))
        let after = control.snapshot()
        let move = try #require(after.ring(named: "move"))
        #expect(move.value == 0.5 && move.target == 0.5 && !move.spinning)
        // Half the ring is lit brighter than the track: the first LED differs from the last.
        #expect(move.leds[0] != before.rings[0].leds[0])
        #expect(move.leds[23] == before.rings[0].leds[23])
        #expect(control.commands == [.set(["move": 0.5])])
    }

    @Test func transitionsMoveWithTheClock() throws {
        let control = try RecordingRingControl()
        try control.submit(.set(["stand": 1], duration: 2, curve: .linear))
        #expect(control.snapshot().ring(named: "stand")?.value == 0)
        control.advance(by: 1)
        #expect(control.snapshot().ring(named: "stand")?.value == 0.5)
        control.advance(by: 5)
        #expect(control.snapshot().ring(named: "stand")?.value == 1)
    }

    @Test func refusesUnknownRingsAndBadValuesWithoutChangingAnything() throws {
        let control = try RecordingRingControl()
        let before = control.snapshot()
        #expect(throws: RequestError.unknownRing("moov", known: ["move", "exercise", "stand"])) {
            try control.submit(.set(["move": 0.5, "moov": 0.3]))
        }
        #expect(throws: RequestError.self) { try control.submit(.set(["move": -1])) }
        #expect(throws: RequestError.self) { try control.submit(.set(["move": 1], duration: -1)) }
        #expect(throws: RequestError.self) { try control.submit(.brightness(2)) }
        #expect(throws: RequestError.self) { try control.submit(.spin(rings: ["nope"])) }
        #expect(control.snapshot() == before)
        #expect(control.commands.isEmpty)
        #expect(control.refusals.count == 5)
        #expect(control.refusals[0].kind == .unknownRing && control.refusals[1].kind == .invalid)
        #expect("\(RequestError.unknownRing("moov", known: ["move"]))" == "no ring called \"moov\"; the rings are move")
    }

    @Test func resetSpinBrightnessAndPower() throws {
        let control = try RecordingRingControl()
        try control.submit(.set(["move": 0.7, "exercise": 1.2]))
        try control.submit(.spin(rings: ["stand"]))
        #expect(control.snapshot().ring(named: "stand")?.spinning == true)
        try control.submit(.stop(rings: ["stand"]))
        #expect(control.snapshot().ring(named: "stand")?.spinning == false)
        try control.submit(.brightness(0.5))
        #expect(control.snapshot().brightness == 0.5)
        try control.submit(.power(false))
        #expect(control.snapshot().power == false)
        #expect(control.snapshot().rings.allSatisfy { $0.leds.allSatisfy { $0 == "#000000" } })
        #expect(control.controller.states[0].target == 0.7, "power off keeps the values")
        try control.submit(.power(true))
        try control.submit(.spin(rings: ["stand"]))
        try control.reset()
        // Animated as every front end's reset: linear over a second, half way at half a second.
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 && !$0.spinning })
        control.advance(by: 0.5)
        #expect(control.snapshot().ring(named: "move").map { abs($0.value - 0.35) < 0.01 } == true,
                "\(String(describing: control.snapshot().ring(named: "move")?.value))")
        control.advance(by: 0.5)
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 && $0.value == 0 && !$0.spinning })
        #expect(control.commands.last == .defaultReset)
    }

    @Test func observersHearEveryChangeUntilRemoved() throws {
        let control = try RecordingRingControl()
        let seen = Mutex<[Double]>([])
        let id = control.addObserver { snapshot in
            seen.withLock { $0.append(snapshot.ring(named: "move")?.target ?? -1) }
        }
        try control.submit(.set(["move": 0.25]))
        try control.reset()
        control.removeObserver(id)
        try control.submit(.set(["move": 0.75]))
        #expect(seen.withLock { $0 } == [0.25, 0])
    }

    @Test func ledColoursFollowEachSegmentsStartAndDirection() throws {
        let spec = RingSpec(name: "r", segments: [Segment(ledCount: 4, startLED: 1, direction: .counterClockwise)],
                            appearance: RingAppearance(gradient: Palette.move))
        let layout = try RingLayout(rings: [spec])
        let frame = (0..<4).map { RGB8(r: UInt8($0), g: 0, b: 0) }
        // Position 0 is chain LED 1, then 0, 3, 2 going against the chain.
        #expect(RingSnapshot.ledColors(of: frame, layout: layout) == [["#010000", "#000000", "#030000", "#020000"]])
    }
}
