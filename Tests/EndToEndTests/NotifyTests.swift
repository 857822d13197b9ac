import Foundation
import Glibc
import RingModel
import Testing

/// Notifications through the built binary's socket, checked in the frames on the wire: the frame
/// after one ends is exactly the frame before it, also when the daemon is killed and restarted
/// while one is showing, and two of different priority end in order.
@Suite(.serialized) struct NotifyTests {
    /// Waits for the wire to stand still (no new frame for half a second) and returns the last frame.
    static func settledFrame(_ daemon: DaemonProcess) throws -> [RGB8] {
        var previous = -1
        _ = daemon.waitUntil {
            usleep(500_000)
            let now = (try? daemon.frames().count) ?? -1
            defer { previous = now }
            return now == previous
        }
        return try #require(daemon.frames().last)
    }

    @Test func theFrameBeforeComesBackWhenANotificationEnds() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=0.4", "exercise=1.3", "co2=900"]).status == 0)
        #expect(try daemon.client(["look", "exercise", "passed"]).status == 0)
        let before = try Self.settledFrame(daemon)
        #expect(try daemon.client(["notify", "--color", "#0000ff", "--value", "1", "--for", "1.5s"]).status == 0)
        #expect(daemon.waitUntil(timeout: 5) { (try? daemon.frames().last).map { $0[5].b > 100 && $0[5].r < 40 } == true },
                "the notification did not show")
        #expect(daemon.waitUntil(timeout: 5) { (try? daemon.frames().last).map { !($0[5].b > 100 && $0[5].r < 40) } == true },
                "the notification did not end")
        let after = try Self.settledFrame(daemon)
        #expect(after == before, "the frame after the notification differs from the one before")
        let frames = try daemon.frames()
        #expect(frames.contains { $0[5].b > 100 && $0[5].r < 40 })
    }

    /// On a ring at 0 %, a notification without a value is a status: every LED in its colour (it
    /// was near black, the value's empty fill); with `--value` it shows that fill in its colour.
    @Test func aNotificationWithoutAValueLightsTheWholeIdleRing() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        _ = try Self.settledFrame(daemon)
        func blue(_ c: RGB8) -> Bool { c.b > 100 && c.r < 40 && c.g < 40 }
        #expect(try daemon.client(["notify", "move", "--color", "#0000ff", "--for", "3s"]).status == 0)
        #expect(daemon.waitUntil(timeout: 5) { (try? daemon.frames().last).map { $0[0..<24].allSatisfy(blue) } == true },
                "not every LED of the idle ring is blue: \(String(describing: try? daemon.frames().last))")
        #expect(try daemon.client(["notify", "move", "--color", "#0000ff", "--value", "25%", "--for", "3s", "--priority", "1"]).status == 0)
        #expect(daemon.waitUntil(timeout: 5) { (try? daemon.frames().last).map { f in
            f[1..<5].allSatisfy(blue) && f[12..<24].allSatisfy { !blue($0) } } == true },
                "a quarter of the ring blue: \(String(describing: try? daemon.frames().last))")
    }

    /// While a 24-hour timer paces the frames about 28 s apart (12 LEDs × 256 levels), a `set`
    /// on another ring still reaches the wire within a frame or so, not at the timer's next step.
    @Test func aRequestIsShownAtOnceWhileTheLongestTimerRuns() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["timer", "co2", "24h"]).status == 0)
        _ = try Self.settledFrame(daemon)
        let sent = try daemon.frames().count
        #expect(try daemon.client(["set", "move=0.5"]).status == 0)
        func lit(_ f: [RGB8]) -> Int { f[0..<24].filter { Int($0.r) + Int($0.g) + Int($0.b) > 150 }.count }
        #expect(daemon.waitUntil(timeout: 5) { (try? daemon.frames()).map { $0.count > sent && lit($0.last!) >= 11 } == true },
                "the set did not reach the wire within 5 s: \(String(describing: try? daemon.frames().last.map(lit)))")
    }

    /// `get` says why a ring shows what it does: the notification over it, with its key and time.
    @Test func getShowsTheNotificationOverARing() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["notify", "move", "--color", "#ff2020", "--effect", "pulse", "--for", "1m", "--key", "disk-full"]).status == 0)
        let text = try daemon.client(["get"]).stdout
        #expect(text.range(of: #"move +0\.0 % \(target 0\.0 %\) notice #ff2020 pulse \(key disk-full\) (1m|59s) left"#, options: .regularExpression) != nil, "\(text)")
        #expect(!text.contains("exercise 0.0 % (target 0.0 %) notice"))
        let json = try daemon.client(["get", "--json"]).stdout
        #expect(json.contains(##""notice":{"color":"#ff2020","effect":"pulse","key":"disk-full","left":"##), "\(json)")
        #expect(try daemon.client(["notify", "--clear", "--key", "disk-full"]).status == 0)
        // Issue 28: clearing one that is not showing (again, or a typo) exited 0 as if it had.
        let again = try daemon.client(["notify", "--clear", "--key", "disk-full"])
        #expect(again.status == 65 && again.stderr.contains("no notification with that key is showing"), "\(again.status) \(again.stderr)")
        #expect(try !daemon.client(["get"]).stdout.contains("notice"))
    }

    @Test func higherPriorityFirstThenTheNextThenTheRing() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1"]).status == 0)
        let plain = try Self.settledFrame(daemon)
        #expect(try daemon.client(["notify", "move", "--look", "passed", "--for", "3s", "--priority", "1"]).status == 0)
        #expect(try daemon.client(["notify", "move", "--color", "#0000ff", "--for", "1s", "--priority", "5"]).status == 0)
        func head() -> RGB8? { (try? daemon.frames().last)?[5] }
        #expect(daemon.waitUntil(timeout: 5) { head().map { $0.b > 100 && $0.g < 80 } == true }, "blue (priority 5) first")
        #expect(daemon.waitUntil(timeout: 5) { head().map { $0.g > 150 && $0.b < 120 } == true }, "then green (priority 1)")
        #expect(daemon.waitUntil(timeout: 5) { head().map { !($0.g > 150 && $0.b < 120) } == true }, "green ends")
        #expect(try Self.settledFrame(daemon) == plain, "then the ring as it was")
    }

    @Test func aNotificationSurvivesKillDashNineWithItsTimeLeft() throws {
        let first = try LookTests.start()
        #expect(try first.client(["set", "move=0.6"]).status == 0)
        let before = try Self.settledFrame(first)
        #expect(try first.client(["notify", "move", "--color", "#0000ff", "--value", "1", "--for", "4s"]).status == 0)
        #expect(first.waitUntil { ((try? String(contentsOfFile: first.state, encoding: .utf8)) ?? "").contains("\"notices\"") })
        usleep(1_500_000)
        first.send(SIGKILL)
        _ = first.waitForExit()
        try? FileManager.default.removeItem(atPath: first.dump)
        let second = try LookTests.start(directory: first.directory)
        defer { second.cleanUp() }
        // Still blue after the restart, and the ring as it was once the 4 s are up (not 4 s more).
        #expect(second.waitUntil(timeout: 5) { (try? second.frames().last).map { $0[5].b > 100 && $0[5].r < 40 } == true })
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        #expect(second.waitUntil(timeout: 6) { (try? second.frames().last) == before }, "the frame before did not come back")
        var back = timespec()
        clock_gettime(CLOCK_MONOTONIC, &back)
        let shown = Double(back.tv_sec - end.tv_sec) + Double(back.tv_nsec - end.tv_nsec) / 1e9
        #expect(shown < 3.2, "shown \(shown) s after the restart: it started again instead of keeping its ~2.5 s left")
        #expect(!(((try? String(contentsOfFile: second.state, encoding: .utf8)) ?? "").contains("\"notices\"")) || second.waitUntil(timeout: 3) {
            !(((try? String(contentsOfFile: second.state, encoding: .utf8)) ?? "").contains("\"notices\""))
        })
    }

    @Test func aTimerKeepsItsTimeAcrossKillDashNineAndEndsInItsLook() throws {
        let first = try LookTests.start()
        #expect(try first.client(["timer", "move", "6s", "--then", "passed"]).status == 0)
        #expect(first.waitUntil { ((try? String(contentsOfFile: first.state, encoding: .utf8)) ?? "").contains("\"timers\"") })
        usleep(2_000_000)
        first.send(SIGKILL)
        _ = first.waitForExit()
        let second = try LookTests.start(directory: first.directory)
        defer { second.cleanUp() }
        let reply = try second.client(["get", "--json"]).stdout
        let left = try #require((try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
            .flatMap { ($0["rings"] as? [[String: Any]])?.first?["timerLeft"] as? Double }, "\(reply)")
        #expect(left > 1 && left < 4.2, "\(left) s left after 2 s of a 6 s timer and a restart")
        #expect(try second.rings()["move"].map { abs($0.shown - left / 6) < 0.1 } == true)
        #expect(try second.client(["status", "--json"]).stdout.contains(#""timers":{"move":"#))
        #expect(try second.client(["status"]).stdout.contains("timers: move "))
        // At the end: empty and in the look, with no more frames.
        #expect(second.waitUntil(timeout: 8) { (try? second.client(["get", "--json"]).stdout.contains(#""look":"passed""#)) == true })
        #expect(!(try second.client(["get", "--json"]).stdout.contains("timerLeft")))
    }

    /// `--until HH:MM` runs to that time of day in the local time zone (TZ): here two hours and
    /// a bit ahead in UTC, so the timer has that long left, within the seconds the test takes.
    /// At its end a `--notify` notification takes over its ring.
    @Test func aTimerUntilATimeOfDayAndANotificationAtItsEnd() throws {
        let daemon = try LookTests.start()
        defer { daemon.cleanUp() }
        let target = (Int(Date().timeIntervalSince1970) / 60 + 125) * 60
        let clock = String(format: "%02d:%02d", target / 3600 % 24, target / 60 % 60)
        let set = try LedringProcess.run(["timer", "move", "--until", clock, "--socket", daemon.socket], environment: ["TZ": "UTC"])
        #expect(set.status == 0, "\(set.stderr)")
        let reply = try daemon.client(["get", "--json"]).stdout
        let left = try #require((try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
            .flatMap { ($0["rings"] as? [[String: Any]])?.first?["timerLeft"] as? Double }, "\(reply)")
        let expected = Double(target) - Date().timeIntervalSince1970
        #expect(abs(left - expected) < 5, "\(left) s left, \(expected) s expected until \(clock) UTC")
        #expect(try daemon.client(["timer", "move", "5m", "--until", clock]).status == 64)
        #expect(try daemon.client(["timer", "move", "--until", "24:00"]).status == 64)

        // A 1 s timer whose end shows a blue notification on its ring for 2 s, then gives it back.
        #expect(try daemon.client(["timer", "move", "1s", "--notify", "--color", "#0000ff", "--value", "1", "--for", "2s"]).status == 0)
        func blue() -> Bool {
            guard let frames = try? daemon.frames(), let head = frames.last?[0] else { return false }
            return head.b > 100 && head.r < 60 && head.g < 60
        }
        #expect(daemon.waitUntil(timeout: 10) { blue() }, "no blue on the move ring after its timer ended")
        #expect(try daemon.client(["get", "--json"]).stdout.contains("\"look\"") == false)
        #expect(daemon.waitUntil(timeout: 10) { !blue() }, "the notification did not give the ring back")
    }
}
