import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import Testing
import LEDRingNetTesting
import RingModel

/// Whether the browser test can run: without Chromium it is skipped on a developer's machine but
/// fails in CI (CI=true), which installs Debian's `chromium`.
private let browserTestEnabled = HeadlessChromium.path != nil || ProcessInfo.processInfo.environment["CI"] == "true"

/// The live page in headless Chromium: load it, move a slider, press "Reset all".
@Suite(.enabled(if: browserTestEnabled,
                "needs Chromium (`sudo apt install chromium`)"))
struct WebPageBrowserTests {
    @Test func sliderAndResetAllDriveTheRings() throws {
        var settings = HTTPSettings()
        settings.port = 0
        let control = try RecordingRingControl()
        try control.submit(.set(["stand": 0.45]))
        let server = try LoopHTTPRunner(settings: settings, control: control, log: { _ in })
        defer { server.stop() }
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(server.port)/")

        // Loaded: one slider per ring, positioned at the rings' values.
        #expect(try eventually { try browser.evaluate("document.querySelectorAll('input[data-ring]').length") as? Int == 3 })
        #expect(try browser.evaluate("document.querySelector('input[data-ring=stand]').value") as? String == "45")

        // The drawing shows the LEDs as they look: each dot painted in the display conversion of
        // its LED's drive level (not the drive level itself, which looks darker and off-hue).
        let dots = "Array.from(document.querySelectorAll('g[data-ring=stand] circle')).map(c => c.getAttribute('fill'))"
        let standDrive = try #require(control.snapshot().ring(named: "stand")).leds
        let stand = standDrive.compactMap { RGB8(hex: $0).map { SRGB.display($0).hex } }
        #expect(stand.count == 12 && stand != standDrive)
        #expect(try eventually { try browser.evaluate(dots) as? [String] == stand })
        // And the browser really paints that colour: the computed fill of a lit dot.
        let painted = "getComputedStyle(document.querySelector('g[data-ring=stand] circle[data-led=\"0\"]')).fill"
        let expected = try #require(RGB8(hex: stand[0]))
        #expect(try eventually { try browser.evaluate(painted) as? String == "rgb(\(expected.r), \(expected.g), \(expected.b))" })

        // Move the "move" slider to 150 % as a user would.
        try browser.evaluate("""
            (() => { const s = document.querySelector('input[data-ring=move]'); s.value = 150;
                     s.dispatchEvent(new Event('input', { bubbles: true })); return true; })()
            """)
        #expect(eventually { control.snapshot().ring(named: "move")?.target == 1.5 })
        #expect(control.commands.contains(.set(["move": 1.5], duration: 0.3, curve: .easeOut)))
        // The new picture comes back over server-sent events and is drawn (after the transition).
        control.advance(by: 1)
        let move = try #require(control.snapshot().ring(named: "move")).leds.compactMap { RGB8(hex: $0).map { SRGB.display($0).hex } }
        let moveDots = "Array.from(document.querySelectorAll('g[data-ring=move] circle')).map(c => c.getAttribute('fill'))"
        #expect(try eventually { try browser.evaluate(moveDots) as? [String] == move })

        // Reset all.
        try browser.evaluate("document.getElementById('reset').click(); true")
        #expect(eventually { control.commands.last == .defaultReset })
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 })
        #expect(try eventually { try browser.evaluate("document.querySelector('input[data-ring=stand]').value") as? String == "0" })
    }

    /// An HTTP server for `control` on a free port, and headless Chromium on its page.
    static func page(_ control: RecordingRingControl) throws -> (LoopHTTPRunner, HeadlessChromium) {
        var settings = HTTPSettings()
        settings.port = 0
        let server = try LoopHTTPRunner(settings: settings, control: control, log: { _ in })
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(server.port)/")
        return (server, browser)
    }

    /// The page's own controls for what it could only show before: the power, the brightness,
    /// values past 200 %, and a spinner per ring.
    @Test func powerBrightnessLapsAndSpinDriveTheRings() throws {
        let control = try RecordingRingControl()
        let (server, browser) = try Self.page(control)
        defer { server.stop() }
        func text(_ js: String) -> String? { (try? browser.evaluate(js)) as? String }
        func drag(_ selector: String, to value: Int) throws {
            try browser.evaluate("""
                (() => { const s = document.querySelector('\(selector)'); s.value = \(value);
                         s.dispatchEvent(new Event('input', { bubbles: true })); return true; })()
                """)
        }
        #expect(eventually { text("document.getElementById('power').textContent") == "Turn off" })

        // Power: off, and the button offers to turn it on again; on.
        try browser.evaluate("document.getElementById('power').click(); true")
        #expect(eventually { control.snapshot().power == false })
        #expect(control.commands.last == .power(false))
        #expect(eventually { text("document.getElementById('power').textContent") == "Turn on" })
        try browser.evaluate("document.getElementById('power').click(); true")
        #expect(eventually { control.snapshot().power == true })
        #expect(eventually { text("document.getElementById('power').textContent") == "Turn off" })

        // Brightness: the slider sets it; a change from elsewhere moves the slider.
        #expect(text("document.getElementById('brightness').value") == "100")
        try drag("#brightness", to: 40)
        #expect(eventually { control.snapshot().brightness == 0.4 })
        #expect(control.commands.last == .brightness(0.4))
        #expect(eventually { text("document.getElementById('brightness-value').textContent") == "40 %" })
        Thread.sleep(forTimeInterval: 1.6)  // past the page's guard of a control just moved by hand
        try control.submit(.brightness(0.75))
        #expect(eventually { text("document.getElementById('brightness').value") == "75" })

        // Past 200 %: the slider reaches 300 %, and always a lap or more past a ring's target.
        #expect(text("document.querySelector('input[data-ring=move]').max") == "300")
        try drag("input[data-ring=move]", to: 290)
        #expect(eventually { control.snapshot().ring(named: "move")?.target == 2.9 })
        try control.submit(.set(["stand": 4.5]))
        #expect(eventually { text("document.querySelector('input[data-ring=stand]').max") == "600" })
        #expect(text("document.querySelector('input[data-ring=stand]').value") == "450")

        // Spin: the button starts the ring's spinner and, pressed again, stops it.
        let spin = "document.querySelector('.more[data-ring=exercise] button.spin')"
        #expect(text(spin + ".textContent") == "Spin")
        try browser.evaluate(spin + ".click(); true")
        #expect(eventually { control.snapshot().ring(named: "exercise")?.spinning == true })
        #expect(control.commands.last == .spin(rings: ["exercise"]))
        #expect(eventually { text(spin + ".textContent") == "Stop" })
        try browser.evaluate(spin + ".click(); true")
        #expect(eventually { control.snapshot().ring(named: "exercise")?.spinning == false })
        #expect(control.commands.last == .stop(rings: ["exercise"]))
        #expect(eventually { text(spin + ".textContent") == "Spin" })
    }

    /// Snapshots come at most every `eventInterval` (10 Hz); the LEDs move at the frame rate. The
    /// page moves a spinner itself between snapshots, once per screen refresh, and draws it close
    /// to what the LEDs show at that moment, far closer than the last snapshot; nothing is
    /// scheduled once no spinner shows.
    @Test func thePageMovesTheSpinnerBetweenSnapshots() throws {
        let control = try RecordingRingControl()
        let (server, browser) = try Self.page(control)
        defer { server.stop() }
        func text(_ js: String) -> String? { (try? browser.evaluate(js)) as? String }
        #expect(eventually { text("String(frame)") == "null" && text("document.body.getAttribute('data-snapshots')") != nil })

        try control.submit(.set(["move": 0.5]))
        try control.submit(.spin(rings: ["move"]))
        control.advance(by: 0.3)  // mid-sweep, where the ease-in-out spinner is fastest
        let start = control.snapshot()
        #expect(start.ring(named: "move")?.spin?.segments == [24])
        #expect(start.ring(named: "stand")?.spin == nil)
        #expect(eventually { (try? browser.evaluate("ledringSpun('move', 0)")) as? [String] != nil })
        #expect(try eventually { try browser.evaluate("ledringSpun('move', 0)") as? [String] == start.ring(named: "move")?.display })

        // Between snapshots the page paints frames of its own, and the dots move. (First the
        // snapshots stop coming: the page's first fetch and the stream's first events may still
        // be on their way, each at most an eventInterval apart.)
        var snapshots = text("document.body.getAttribute('data-snapshots')")
        for _ in 0..<10 {
            Thread.sleep(forTimeInterval: 0.5)
            let now = text("document.body.getAttribute('data-snapshots')")
            if now == snapshots { break }
            snapshots = now
        }
        #expect(try browser.evaluate("ledringSpun('move', 0)") as? [String] == start.ring(named: "move")?.display)
        let frames = Int(text("document.body.getAttribute('data-frames')") ?? "0") ?? 0
        let dots = "Array.from(document.querySelectorAll('g[data-ring=move] circle')).map(c => c.getAttribute('fill'))"
        #expect(eventually { Int(text("document.body.getAttribute('data-frames')") ?? "0") ?? 0 > frames + 5 })
        #expect(eventually { (try? browser.evaluate(dots)) as? [String] != start.ring(named: "move")?.display })
        #expect(text("document.body.getAttribute('data-snapshots')") == snapshots, "no snapshot came in between")

        // What it paints a moment after the snapshot against what the LEDs show then: the
        // largest difference of any LED's light in any channel (0…1, linear).
        func light(_ hex: String) -> [Double] {
            RGB8(hex: hex).map { c in [c.r, c.g, c.b].map { Double(SRGB.toLinear(Float($0) / 255)) } } ?? []
        }
        func worst(_ a: [String], _ b: [String]) -> Double {
            zip(a, b).map { x, y in zip(light(x), light(y)).map { abs($0 - $1) }.max() ?? 1 }.max() ?? 1
        }
        // The page's pictures for moments after the snapshot, asked before the clock moves
        // (moving it sends the next snapshot), then the LEDs' frames at those moments.
        let moments = [0.03, 0.06, 0.09]
        var painted: [[String]] = []
        for t in moments { painted.append(try #require(try browser.evaluate("ledringSpun('move', \(t))") as? [String])) }
        var now = 0.0
        for (t, picture) in zip(moments, painted) {
            control.advance(by: t - now)
            now = t
            let truth = try #require(control.snapshot().ring(named: "move")?.display)
            let moved = worst(picture, truth), stale = worst(start.ring(named: "move")?.display ?? [], truth)
            #expect(moved < 0.25 && moved < stale / 4, "after \(t) s: moved \(moved), stale \(stale)")
            print("spinner \(t) s after a snapshot: worst LED light off by \(moved) moved, \(stale) not moved")
        }

        // Stopped (or under a notification), no spinner is in the snapshot and no frame is asked for.
        try control.submit(.notify(Notice(rings: ["move"], color: RGB8(r: 255, g: 32, b: 32), duration: 30, key: "red")))
        #expect(control.snapshot().ring(named: "move")?.spin == nil)
        #expect(eventually { text("String(frame)") == "null" })
        try control.submit(.endNotice(key: "red"))
        #expect(eventually { text("String(frame)") != "null" })
        try control.submit(.stop(rings: ["move"]))
        #expect(eventually { text("String(frame)") == "null" })
        let still = text("document.body.getAttribute('data-frames')")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(text("document.body.getAttribute('data-frames')") == still)
        // The retained MQTT state does not carry it (it would be republished every frame).
        try control.submit(.spin(rings: ["move"]))
        let topics = MQTTTopics(settings: MQTTSettings())
        #expect(control.snapshot().ring(named: "move")?.spin != nil)
        #expect(topics.stateMessages(control.snapshot(), retain: true).allSatisfy { !$0.payload.contains("tail") })
    }

    /// With looks in the config: the look picker switches a ring's look; the timer field starts a
    /// timer the page counts down (between snapshots too), Pause holds it and Cancel removes it.
    @Test func lookPickerAndTimerDriveTheRings() throws {
        var settings = HTTPSettings()
        settings.port = 0
        let control = try LookNotifyTimerNetTests.control()
        let server = try LoopHTTPRunner(settings: settings, control: control, log: { _ in })
        defer { server.stop() }
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(server.port)/")
        func text(_ js: String) -> String? { (try? browser.evaluate(js)) as? String }
        func left(_ ring: String) -> String? { text("document.querySelector('.more[data-ring=\(ring)] output.left').textContent") }

        // A picker per ring: default and the config's looks, showing the ring's look.
        #expect(eventually { text("Array.from(document.querySelectorAll('select.look')).map(s => s.getAttribute('aria-label')).join()")
                    == "move look,exercise look,stand look" })
        #expect(text("Array.from(document.querySelectorAll('.more[data-ring=move] select option')).map(o => o.value).join()")
                    == "default,failed,passed")
        try control.submit(.look(rings: ["stand"], name: "failed"))
        #expect(eventually { text("document.querySelector('.more[data-ring=stand] select').value") == "failed" })
        #expect(text("document.querySelector('.more[data-ring=move] select').value") == "default")
        // A colour look (set over MQTT or the socket) shows in the picker too, and goes with it;
        // a ring switched off says so beside its percentage.
        try control.submit(.look(rings: ["move"], name: "#20a0ff pulse"))
        try control.submit(.light(rings: ["move"], on: false, duration: 0))
        #expect(eventually { text("document.querySelector('.more[data-ring=move] select').value") == "#20a0ff pulse" })
        #expect(eventually { text("document.querySelector('input[data-ring=move]').parentElement.querySelector('output').textContent")?.hasSuffix(" off") == true })
        try control.submit(.look(rings: ["move"], name: "default"))
        try control.submit(.light(rings: ["move"], on: true, duration: 0))
        #expect(eventually { text("document.querySelector('.more[data-ring=move] select').value") == "default" })
        #expect(text("Array.from(document.querySelectorAll('.more[data-ring=move] select option')).map(o => o.value).join()")
                    == "default,failed,passed")
        #expect(eventually { text("document.querySelector('input[data-ring=move]').parentElement.querySelector('output').textContent")?.hasSuffix(" off") == false })
        // A notification over a ring says so beside it, and nothing once it ends.
        func notice(_ ring: String) -> String? { text("document.querySelector('.more[data-ring=\(ring)] output.notice').textContent") }
        try control.submit(.notify(Notice(rings: ["stand"], color: RGB8(r: 255, g: 32, b: 32), duration: 30, key: "disk")))
        #expect(eventually { notice("stand")?.hasPrefix("notice #ff2020 (disk), 30 s left") == true }, "\(String(describing: notice("stand")))")
        #expect(notice("move") == "")
        try control.submit(.endNotice(key: "disk"))
        #expect(eventually { notice("stand") == "" })

        // Choosing a look in the page changes that ring's look, and only that ring's.
        try browser.evaluate("""
            (() => { const s = document.querySelector('.more[data-ring=exercise] select'); s.value = "passed";
                     s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()
            """)
        #expect(eventually { control.snapshot().ring(named: "exercise")?.look == "passed" })
        #expect(control.commands.last == .look(rings: ["exercise"], name: "passed"))
        #expect(control.snapshot().ring(named: "move")?.look == nil)

        // Start timers from the fields, as a user would: type, tick "count up", press Start.
        func start(_ ring: String, _ duration: String, up: Bool) throws {
            try browser.evaluate("""
                (() => { const f = document.querySelector('.more[data-ring=\(ring)] form');
                         f.querySelector('input.duration').value = "\(duration)";
                         f.querySelector('input.up').checked = \(up);
                         f.querySelector('button.start').click(); return true; })()
                """)
        }
        #expect(text("document.querySelector('.more[data-ring=exercise] button.cancel').hidden ? 'hidden' : 'shown'") == "hidden")
        try start("exercise", "25m", up: false)
        #expect(eventually { control.snapshot().ring(named: "exercise")?.timer != nil })
        let timer = try #require(control.snapshot().ring(named: "exercise")?.timer)
        #expect(abs(timer.left - 1500) < 0.5 && timer.duration == 1500 && !timer.up && !timer.paused)
        #expect(eventually { left("exercise").map { ["25:00", "24:59", "24:58"].contains($0) } ?? false })
        try start("move", "1h30m", up: true)
        #expect(eventually { control.snapshot().ring(named: "move")?.timer?.up == true })
        #expect(eventually { left("move")?.hasPrefix("1:29:") == true || left("move") == "1:30:00" })
        #expect(text("document.querySelector('.more[data-ring=exercise] button.cancel').hidden ? 'hidden' : 'shown'") == "shown")

        // The page counts down on its own between snapshots.
        let snapshots = text("document.body.getAttribute('data-snapshots')")
        let shown = left("exercise")
        #expect(eventually { left("exercise") != shown })
        #expect(text("document.body.getAttribute('data-snapshots')") == snapshots, "no snapshot came in between")
        // A snapshot sets it again: a minute on (the control's clock), about 24:00 left.
        control.advance(by: 60)
        #expect(eventually { left("exercise").map { $0.hasPrefix("23:5") || $0.hasPrefix("23:4") || $0 == "24:00" } ?? false })

        // Pause holds it, shown as paused; Cancel removes it.
        try browser.evaluate("document.querySelector('.more[data-ring=exercise] button.pause').click(); true")
        #expect(eventually { control.snapshot().ring(named: "exercise")?.timer?.paused == true })
        #expect(eventually { left("exercise") == "24:00 paused" })
        #expect(text("document.querySelector('.more[data-ring=exercise] button.pause').hidden ? 'hidden' : 'shown'") == "hidden")
        try browser.evaluate("document.querySelector('.more[data-ring=exercise] button.cancel').click(); true")
        #expect(eventually { control.snapshot().ring(named: "exercise")?.timer == nil })
        #expect(control.commands.last == .timer(ring: "exercise", .cancel))
        #expect(eventually { left("exercise") == "" })
        try browser.evaluate("document.querySelector('.more[data-ring=move] button.cancel').click(); true")
        #expect(eventually { left("move") == "" })
        #expect(text("String(tick)") == "null", "no countdown runs while no timer does")

        // A duration the API refuses shows its error.
        try start("stand", "soon", up: false)
        #expect(eventually { text("document.getElementById('status').className") == "error" })
        #expect(text("document.getElementById('status').textContent")?.hasPrefix(#"timer "soon": not a duration"#) == true)
        #expect(control.snapshot().ring(named: "stand")?.timer == nil)
    }

    /// A page on another origin (the same server named `localhost`, another origin than
    /// `127.0.0.1` to the browser) tries what a malicious site would: simple no-cors POSTs, a
    /// JSON POST that needs a preflight. None changes anything; the page's
    /// own requests still do.
    @Test func anotherOriginCannotDriveTheRings() throws {
        var settings = HTTPSettings()
        settings.port = 0
        let control = try RecordingRingControl()
        let server = try LoopHTTPRunner(settings: settings, control: control, log: { _ in })
        defer { server.stop() }
        let browser = try HeadlessChromium()
        // The attacking document: any page of origin http://localhost:<port> without the live
        // page's Content-Security-Policy (which would itself stop requests to other origins).
        try browser.open("http://localhost:\(server.port)/api/state")
        #expect(eventually { (try? browser.evaluate("location.pathname + ' ' + document.readyState")) as? String == "/api/state complete" })

        let target = "http://127.0.0.1:\(server.port)"
        let attempts = try browser.evaluate("""
            (async () => {
              const out = [];
              const tries = [["/api/power", "off", "text/plain"], ["/api/rings/move", '{"value":1}', "text/plain"],
                             ["/api/rings/move/spin", "", "application/x-www-form-urlencoded"], ["/api/brightness", "0.1", null]];
              for (const [path, body, type] of tries) {
                try { await fetch("\(target)" + path, { method: "POST", mode: "no-cors", body, headers: type ? { "Content-Type": type } : {} }); out.push("sent"); }
                catch (e) { out.push("error"); }
              }
              try { await fetch("\(target)/api/reset", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }); out.push("cors-allowed"); }
              catch (e) { out.push("cors-blocked"); }
              return out;
            })()
            """) as? [String]
        #expect(attempts == ["sent", "sent", "sent", "sent", "cors-blocked"])
        #expect(control.commands.isEmpty)

        // The live page on that origin still works.
        try browser.open("http://localhost:\(server.port)/")
        #expect(eventually { (try? browser.evaluate("document.querySelectorAll('input[data-ring]').length")) as? Int == 3 })
        try browser.evaluate("document.getElementById('reset').click(); true")
        #expect(eventually { control.commands == [.defaultReset] })
    }
}
