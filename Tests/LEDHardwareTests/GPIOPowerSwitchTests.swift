import LEDHardware
import LEDRingTesting
import LEDWire
import RingModel
import Testing

@Suite struct GPIOPowerSwitchTests {
    static let chip = "pinctrl-rp1"

    func makeFake() -> FakeGPIO {
        let fake = FakeGPIO()
        fake.addChip(label: Self.chip, lineCount: 54)
        return fake
    }

    /// Indexes in the fake's log of every change of `offset`.
    func changes(_ fake: FakeGPIO, _ offset: UInt32) -> [(index: Int, level: Bool)] {
        fake.log.enumerated().compactMap { index, event in
            if case .changed(let line, let level) = event, line.offset == offset { return (index, level) }
            return nil
        }
    }

    @Test(arguments: [false, true])
    func supplyIsOnBeforeTheFirstFrameAndOffAfterTheBlankFrame(activeLow: Bool) throws {
        let fake = makeFake()
        let encoder = try APA102Encoder()
        let power = try GPIOPowerSwitch(lines: fake, chipLabels: [Self.chip], line: .offset(26), activeLow: activeLow)
        // Requesting the line must already mean "off", so it cannot flash the LEDs.
        #expect(fake.history(chip: Self.chip, offset: 26) == [activeLow])
        let clocked = try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(20), clock: .offset(21))
        let transport = PowerSwitchedTransport(clocked, power: power)
        #expect(!power.isOn)

        try transport.send(try encoder.encode([RGB8(r: 9, g: 9, b: 9)]), framing: .splittable)
        try transport.send(try encoder.encode([RGB8(r: 200, g: 0, b: 0)]), framing: .splittable)
        try transport.finish(blankFrame: try encoder.encode([RGB8(r: 0, g: 0, b: 0)]), framing: .splittable)
        try transport.close()

        let powerChanges = changes(fake, 26)
        #expect(powerChanges.map(\.level) == [activeLow, !activeLow, activeLow])
        let clockChanges = changes(fake, 21).dropFirst()  // the first is the request's idle level
        let firstClock = try #require(clockChanges.first?.index)
        let lastClock = try #require(clockChanges.last?.index)
        #expect(powerChanges[1].index < firstClock)
        #expect(powerChanges[2].index > lastClock)
        // The blank frame is the last one the LEDs received before the supply went off.
        let bytes = fake.clockedBytes(chip: Self.chip, data: 20, clock: 21)
        let frameLength = encoder.encodedLength(ledCount: 1)
        #expect(try encoder.decode(Array(bytes.suffix(frameLength)), ledCount: 1).map(\.colour) == [RGB8(r: 0, g: 0, b: 0)])
        // Every line is back with the kernel.
        for offset: UInt32 in [20, 21, 26] { #expect(fake.owner(chip: Self.chip, offset: offset) == nil) }
        guard case .released(let lines) = fake.log.last else {
            Issue.record("the log should end with a release")
            return
        }
        #expect(!lines.isEmpty)
    }

    /// A transport that notes whether the supply was on at each send.
    final class PowerProbe: Transport {
        let fake: FakeGPIO
        var levels: [Bool] = []
        init(_ fake: FakeGPIO) { self.fake = fake }
        func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
            levels.append(fake.level(chip: GPIOPowerSwitchTests.chip, offset: 5))
        }
        func close() throws(HardwareError) {}
    }

    @Test func closingWithoutFinishStillSwitchesOff() throws {
        let fake = makeFake()
        let probe = PowerProbe(fake)
        let power = try GPIOPowerSwitch(lines: fake, chipLabels: [Self.chip], line: .offset(5))
        let transport = PowerSwitchedTransport(probe, power: power)
        try transport.send([1, 2, 3])
        try transport.send([4])
        #expect(probe.levels == [true, true])
        try transport.close()
        #expect(fake.history(chip: Self.chip, offset: 5) == [false, true, false])
        #expect(fake.owner(chip: Self.chip, offset: 5) == nil)
        try transport.close()
        #expect(throws: HardwareError.self) { try transport.send([1]) }
    }

    @Test func droppedSwitchTurnsTheSupplyOff() throws {
        let fake = makeFake()
        do {
            let power = try GPIOPowerSwitch(lines: fake, chipLabels: [Self.chip], line: .offset(6), activeLow: true)
            try power.on()
        }
        #expect(fake.history(chip: Self.chip, offset: 6) == [true, false, true])
        #expect(fake.owner(chip: Self.chip, offset: 6) == nil)
    }
}
