import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import Testing
import LEDRingNetTesting
import RingRender

/// Whether the browser test can run: it needs the HTTP server; without Chromium it is skipped on
/// a developer's machine but fails in CI (CI=true), which installs Debian's `chromium`.
private let browserTestEnabled = HTTPServer.isAvailable
    && (HeadlessChromium.path != nil || ProcessInfo.processInfo.environment["CI"] == "true")

/// The live page in headless Chromium: load it, move a slider, press "Reset all".
@Suite(.enabled(if: browserTestEnabled,
                "needs libmicrohttpd (`sudo apt install libmicrohttpd-dev`, rebuild) and Chromium (`sudo apt install chromium`)"))
struct WebPageBrowserTests {
    @Test func sliderAndResetAllDriveTheRings() throws {
        var settings = HTTPSettings()
        settings.port = 0
        let control = try RecordingRingControl()
        try control.submit(.set(["stand": 0.45]))
        let server = try HTTPServer(settings: settings, control: control, log: { _ in })
        try server.start()
        defer { server.stop() }
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(server.port)/")

        // Loaded: one slider per ring, positioned at the rings' values.
        #expect(try eventually { try browser.evaluate("document.querySelectorAll('input[type=range]').length") as? Int == 3 })
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
        #expect(eventually { control.commands.last == .resetAtOnce })
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 })
        #expect(try eventually { try browser.evaluate("document.querySelector('input[data-ring=stand]').value") as? String == "0" })
    }

    /// A page on another origin (the same server named `localhost`, another origin than
    /// `127.0.0.1` to the browser) tries what a malicious site would: simple no-cors POSTs, a
    /// JSON POST that needs a preflight. None changes anything; the page's
    /// own requests still do.
    @Test func anotherOriginCannotDriveTheRings() throws {
        var settings = HTTPSettings()
        settings.port = 0
        let control = try RecordingRingControl()
        let server = try HTTPServer(settings: settings, control: control, log: { _ in })
        try server.start()
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
        #expect(eventually { (try? browser.evaluate("document.querySelectorAll('input[type=range]').length")) as? Int == 3 })
        try browser.evaluate("document.getElementById('reset').click(); true")
        #expect(eventually { control.commands == [.resetAtOnce] })
    }
}
