import LEDHardware
import LEDRingTesting
import Testing

private func ms(_ value: Double) -> UInt64 { UInt64(value * 1_000_000) }

/// A clock the test moves by hand.
private final class TestClock: @unchecked Sendable {
    var now: UInt64 = 0
}

@Suite struct GPIOInputsTests {
    static let chip = "pinctrl-bcm2835"

    /// A fake chip with the contacts idle high (pull-ups, nothing pressed).
    func makeFake() -> FakeGPIO {
        let fake = FakeGPIO()
        fake.addChip(label: Self.chip, lineCount: 54, names: ["", "", "", "", "", "BUTTON"])
        for offset: UInt32 in [5, 17, 27, 22] { fake.drive(chip: Self.chip, offset: offset, to: true, at: 0) }
        return fake
    }

    let configuration = GPIOInputConfiguration(
        chipLabels: [GPIOInputsTests.chip],
        button: .init(line: .name("BUTTON"), debounceNanoseconds: ms(10), longPressNanoseconds: ms(800)),
        encoder: .init(a: .offset(17), b: .offset(27), push: .offset(22)))

    /// Presses (drives low) then releases a contact, with bounces on both edges.
    func bouncyPress(_ fake: FakeGPIO, offset: UInt32, at start: Double, holding: Double) {
        for (level, time) in [(false, 0.0), (true, 0.3), (false, 0.9), (true, holding), (false, holding + 0.2), (true, holding + 0.5)] {
            fake.drive(chip: Self.chip, offset: offset, to: level, at: ms(start + time))
        }
    }

    /// Turns the knob one detent: 11 → 10 → 00 → 01 → 11 (+1) or the reverse (−1).
    func turn(_ fake: FakeGPIO, _ direction: Int, at start: Double, spacing: Double = 1) {
        let states: [(Bool, Bool)] = direction > 0
            ? [(true, false), (false, false), (false, true), (true, true)]
            : [(false, true), (false, false), (true, false), (true, true)]
        for (index, (a, b)) in states.enumerated() {
            let time = ms(start + Double(index) * spacing)
            fake.drive(chip: Self.chip, offset: 17, to: a, at: time)
            fake.drive(chip: Self.chip, offset: 27, to: b, at: time)
        }
    }

    @Test func shortPressResetsLongPressFiresWhileHeld() throws {
        let fake = makeFake()
        let clock = TestClock()
        let inputs = try GPIOInputs(lines: fake, configuration: configuration, now: { clock.now })
        #expect(inputs.lines.map(\.offset) == [5, 17, 27, 22])

        bouncyPress(fake, offset: 5, at: 100, holding: 150)
        clock.now = ms(400)
        #expect(try inputs.waitForActions() == [.resetAll])
        #expect(inputs.ignoredBounces == 2)

        fake.drive(chip: Self.chip, offset: 5, to: false, at: ms(1000))
        clock.now = ms(1000)
        #expect(try inputs.waitForActions() == [])
        // Waiting now ends at the debounce deadline, then at the long-press deadline: no spinning.
        #expect(try inputs.waitForActions() == [])
        #expect(fake.waits.last == Int64(ms(10)))
        clock.now = ms(1010)
        #expect(try inputs.waitForActions() == [])
        #expect(try inputs.waitForActions() == [])
        #expect(fake.waits.last == Int64(ms(790)))
        clock.now = ms(1800)
        #expect(try inputs.waitForActions() == [.longPress])
        fake.drive(chip: Self.chip, offset: 5, to: true, at: ms(2500))
        clock.now = ms(2600)
        #expect(try inputs.waitForActions() == [])
        // With nothing pending the wait has no deadline of its own.
        #expect(try inputs.waitForActions() == [])
        #expect(fake.waits.last == -1)
    }

    @Test func aLatePressAndReleaseReadTogetherIsStillAShortPress() throws {
        let fake = makeFake()
        let clock = TestClock()
        let inputs = try GPIOInputs(lines: fake, configuration: configuration, now: { clock.now })
        fake.drive(chip: Self.chip, offset: 5, to: false, at: ms(100))
        fake.drive(chip: Self.chip, offset: 5, to: true, at: ms(300))
        clock.now = ms(5000)  // read long after they happened
        #expect(try inputs.waitForActions() == [.resetAll])
    }

    @Test func knobTurnsAndPushSelects() throws {
        let fake = makeFake()
        let clock = TestClock()
        let inputs = try GPIOInputs(lines: fake, configuration: configuration, now: { clock.now })
        turn(fake, +1, at: 10)
        turn(fake, +1, at: 20)
        turn(fake, -1, at: 30)
        clock.now = ms(40)
        #expect(try inputs.waitForActions() == [.step(1), .step(1), .step(-1)])
        bouncyPress(fake, offset: 22, at: 50, holding: 100)
        clock.now = ms(200)
        #expect(try inputs.waitForActions() == [.selectNext])
    }

    @Test func aFastTurnReadInOneBatchCountsEveryDetent() throws {
        let fake = makeFake()
        let clock = TestClock()
        let inputs = try GPIOInputs(lines: fake, configuration: configuration, now: { clock.now })
        // 12 detents in 48 µs: far faster than a hand turns, all queued before one read.
        for detent in 0..<12 { turn(fake, +1, at: Double(detent) * 0.004, spacing: 0.001) }
        clock.now = ms(1)
        #expect(try inputs.waitForActions() == Array(repeating: .step(1), count: 12))
        #expect(inputs.skippedTransitions == 0)
    }

    @Test func aLostEdgeLosesTheDetentButInventsNoStep() throws {
        let fake = makeFake()
        let inputs = try GPIOInputs(lines: fake, configuration: configuration)
        // One detent is B falls, A falls, B rises, A rises; A's falling edge never arrives.
        let events: [GPIOEdgeEvent] = [
            .init(index: 2, edge: .falling, timestampNanoseconds: ms(1)),
            .init(index: 2, edge: .rising, timestampNanoseconds: ms(3)),
            .init(index: 1, edge: .rising, timestampNanoseconds: ms(4)),
        ]
        #expect(inputs.handle(events) == [])
        #expect(inputs.skippedTransitions == 1)
        // The knob keeps working after the loss.
        let detent: [GPIOEdgeEvent] = [
            .init(index: 2, edge: .falling, timestampNanoseconds: ms(10)),
            .init(index: 1, edge: .falling, timestampNanoseconds: ms(11)),
            .init(index: 2, edge: .rising, timestampNanoseconds: ms(12)),
            .init(index: 1, edge: .rising, timestampNanoseconds: ms(13)),
        ]
        #expect(inputs.handle(detent) == [.step(1)])
    }

    @Test func linesAreReleasedAndMisuseIsAnError() throws {
        let fake = makeFake()
        do {
            let inputs = try GPIOInputs(lines: fake, configuration: configuration)
            #expect(fake.owner(chip: Self.chip, offset: 17) == "ledring-input")
            inputs.release()
            #expect(fake.owner(chip: Self.chip, offset: 17) == nil)
            #expect(throws: HardwareError.self) { try inputs.waitForActions() }
        }
        do { _ = try GPIOInputs(lines: fake, configuration: configuration) }
        #expect(fake.owner(chip: Self.chip, offset: 5) == nil)
        let empty = #expect(throws: HardwareError.self) {
            try GPIOInputs(lines: fake, configuration: GPIOInputConfiguration(chipLabels: [Self.chip]))
        }
        #expect(empty?.kind == .invalidConfiguration)
    }
}
