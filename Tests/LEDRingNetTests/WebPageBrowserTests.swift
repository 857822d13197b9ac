import Foundation
import LEDRingNet
import Testing
import LEDRingTesting

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
        let control = try InMemoryRingControl()
        try control.set(["stand": 0.45], duration: nil, curve: nil)
        let server = try HTTPServer(settings: settings, control: control, log: { _ in })
        try server.start()
        defer { server.stop() }
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(server.port)/")

        // Loaded: one slider per ring, positioned at the rings' values.
        #expect(try eventually { try browser.evaluate("document.querySelectorAll('input[type=range]').length") as? Int == 3 })
        #expect(try browser.evaluate("document.querySelector('input[data-ring=stand]').value") as? String == "45")

        // The drawing shows the LEDs as they are: each dot coloured like its LED.
        let dots = "Array.from(document.querySelectorAll('g[data-ring=stand] circle')).map(c => c.getAttribute('fill'))"
        let stand = try #require(control.snapshot().ring(named: "stand")).leds
        #expect(try eventually { try browser.evaluate(dots) as? [String] == stand })

        // Move the "move" slider to 150 % as a user would.
        try browser.evaluate("""
            (() => { const s = document.querySelector('input[data-ring=move]'); s.value = 150;
                     s.dispatchEvent(new Event('input', { bubbles: true })); return true; })()
            """)
        #expect(eventually { control.snapshot().ring(named: "move")?.target == 1.5 })
        #expect(control.commands.contains(.set(["move": 1.5], duration: 0.3, curve: .easeOut)))
        // The new picture comes back over server-sent events and is drawn (after the transition).
        control.advance(by: 1)
        let move = try #require(control.snapshot().ring(named: "move")).leds
        let moveDots = "Array.from(document.querySelectorAll('g[data-ring=move] circle')).map(c => c.getAttribute('fill'))"
        #expect(try eventually { try browser.evaluate(moveDots) as? [String] == move })

        // Reset all.
        try browser.evaluate("document.getElementById('reset').click(); true")
        #expect(eventually { control.commands.last == .reset })
        #expect(control.snapshot().rings.allSatisfy { $0.target == 0 })
        #expect(try eventually { try browser.evaluate("document.querySelector('input[data-ring=stand]').value") as? String == "0" })
    }
}
