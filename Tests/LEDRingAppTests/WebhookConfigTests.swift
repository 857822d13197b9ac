import LEDRingNet
import RingModel
import Testing
@testable import LEDRingApp

/// `http.webhooks` in the config: read as written, and every mistake reported with its path
/// (rings and looks checked against the config's own).
@Suite struct WebhookConfigTests {
    static let top = ##""rings": [{"name": "build", "leds": 16}, {"name": "alarm", "leds": 12}], "looks": {"passed": {"gradient": "#20ff60"}, "failed": {"gradient": "#ff2020", "effect": "pulse"}}"##

    static func config(_ webhooks: String) -> String {
        "{" + top + #", "http": {"port": 0, "webhooks": "# + webhooks + "}}"
    }

    /// GitHub takes any secret, and its docs' own example has spaces (issue 25): accepted inline.
    @Test func aGitHubSecretWithSpacesIsTaken() throws {
        let config = try DaemonConfig.parse(Array(Self.config(#"{"github": {"ring": "build", "secret": "It's a Secret to Everybody"}}"#).utf8))
        #expect(config.http?.webhooks.github?.secret == "It's a Secret to Everybody")
    }

    @Test func theSimpleCaseIsRead() throws {
        let config = try DaemonConfig.parse(Array(Self.config(#"""
        {"github": {"secretFile": "/etc/ledring/github-secret", "ring": "build", "looks": {"success": "passed", "failure": "failed"},
                    "workflows": ["CI"], "branches": ["main"]},
         "alertmanager": {"token": "t0ken", "rings": ["alarm"], "color": "#ff2020", "effect": "pulse", "period": 1.5, "priority": 60}}
        """#).utf8))
        let hooks = try #require(config.http?.webhooks)
        var github = WebhookSettings.GitHub(ring: "build", secretFile: "/etc/ledring/github-secret")
        github.looks = ["success": "passed", "failure": "failed"]
        github.workflows = ["CI"]
        github.branches = ["main"]
        #expect(hooks.github == github)
        #expect(hooks.github?.running == "spin", "spins unless told otherwise")
        var alertmanager = WebhookSettings.Alertmanager(token: "t0ken")
        alertmanager.rings = ["alarm"]
        alertmanager.color = RGB8(r: 255, g: 32, b: 32)
        alertmanager.effect = .pulse(period: 1.5)
        alertmanager.priority = 60
        #expect(hooks.alertmanager == alertmanager)
        #expect(hooks.maxBodyBytes == 256 * 1024)
        let plain = try DaemonConfig.parse(Array(("{" + Self.top + #", "http": {}}"#).utf8))
        #expect(plain.http?.webhooks == WebhookSettings(), "off unless configured")
    }

    @Test(arguments: [
        (#"{"github": {"secret": "s", "ring": "bulid"}}"#, "http.webhooks.github.ring: no ring called \"bulid\""),
        (#"{"github": {"secret": "s"}}"#, "http.webhooks.github: says no \"ring\""),
        (#"{"github": {"ring": "build"}}"#, "http.webhooks.github: needs \"secretFile\" (or \"secret\")"),
        (#"{"github": {"ring": "build", "secret": "s", "secretFile": "/s"}}"#, "http.webhooks.github.secretFile: give secret or secretFile, not both"),
        (#"{"github": {"ring": "build", "secretFile": "secret.txt"}}"#, "http.webhooks.github.secretFile: must be an absolute path"),
        (#"{"github": {"ring": "build", "secret": " padded"}}"#, "http.webhooks.github.secret: must be non-empty, without control characters or spaces at its ends"),
        (#"{"github": {"ring": "build", "secret": "a\tb"}}"#, "http.webhooks.github.secret: must be non-empty, without control characters"),
        (#"{"alertmanager": {"token": "two words"}}"#, "http.webhooks.alertmanager.token: must be non-empty without spaces"),
        (#"{"github": {"ring": "build", "secret": "s", "running": "busy"}}"#, "http.webhooks.github.running: no look called \"busy\""),
        (#"{"github": {"ring": "build", "secret": "s", "looks": {"success": "green"}}}"#, "http.webhooks.github.looks.success: no look called \"green\""),
        (#"{"github": {"ring": "build", "secret": "s", "looks": {"succeeded": "passed"}}}"#, "http.webhooks.github.looks.succeeded: is not a conclusion"),
        (#"{"github": {"ring": "build", "secret": "s", "looks": "passed"}}"#, "http.webhooks.github.looks: must map conclusions to looks"),
        (#"{"github": {"ring": "build", "secret": "s", "workflows": "CI"}}"#, "http.webhooks.github.workflows:"),
        (#"{"github": {"ring": "build", "secret": "s", "events": ["push"]}}"#, "http.webhooks.github.events: unknown key"),
        (#"{"alertmanager": {"token": "t", "rings": ["alarm", "sirne"]}}"#, "http.webhooks.alertmanager.rings: no ring called \"sirne\""),
        (#"{"alertmanager": {"rings": ["alarm"]}}"#, "http.webhooks.alertmanager: needs \"tokenFile\" (or \"token\")"),
        (#"{"alertmanager": {"token": "t", "tokenFile": "/t"}}"#, "http.webhooks.alertmanager.tokenFile: give token or tokenFile, not both"),
        (#"{"alertmanager": {"token": "t", "look": "alert"}}"#, "http.webhooks.alertmanager.look: no look called \"alert\""),
        (##"{"alertmanager": {"token": "t", "look": "failed", "color": "#ff0000"}}"##, "http.webhooks.alertmanager.color: give look or color, not both"),
        (#"{"alertmanager": {"token": "t", "look": "failed", "effect": "blink"}}"#, "http.webhooks.alertmanager.effect: goes with color"),
        (#"{"alertmanager": {"token": "t", "color": "red"}}"#, "http.webhooks.alertmanager.color: color \"red\": must be \"#rrggbb\""),
        (#"{"alertmanager": {"token": "t", "effect": "wobble"}}"#, "http.webhooks.alertmanager.effect: effect \"wobble\": unknown"),
        (#"{"alertmanager": {"token": "t", "priority": 101}}"#, "http.webhooks.alertmanager.priority: must be -100…100"),
        (#"{"maxBodyBytes": 10}"#, "http.webhooks.maxBodyBytes: must be 1024…1048576"),
        (#"{"gitlab": {}}"#, "http.webhooks.gitlab: unknown key"),
    ])
    func mistakesAreReportedWithTheirPath(webhooks: String, expected: String) {
        let found = DaemonConfig.problems(Self.config(webhooks))
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    /// Every mistake at once, as with the rest of the config.
    @Test func everyProblemIsListed() {
        let found = DaemonConfig.problems(Self.config(#"""
        {"github": {"ring": "nope", "looks": {"failure": "red"}}, "alertmanager": {"look": "loud", "rings": ["x"]}}
        """#))
        for path in ["http.webhooks.github.ring:", "http.webhooks.github:", "http.webhooks.github.looks.failure:",
                     "http.webhooks.alertmanager:", "http.webhooks.alertmanager.look:", "http.webhooks.alertmanager.rings:"] {
            #expect(found.contains { $0.hasPrefix(path) }, "\(path) in \(found)")
        }
    }

    /// A secret file that cannot be read stops the daemon with the setting and the reason.
    @Test func anUnreadableSecretFileIsNamed() throws {
        var settings = WebhookSettings()
        settings.github = WebhookSettings.GitHub(ring: "build", secretFile: "/nonexistent/github-secret")
        #expect(throws: HTTPServerError.self) { try Webhooks(settings) }
        do {
            _ = try Webhooks(settings)
        } catch {
            #expect(error.description.hasPrefix("http.webhooks.github.secretFile /nonexistent/github-secret: cannot be read"), "\(error)")
        }
    }
}
