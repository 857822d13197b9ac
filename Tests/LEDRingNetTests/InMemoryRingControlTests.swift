import LEDRingControl
import LEDRingNet
import RingRender
import Synchronization
import Testing

@Suite struct InMemoryRingControlTests {
    @Test func setShowsInTheSnapshotAndTheFrame() throws {
        let control = try InMemoryRingControl()
        let before = control.snapshot()
        #expect(before.rings.map(\.name) == ["move", "exercise", "stand"])
        #expect(before.rings.map(\.leds.count) == [24, 16, 12])
        try control.set(["move": 0.5], duration: nil, curve: nil)
        let after = control.snapshot()
        let move = try #require(after.ring(named: "move"))
        #expect(move.value == 0.5 && move.target == 0.5 && !move.spinning)
        // Half the ring is lit brighter than the track: the first LED differs from the last.
        #expect(move.leds[0] != before.rings[0].leds[0])
        #expect(move.leds[23] == before.rings[0].leds[23])
        #expect(control.commands == [.set(["move": 0.5], duration: nil, curve: nil)])
    }

    @Test func transitionsMoveWithTheClock() throws {
        let control = try InMemoryRingControl()
        try control.set(["stand": 1], duration: 2, curve: .linear)
        #expect(control.snapshot().ring(named: "stand")?.value == 0)
        control.advance(by: 1)
        #expect(control.snapshot().ring(named: "stand")?.value == 0.5)
        control.advance(by: 5)
        #expect(control.snapshot().ring(named: "stand")?.value == 1)
    }

    @Test func refusesUnknownRingsAndBadValuesWithoutChangingAnything() throws {
        let control = try InMemoryRingControl()
        #expect(throws: ControlError.unknownRing("moov", known: ["move", "exercise", "stand"])) {
            try control.set(["move": 0.5, "moov": 0.3], duration: nil, curve: nil)
        }
        #expect(throws: ControlError.badValue(ring: "move", value: -1)) { try control.set(["move": -1], duration: nil, curve: nil) }
        #expect(throws: ControlError.badBrightness(2)) { try control.setBrightness(2) }
        #expect(throws: ControlError.self) { try control.spin("nope") }
        #expect(control.snapshot().ring(named: "move")?.target == 0)
        #expect(control.commands.isEmpty)
        #expect("\(ControlError.unknownRing("moov", known: ["move"]))" == "no ring called \"moov\"; the rings are move")
    }

    @Test func resetSpinBrightnessAndPower() throws {
        let control = try InMemoryRingControl()
        try control.set(["move": 0.7, "exercise": 1.2], duration: nil, curve: nil)
        try control.spin("stand")
        #expect(control.snapshot().ring(named: "stand")?.spinning == true)
        try control.stop("stand")
        #expect(control.snapshot().ring(named: "stand")?.spinning == false)
        try control.setBrightness(0.5)
        #expect(control.snapshot().brightness == 0.5)
        control.setPower(false)
        #expect(control.snapshot().rings.allSatisfy { $0.leds.allSatisfy { $0 == "#000000" } })
        control.setPower(true)
        control.reset()
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 && !$0.spinning })
        #expect(control.commands.last == .reset)
    }

    @Test func observersHearEveryChangeUntilRemoved() throws {
        let control = try InMemoryRingControl()
        let seen = Mutex<[Double]>([])
        let id = control.addObserver { snapshot in
            seen.withLock { $0.append(snapshot.ring(named: "move")?.target ?? -1) }
        }
        try control.set(["move": 0.25], duration: nil, curve: nil)
        control.reset()
        control.removeObserver(id)
        try control.set(["move": 0.75], duration: nil, curve: nil)
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
