import LEDRingControlTesting
import RingModel
import Testing
@testable import LEDRingControl

/// Notifications as an overlay on the controller, with explicit times: what shows, in which
/// order they give way, and what a restart keeps. Frames through `RecordingRingControl`.
@Suite struct NoticeTests {
    static func layout() throws -> RingLayout {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32)), effect: .pulse(period: 2)),
                        Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96)))]
        return layout
    }

    static func apply(_ c: inout Controller, _ line: String, at t: Double) throws {
        let outcome = c.apply(try Request.parse(line), at: t, status: { fatalError("no status") })
        #expect(outcome.reply.ok, "\(line): \(outcome.reply)")
    }

    @Test func anOverlayLeavesTheRingUntouchedAndGivesItBack() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        try Self.apply(&c, "set move 0 duration 10 curve linear", at: 0)
        try Self.apply(&c, "set move 1 duration 10 curve linear", at: 0)
        try Self.apply(&c, "spin stand", at: 0)
        try Self.apply(&c, "notify move stand color #0000ff value 25% for 4s", at: 2)
        let base: [RingValue] = [.progress(0.3), .progress(0.5), .spinner(tail: 0.1)]
        #expect(c.values(base, at: 3) == [.progress(0.25), .progress(0.5), .progress(0.25)])
        #expect(c.paints(at: 3)[0].look == 2 && c.paints(at: 3)[1] == .plain, "the colour is an extra look past the config's")
        // Underneath, the transition ran on and the spinner kept spinning.
        #expect(c.states[0].shown(at: 5) == 0.5 && c.states[2].spinningSince == 0)
        #expect(c.nextNoticeEnd == 6)
        let early = c.expire(at: 5.9)
        let onTime = c.expire(at: 6)
        #expect(!early && onTime)
        #expect(c.values(base, at: 6) == base && c.paints(at: 6) == [.plain, .plain, .plain])
    }

    /// A notification's value is read like `set`'s: in a ranged ring's own units, as laps on the
    /// others, a percentage of a lap on every ring; it is checked against each ring it covers,
    /// and survives a restart as written.
    @Test func aValueInARangedRingsOwnUnits() throws {
        var rings = Palette.activityRings()
        rings[2].range = ValueRange(min: 400, max: 2000)
        var layout = try RingLayout(rings: rings)
        layout.looks = try Self.layout().looks
        var c = Controller(layout: layout, brightness: 1)
        let base: [RingValue] = [.progress(0.1), .progress(0.1), .progress(0.1)]
        try Self.apply(&c, "notify stand color #ff0000 value 1200 for 10s", at: 0)
        #expect(c.values(base, at: 1)[2] == .progress(0.5))
        try Self.apply(&c, "notify stand color #ff0000 value 25% for 10s priority 1", at: 1)
        #expect(c.values(base, at: 2)[2] == .progress(0.25))
        // 1200 is fine on stand (ppm) but 1200 laps on move: refused whole, nothing changes.
        let refused = c.apply(try Request.parse("notify move stand color #ff0000 value 1200 for 10s priority 2"), at: 2, status: { fatalError() })
        #expect(!refused.reply.ok && !refused.changed && c.notices.count == 2)
        try Self.apply(&c, ##"{"verb":"notify","rings":["move","stand"],"color":"#00ff00","value":"50%","for":"10s","priority":3}"##, at: 3)
        #expect(c.values(base, at: 4)[0] == .progress(0.5) && c.values(base, at: 4)[2] == .progress(0.5))
        // Saved and restored as written: the percentage stays a percentage.
        var restarted = Controller(layout: layout, brightness: 1)
        restarted.restore(try SavedState(json: c.saved(wallOffset: 0).json), at: 4, wallOffset: 0)
        #expect(restarted.values(base, at: 5) == c.values(base, at: 5))
        #expect(restarted.notices.last?.notice.valuePercent == true)
    }

    @Test func higherPriorityWinsAndTheyExpireInOrder() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        try Self.apply(&c, "notify look passed for 10s priority 1", at: 0)
        try Self.apply(&c, "notify move look failed for 5s priority 5", at: 1)
        try Self.apply(&c, "notify move color #0000ff for 20s priority 0", at: 2)
        func showing(_ t: Double) -> String? {
            guard let n = c.notice(for: 0, at: t)?.notice else { return nil }
            return n.look ?? n.color?.hex
        }
        #expect(showing(3) == "failed")
        #expect(showing(5.9) == "failed")
        #expect(showing(6) == "passed", "the priority 5 one ended: the next highest shows")
        #expect(showing(11) == "#0000ff")
        #expect(showing(22) == nil)
        #expect(c.notice(for: 1, at: 3)?.notice.look == "passed", "the other rings only have the first")
        // Equal priority over the same rings: the later replaces the earlier.
        try Self.apply(&c, "notify look failed for 1m priority 1", at: 4)
        #expect(c.notices.count == 3 && showing(6.5) == "failed")
        try Self.apply(&c, "notify clear", at: 4)
        #expect(c.notices.isEmpty)
    }

    @Test func aRestartKeepsTheTimeLeftOnTheWallClock() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        try Self.apply(&c, "notify stand look failed for 60s priority 3", at: 100)
        // Saved at monotonic 120 = wall 1 000 120; restored after a reboot at monotonic 5 = wall 1 000 130.
        let saved = c.saved(wallOffset: 1_000_000)
        let decoded = try SavedState(json: saved.json)
        #expect(decoded == saved)
        var restarted = Controller(layout: try Self.layout(), brightness: 1)
        restarted.restore(decoded, at: 5, wallOffset: 1_000_125)
        #expect(restarted.notices.first?.until == 35, "160 − 125: the 35 s it had left")
        #expect(restarted.notice(for: 2, at: 34)?.notice.look == "failed" && restarted.notice(for: 2, at: 35) == nil)
        // An ended one is not restored.
        var late = Controller(layout: try Self.layout(), brightness: 1)
        late.restore(decoded, at: 5, wallOffset: 1_000_200)
        #expect(late.notices.isEmpty)
    }

    @Test(arguments: [
        ("notify for 5s", "notify: give a look or a colour"),
        ("notify look failed color #ff0000 for 5s", "notify: give a look or a colour (not both)"),
        ("notify look failed", "notify: say how long"),
        ("notify look failed for 0", "notify: for 0s: must be longer than 0"),
        ("notify look failed for -5", "for -5: must be seconds"),
        ("notify look failed for 2d", "for \"2d\": not a duration"),
        ("notify look nope for 5s", "no look called \"nope\""),
        ("notify disco look failed for 5s", "no ring called \"disco\""),
        ("notify color red for 5s", "color \"red\": must be \"#rrggbb\""),
        ("notify color #ff0000 effect flash 0 for 5s", "effect \"flash 0\": give how many flashes"),
        ("notify color #ff0000 effect wobble for 5s", "effect \"wobble\": unknown"),
        ("notify look failed value 20000% for 5s priority 1", "value 20000%: must be 0…100") ,
        ("notify look failed for 5s priority 101", "priority 101: must be -100…100"),
        (#"{"verb":"notify","look":"failed"}"#, "notify: give \"for\""),
        (##"{"verb":"notify","color":"#ff0000","for":"5s","colour":1}"##, "notify: unknown key \"colour\""),
    ])
    func badNotificationsChangeNothing(line: String, expected: String) throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        let outcome: Controller.Outcome
        do {
            outcome = c.apply(try Request.parse(line), at: 0, status: { fatalError() })
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            return
        }
        #expect(!outcome.changed && c.notices.isEmpty)
        if case .error(let message) = outcome.reply { #expect(message.hasPrefix(expected), "\(message)") } else { Issue.record("accepted \(line)") }
    }

    /// Keyed notifications (an alert each): several over the same rings at the same priority
    /// coexist; sending one again renews it (keeping its start and order); `notify clear KEY`
    /// ends that one only, and ending one that is not there changes nothing and says so.
    @Test func keyedNotificationsLiveUntilTheirKeyIsCleared() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        try Self.apply(&c, "notify move look failed for 10s priority 5 key a", at: 0)
        try Self.apply(&c, "notify move color #0000ff for 10s priority 5 key b", at: 1)
        #expect(c.notices.map { $0.notice.key } == ["a", "b"], "same rings and priority, different keys: both stay")
        #expect(c.notice(for: 0, at: 2)?.notice.key == "b", "of equal priority the later shows")
        // Re-sent at 8: lasts 10 s from then, keeps its place and its effect's start.
        try Self.apply(&c, "notify move look failed for 10s priority 5 key a", at: 8)
        #expect(c.notices.count == 2 && c.notices[0].since == 0 && c.notices[0].until == 18 && c.notices[0].sequence == 1)
        #expect(c.notice(for: 0, at: 9)?.notice.key == "b")
        // A keyless one replaces no keyed one, and keyed ones replace no keyless one.
        try Self.apply(&c, "notify move look passed for 30s priority 5", at: 9)
        try Self.apply(&c, "notify move look failed for 30s priority 5 key c", at: 9)
        #expect(c.notices.count == 4)
        let end = c.apply(try Request.parse("notify clear b"), at: 9.5, status: { fatalError() })
        #expect(end.changed && c.notices.map { $0.notice.key } == ["a", nil, "c"])
        let again = c.apply(.endNotice(key: "b"), at: 9.6, status: { fatalError() })
        // Issue 28: `notify --clear --key K` exited 0 when nothing matched (a typo went unseen).
        #expect(!again.reply.ok && !again.changed, "ending one that is not showing changes nothing and says so")
        #expect(again.reply == .error("notify --clear --key b: no notification with that key is showing (it ended, was cleared "
                                      + "or was never sent); ledring get --json shows the ones that are"))
        #expect(c.notice(for: 0, at: 10)?.notice.key == "c")
        // The key travels through the socket's JSON and the state file.
        #expect(try Request.parse(Request.notify(c.notices[2].notice).jsonLine) == .notify(c.notices[2].notice))
        #expect(try Request.parse(#"{"verb":"notify","clear":true,"key":"a"}"#) == .endNotice(key: "a"))
        #expect(try Request.parse(Request.endNotice(key: "a").jsonLine) == .endNotice(key: "a"))
        let saved = c.saved(wallOffset: 1000)
        #expect(try SavedState(json: saved.json) == saved)
        var restarted = Controller(layout: try Self.layout(), brightness: 1)
        restarted.restore(saved, at: 0, wallOffset: 1010)
        #expect(restarted.notices.map { $0.notice.key } == ["a", nil, "c"])
        try Self.apply(&restarted, "notify clear a", at: 1)
        #expect(restarted.notices.map { $0.notice.key } == [nil, "c"], "after a restart a key still ends its own")
    }

    /// Issue 28: notifications are capped, so a flood of new keys can neither grow the state
    /// past what the reader takes nor each frame's work: at most `maxNoticesPerRing` over a ring
    /// and `maxNotices` in all; the lowest priority goes first, then the oldest; a restart
    /// from a file with more is held to the same caps.
    @Test func aFloodOfKeysIsCappedDroppingTheLowestAndOldest() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        try Self.apply(&c, "notify move look failed for 1h priority 9 key important", at: 0)
        for k in 0..<200 { try Self.apply(&c, "notify move color #0000ff for 1h key k\(k)", at: Double(k) / 100) }
        let keys = c.notices.map { $0.notice.key ?? "" }
        #expect(c.notices.count == Controller.maxNoticesPerRing)
        #expect(keys.first == "important", "the highest priority stays")
        #expect(Array(keys.dropFirst()) == (185..<200).map { "k\($0)" }, "of equal priority the newest stay")
        #expect(c.droppedNotices == 201 - Controller.maxNoticesPerRing)
        // Over every ring at once (no rings named): the device-wide cap.
        for k in 0..<300 { try Self.apply(&c, "notify color #00ff00 for 1h key all\(k)", at: 3) }
        #expect(c.notices.count <= Controller.maxNotices)
        #expect(c.names.indices.allSatisfy { i in c.notices.filter { $0.notice.covers(c.names[i]) }.count <= Controller.maxNoticesPerRing })
        // A state file with thousands (from before the caps) comes back within them.
        var big = c.saved(wallOffset: 1000)
        big.notices = (0..<4200).map { SavedState.SavedNotice(notice: Notice(rings: ["stand"], look: "failed", duration: 3600, key: "a\($0)"), until: 5000) }
        var restarted = Controller(layout: try Self.layout(), brightness: 1)
        restarted.restore(big, at: 0, wallOffset: 1000)
        #expect(restarted.notices.count == Controller.maxNoticesPerRing && restarted.droppedNotices == 4200 - Controller.maxNoticesPerRing)
        #expect(restarted.notices.last?.notice.key == "a4199")
    }

    @Test func badKeysAreRefused() throws {
        var c = Controller(layout: try Self.layout(), brightness: 1)
        let long = String(repeating: "k", count: Notice.maxKeyBytes + 1)
        for request in [Request.endNotice(key: ""), .endNotice(key: long),
                        .notify(Notice(look: "failed", duration: 5, key: "a\nb"))] {
            let outcome = c.apply(request, at: 0, status: { fatalError() })
            guard case .error(let message) = outcome.reply else { Issue.record("accepted \(request)"); continue }
            #expect(message.hasPrefix("key "), "\(message)")
        }
        #expect(c.notices.isEmpty)
    }

    @Test func theFrameComesBackExactly() throws {
        let control = RecordingRingControl(layout: try Self.layout())
        try control.submit(.set(values: [.init(ring: "move", value: 0.4), .init(ring: "stand", value: 0.9)], duration: 3, curve: .linear))
        control.advance(by: 1)
        try control.submit(try Request.parse("notify move color #0000ff effect pulse period 1 value 1 for 1s"))
        let during = control.snapshot().ring(named: "move")?.leds ?? []
        let blue = during.compactMap { RGB8(hex: $0) }.filter { $0.b > 100 && Int($0.b) > 2 * Int($0.r) && Int($0.b) > 2 * Int($0.g) }
        #expect(during.count == 24 && blue.count == 24, "\(during)")
        control.advance(by: 1.5)
        let after = control.snapshot()
        // The same frame a control that never saw the notification shows at that time.
        let plain = RecordingRingControl(layout: try Self.layout())
        try plain.submit(.set(values: [.init(ring: "move", value: 0.4), .init(ring: "stand", value: 0.9)], duration: 3, curve: .linear))
        plain.advance(by: 2.5)
        #expect(after.rings.map(\.leds) == plain.snapshot().rings.map(\.leds))
    }
}
