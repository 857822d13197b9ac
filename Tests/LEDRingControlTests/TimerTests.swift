import RingModel
import Testing
@testable import LEDRingControl

/// Timers on the controller with explicit times: the fraction shown, pause and resume, the end
/// (value and `then` look), and a restart 20 s into a 60 s timer through the state file.
@Suite struct TimerTests {
    static func controller() throws -> Controller {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "done", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96)))]
        return Controller(layout: layout, brightness: 1)
    }

    static func apply(_ c: inout Controller, _ line: String, at t: Double) throws {
        let outcome = c.apply(try Request.parse(line), at: t, status: { fatalError() })
        #expect(outcome.reply.ok, "\(line): \(outcome.reply)")
    }

    static func shown(_ c: Controller, _ ring: Int, at t: Double) -> Double? {
        guard case .progress(let v) = c.values([.progress(0), .progress(0), .progress(0)], at: t)[ring] else { return nil }
        return v
    }

    @Test func aSixtySecondTimerAfterARestartTwentySecondsIn() throws {
        var c = try Self.controller()
        try Self.apply(&c, "timer move 60s then done", at: 1000)
        #expect(abs((Self.shown(c, 0, at: 1020) ?? -1) - 40.0 / 60) < 1e-12)
        // Restart at monotonic 1020 (wall 5020); the new process's monotonic clock reads 7 at wall 5020.
        let file = c.saved(wallOffset: 4000).json
        var restarted = try Self.controller()
        restarted.restore(try SavedState(json: file), at: 7, wallOffset: 5013)
        #expect(abs((Self.shown(restarted, 0, at: 7) ?? -1) - 40.0 / 60) < 1e-9)
        #expect(restarted.nextNoticeEnd == 47 && restarted.isAnimating(at: 7))
        // Its end: empty, the look switches, nothing moves any more.
        let ended = restarted.expire(at: 47)
        #expect(ended)
        #expect(restarted.timers[0] == nil && restarted.states[0].target == 0 && restarted.look(of: 0) == "done")
        #expect(!restarted.isAnimating(at: 47) && restarted.nextNoticeEnd == nil)
    }

    /// A running timer alone asks for frames only as often as its ring can change one level of
    /// one LED; anything else that moves asks for every frame; a paused one for none.
    @Test func aTimerAloneSpacesFramesByItsRingsSmallestStep() throws {
        var c = try Self.controller()
        #expect(c.frameSpacing(at: 0) == nil)
        try Self.apply(&c, "timer move 25m", at: 0)
        // The activity rings' move ring has 24 LEDs: 1500 s / (24 × 256 levels).
        let step = try #require(c.frameSpacing(at: 1))
        #expect(abs(step - 1500.0 / (24 * 256)) < 1e-12)
        try Self.apply(&c, "timer stand 1m", at: 0)
        #expect(try #require(c.frameSpacing(at: 1)) < step, "the faster timer sets the pace")
        try Self.apply(&c, "set exercise 0.5 duration 2", at: 1)
        #expect(c.frameSpacing(at: 2) == 0, "a transition needs every frame")
        #expect(c.frameSpacing(at: 3.5) != 0)
        try Self.apply(&c, "timer move pause", at: 4)
        try Self.apply(&c, "timer stand pause", at: 4)
        #expect(c.frameSpacing(at: 5) == nil && !c.isAnimating(at: 5))
    }

    /// A timer's end can show a notification (its own ring unless it names rings) for the
    /// notification's whole length from the end, kept across a restart; text and JSON alike.
    @Test func aNotificationAtTheEnd() throws {
        var c = try Self.controller()
        try Self.apply(&c, "timer move 10s notify color #0000ff value 1 for 5s priority 2", at: 0)
        guard case .timer(_, .start(_, _, _, let notice?)) = try Request.parse("timer move 10s notify color #0000ff for 5s") else {
            Issue.record("no notification parsed")
            return
        }
        #expect(notice.rings == ["move"] && notice.duration == 5)
        var restarted = try Self.controller()
        restarted.restore(try SavedState(json: c.saved(wallOffset: 100).json), at: 0, wallOffset: 100)
        #expect(restarted.timers[0]?.notice?.color == RGB8(r: 0, g: 0, b: 255))
        for var controller in [c, restarted] {
            let ended = controller.expire(at: 10)
            #expect(ended)
            #expect(controller.notice(for: 0, at: 10)?.notice.color == RGB8(r: 0, g: 0, b: 255))
            #expect(controller.notice(for: 1, at: 10) == nil && Self.shown(controller, 0, at: 12) == 1)
            #expect(controller.nextNoticeEnd == 15)
            let gone = controller.expire(at: 15)
            #expect(gone && Self.shown(controller, 0, at: 15) == 0)
        }
        try Self.apply(&c, ##"{"verb":"timer","ring":"stand","duration":"4s","notify":{"rings":["move","stand"],"look":"done","for":"1m"}}"##, at: 20)
        let stood = c.expire(at: 24)
        #expect(stood && c.notice(for: 0, at: 24)?.notice.look == "done" && c.notice(for: 2, at: 24) != nil)
        // A bad notification refuses the whole timer.
        for line in ["timer move 10s notify for 5s", "timer move 10s notify clear", "timer move 10s notify look nope for 5s",
                     ##"{"verb":"timer","ring":"move","duration":"4s","notify":"done"}"##] {
            #expect(throws: RequestError.self, "\(line)") {
                let outcome = c.apply(try Request.parse(line), at: 30, status: { fatalError() })
                if case .error(let message) = outcome.reply { throw RequestError(message) }
            }
        }
        #expect(c.timers[0] == nil)
    }

    @Test func pauseHoldsResumeRunsOnAndUpFills() throws {
        var c = try Self.controller()
        try Self.apply(&c, "timer stand 10s up", at: 0)
        try Self.apply(&c, "timer stand pause", at: 4)
        #expect(Self.shown(c, 2, at: 100) == 0.4 && c.nextNoticeEnd == nil && !c.isAnimating(at: 100))
        try Self.apply(&c, "timer stand resume", at: 100)
        #expect(Self.shown(c, 2, at: 103) == 0.7 && c.nextNoticeEnd == 106)
        // A paused timer across a restart comes back as far as it got.
        try Self.apply(&c, "timer stand pause", at: 103)
        var restarted = try Self.controller()
        restarted.restore(try SavedState(json: c.saved(wallOffset: 50).json), at: 1, wallOffset: 9999)
        #expect(Self.shown(restarted, 2, at: 500) == 0.7)
        try Self.apply(&c, "timer stand cancel", at: 104)
        #expect(c.timers[2] == nil && Self.shown(c, 2, at: 105) == 0)
    }

    @Test(arguments: [("timer", "timer: give a ring and a duration"), ("timer move", "timer: give a ring and a duration"),
                      ("timer move -5s", "timer -5s: must be seconds"), ("timer move 0", "timer: 0s must be longer than 0"),
                      ("timer move 25m then gone", "no look called \"gone\""), ("timer move 2d", "timer \"2d\": not a duration"),
                      ("timer move pause", "timer: move has no timer to pause"), ("timer disco 5m", "no ring called \"disco\"")])
    func badTimersChangeNothing(line: String, expected: String) throws {
        var c = try Self.controller()
        do {
            let outcome = c.apply(try Request.parse(line), at: 0, status: { fatalError() })
            guard case .error(let message) = outcome.reply else { Issue.record("accepted \(line)"); return }
            #expect(message.hasPrefix(expected), "\(message)")
            #expect(!outcome.changed && c.timers.allSatisfy { $0 == nil })
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
        }
    }
}
