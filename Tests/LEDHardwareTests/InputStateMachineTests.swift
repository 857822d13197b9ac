import LEDHardware
import Testing

/// Milliseconds as event timestamps in nanoseconds.
private func ms(_ value: Double) -> UInt64 { UInt64(value * 1_000_000) }

@Suite struct DebouncerTests {
    @Test func cleanPressIsConfirmedAfterTheWindowAtItsStartTime() {
        var debouncer = Debouncer(initialLevel: true, windowNanoseconds: ms(10))
        #expect(debouncer.feed(level: false, at: ms(100)) == nil)
        #expect(debouncer.deadlineNanoseconds == ms(110))
        #expect(debouncer.tick(now: ms(109)) == nil)
        #expect(debouncer.tick(now: ms(110)) == .init(level: false, timestampNanoseconds: ms(100)))
        #expect(debouncer.level == false)
        #expect(debouncer.deadlineNanoseconds == nil)
    }

    @Test func bouncesAroundAPressGiveOneChange() {
        var debouncer = Debouncer(initialLevel: true, windowNanoseconds: ms(10))
        var changes: [Debouncer.Change] = []
        // Contact closes at 100 ms and chatters for 3 ms.
        for (level, time) in [(false, 100.0), (true, 100.4), (false, 101.0), (true, 101.2), (false, 102.9)] {
            if let change = debouncer.feed(level: level, at: ms(time)) { changes.append(change) }
        }
        if let change = debouncer.tick(now: ms(150)) { changes.append(change) }
        #expect(changes == [.init(level: false, timestampNanoseconds: ms(102.9))])
        #expect(debouncer.ignoredBounces == 2)
    }

    @Test func aGlitchShorterThanTheWindowIsIgnored() {
        var debouncer = Debouncer(initialLevel: true, windowNanoseconds: ms(10))
        #expect(debouncer.feed(level: false, at: ms(5)) == nil)
        #expect(debouncer.feed(level: true, at: ms(8)) == nil)
        #expect(debouncer.tick(now: ms(100)) == nil)
        #expect(debouncer.level == true)
    }

    @Test func theNextEdgeConfirmsAPendingLevelWithoutATick() {
        var debouncer = Debouncer(initialLevel: false, windowNanoseconds: ms(10))
        _ = debouncer.feed(level: true, at: ms(0))
        // Released 300 ms later: the press is confirmed first, then the release starts pending.
        #expect(debouncer.feed(level: false, at: ms(300)) == .init(level: true, timestampNanoseconds: ms(0)))
        #expect(debouncer.tick(now: ms(310)) == .init(level: false, timestampNanoseconds: ms(300)))
    }

    @Test func aRepeatedEdgeKeepsTheFirstTimestamp() {
        var debouncer = Debouncer(initialLevel: false, windowNanoseconds: ms(10))
        _ = debouncer.feed(level: true, at: ms(0))
        _ = debouncer.feed(level: true, at: ms(4))  // the falling edge between was lost
        #expect(debouncer.tick(now: ms(10)) == .init(level: true, timestampNanoseconds: ms(0)))
    }
}

@Suite struct ButtonGestureTests {
    @Test func shortPressIsAPress() {
        var button = ButtonGesture(longPressNanoseconds: ms(800))
        button.press(at: ms(0))
        #expect(button.tick(now: ms(200)) == nil)
        #expect(button.release(at: ms(250)) == .press)
        #expect(!button.isPressed)
    }

    @Test func holdingFiresTheLongPressOnceWhileHeld() {
        var button = ButtonGesture(longPressNanoseconds: ms(800))
        button.press(at: ms(1000))
        #expect(button.deadlineNanoseconds == ms(1800))
        #expect(button.tick(now: ms(1799)) == nil)
        #expect(button.tick(now: ms(1800)) == .longPress)
        #expect(button.tick(now: ms(2500)) == nil)
        #expect(button.deadlineNanoseconds == nil)
        #expect(button.release(at: ms(3000)) == nil)
    }

    @Test func aLongPressNoTickSawIsReportedOnRelease() {
        var button = ButtonGesture(longPressNanoseconds: ms(800))
        button.press(at: ms(0))
        #expect(button.release(at: ms(900)) == .longPress)
        #expect(button.release(at: ms(950)) == nil)
    }
}

@Suite struct QuadratureDecoderTests {
    /// The contact states of one detent clockwise from rest (11): 11 → 01 → 00 → 10 → 11.
    static let clockwise: [(Bool, Bool)] = [(false, true), (false, false), (true, false), (true, true)]
    static let counterClockwise: [(Bool, Bool)] = [(true, false), (false, false), (false, true), (true, true)]

    func run(_ decoder: inout QuadratureDecoder, _ states: [(Bool, Bool)]) -> [Int] {
        states.map { decoder.update(a: $0.0, b: $0.1) }.filter { $0 != 0 }
    }

    @Test func oneDetentEachWay() throws {
        var decoder = try QuadratureDecoder(a: true, b: true)
        #expect(run(&decoder, Self.counterClockwise) == [1])
        #expect(run(&decoder, Self.clockwise) == [-1])
        var reversed = try QuadratureDecoder(a: true, b: true, reversed: true)
        #expect(run(&reversed, Self.counterClockwise) == [-1])
    }

    @Test func fastTurnsCountEveryDetent() throws {
        var decoder = try QuadratureDecoder(a: true, b: true)
        let turn = Array(repeating: Self.counterClockwise, count: 12).flatMap { $0 }
        #expect(run(&decoder, turn) == Array(repeating: 1, count: 12))
    }

    @Test func contactBounceCancelsOut() throws {
        var decoder = try QuadratureDecoder(a: true, b: true)
        // A chatters at the detent, then the knob goes half way and back.
        let bounce: [(Bool, Bool)] = [(false, true), (true, true), (false, true), (true, true),
                                      (false, true), (false, false), (false, true), (true, true)]
        #expect(run(&decoder, bounce) == [])
        #expect(decoder.skippedTransitions == 0)
    }

    @Test func aSkippedStateMidTurnStillCountsTheDetent() throws {
        var decoder = try QuadratureDecoder(a: true, b: true)
        // 11 → 10, then 00 is lost so 10 → 01 changes both contacts, then 01 → 11 ends the detent.
        let states: [(Bool, Bool)] = [(true, false), (false, true), (true, true)]
        #expect(run(&decoder, states) == [1])
        #expect(decoder.skippedTransitions == 1)
    }

    @Test func aSkipFromStandstillIsCountedButNotGuessed() throws {
        var decoder = try QuadratureDecoder(a: true, b: true)
        #expect(run(&decoder, [(false, false), (true, true)]) == [])
        #expect(decoder.skippedTransitions == 2)
    }

    @Test func halfStepKnobsStepAtBothRestStates() throws {
        var decoder = try QuadratureDecoder(a: true, b: true, transitionsPerStep: 2)
        #expect(run(&decoder, Self.counterClockwise) == [1, 1])
        var single = try QuadratureDecoder(a: true, b: true, transitionsPerStep: 1)
        #expect(run(&single, Self.clockwise) == [-1, -1, -1, -1])
    }

    @Test func impossibleKnobsAreRefused() {
        #expect(throws: HardwareError.self) { try QuadratureDecoder(a: true, b: true, transitionsPerStep: 3) }
        #expect(throws: HardwareError.self) { try QuadratureDecoder(a: true, b: true, detentState: 4) }
    }
}
