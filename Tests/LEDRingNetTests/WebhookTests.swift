import LEDJSON
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import RingModel
import Testing

/// The webhook routes without a server: GitHub's signed workflow_run and check_suite deliveries
/// as a build light, Alertmanager's notifications as notices that last while an alert fires;
/// checked in the frames the real controller draws on its test clock.
@Suite struct WebhookTests {
    static let secret = "It's a Secret to Everybody"
    static let apiToken = "api-token"
    static let alertToken = "am-token"

    /// The signature and the token are compared in constant time: every byte is looked at,
    /// whether the first differs, the last, or none (a `==` there stops at the first difference).
    @Test func signaturesAndTokensAreComparedWholeWhereverTheyDiffer() {
        let body = Array(#"{"zen":"Keep it logically awesome."}"#.utf8)
        let right = "sha256=" + SHA256.hex(SHA256.hmac(key: Array(Self.secret.utf8), message: body))
        let hook = GitHubHook(settings: WebhookSettings.GitHub(ring: "move", secret: Self.secret), secret: Array(Self.secret.utf8))
        func wrong(at index: Int) -> String {
            var bytes = Array(right.utf8)
            bytes[index] = bytes[index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            return String(decoding: bytes, as: UTF8.self)
        }
        for (header, refused) in [(right, false), (wrong(at: 7), true), (wrong(at: right.utf8.count - 1), true)] {
            var visited = 0
            let refusal = hook.signatureRefusal(HTTPRequest(method: "POST", path: "/api/hooks/github", body: body,
                                                            headers: ["X-Hub-Signature-256": [header]]), visited: &visited)
            #expect((refusal != nil) == refused, "\(header)")
            #expect(visited == right.utf8.count, "\(header): \(visited) of \(right.utf8.count) bytes compared")
        }
        let alerts = AlertmanagerHook(settings: WebhookSettings.Alertmanager(token: Self.alertToken), token: Self.alertToken)
        for (token, refused) in [(Self.alertToken, false), ("x" + Self.alertToken.dropFirst(), true)] {
            var visited = 0
            let refusal = alerts.authorisationRefusal(HTTPRequest(method: "POST", path: "/api/hooks/alertmanager",
                                                                  authorization: "Bearer " + token), visited: &visited)
            #expect((refusal != nil) == refused && visited == Self.alertToken.utf8.count, "\(token): \(visited) bytes compared")
        }
    }

    static func control() throws -> RecordingRingControl {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32))),
                        Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96))),
                        Look(name: "building", gradient: Gradient(solid: RGB8(r: 255, g: 200, b: 0)), effect: .pulse(period: 2)),
                        Look(name: "alert", gradient: Gradient(solid: RGB8(r: 255, g: 0, b: 255)))]
        return RecordingRingControl(layout: layout)
    }

    static func settings(running: String = "spin", workflows: [String] = [], branches: [String] = []) -> WebhookSettings {
        var s = WebhookSettings()
        var g = WebhookSettings.GitHub(ring: "move", secret: secret)
        g.running = running
        g.looks = ["success": "passed", "failure": "failed"]
        g.workflows = workflows
        g.branches = branches
        s.github = g
        var a = WebhookSettings.Alertmanager(token: alertToken)
        a.rings = ["stand"]
        a.color = RGB8(r: 0, g: 0, b: 255)
        s.alertmanager = a
        return s
    }

    /// GitHub's requests name the public host (listed in `http.hosts`).
    static let guard_ = RequestGuard(address: "0.0.0.0", names: ["ci-lights.example.org"])

    /// A router with the API's token set: the webhooks must not need it.
    static func router(_ control: RecordingRingControl, _ settings: WebhookSettings = settings()) throws -> HTTPRouter {
        HTTPRouter(control: control, token: apiToken, requestGuard: guard_, webhooks: try Webhooks(settings))
    }

    enum Signature { case right, none, wrongSecret, otherBody, twice, sha1 }

    static func signature(_ body: String, secret: String = secret) -> String {
        "sha256=" + SHA256.hex(SHA256.hmac(key: Array(secret.utf8), message: Array(body.utf8)))
    }

    /// A delivery as GitHub sends it (JSON content type, its event header, the body signed).
    static func github(_ router: HTTPRouter, event: String, _ body: String, signature: Signature = .right,
                       path: String = "/api/hooks/github", method: String = "POST") -> HTTPResponse {
        var headers: [String: [String]] = ["Content-Type": ["application/json"], "X-GitHub-Event": [event],
                                           "User-Agent": ["GitHub-Hookshot/5e1d9a3"], "X-GitHub-Delivery": ["72d3162e-cc78-11e3-81ab-4c9367dc0958"],
                                           "Host": ["ci-lights.example.org"]]
        switch signature {
        case .right: headers["X-Hub-Signature-256"] = [Self.signature(body)]
        case .none: break
        case .wrongSecret: headers["X-Hub-Signature-256"] = [Self.signature(body, secret: "not the secret")]
        // The same JSON in other bytes: what is signed is the bytes.
        case .otherBody: headers["X-Hub-Signature-256"] = [Self.signature(body.replacingFirst("{", with: "{ "))]
        case .twice: headers["X-Hub-Signature-256"] = [Self.signature(body), Self.signature(body)]
        case .sha1: headers["X-Hub-Signature"] = ["sha1=" + String(repeating: "0", count: 40)]
        }
        return route(router, HTTPRequest(method: method, path: path, body: Array(body.utf8), headers: headers))
    }

    static func route(_ router: HTTPRouter, _ request: HTTPRequest) -> HTTPResponse {
        guard case .response(let response) = router.route(request) else {
            Issue.record("no response")
            return HTTPResponse(status: 0, contentType: "", body: [])
        }
        return response
    }

    /// A `workflow_run` delivery, trimmed from a real one to the fields around those read.
    static func workflowRun(action: String, status: String, conclusion: String?, name: String = "CI",
                            branch: String = "main") -> String {
        """
        {
          "action": "\(action)",
          "workflow_run": {
            "id": 9876543210,
            "name": "\(name)",
            "node_id": "WFR_kwLOAbCdEs8AAAACTXu0ag",
            "head_branch": "\(branch)",
            "head_sha": "acb5820ced9479c074f688cc328bf03f341a511d",
            "path": ".github/workflows/ci.yml",
            "display_title": "README: the webhooks",
            "run_number": 562,
            "event": "push",
            "status": "\(status)",
            "conclusion": \(conclusion.map { "\"\($0)\"" } ?? "null"),
            "workflow_id": 159038,
            "check_suite_id": 7654321,
            "url": "https://api.github.com/repos/octo-org/ledring/actions/runs/9876543210",
            "html_url": "https://github.com/octo-org/ledring/actions/runs/9876543210",
            "pull_requests": [],
            "created_at": "2026-12-01T10:21:44Z",
            "updated_at": "2026-12-01T10:24:02Z",
            "actor": {"login": "octocat", "id": 583231, "type": "User"},
            "run_attempt": 1,
            "run_started_at": "2026-12-01T10:21:44Z",
            "head_commit": {"id": "acb5820ced9479c074f688cc328bf03f341a511d", "message": "README: the webhooks",
                            "timestamp": "2026-12-01T10:21:40Z", "author": {"name": "Mona Lisa", "email": "mona@example.org"}}
          },
          "workflow": {"id": 159038, "name": "\(name)", "path": ".github/workflows/ci.yml", "state": "active"},
          "repository": {"id": 1296269, "name": "ledring", "full_name": "octo-org/ledring", "private": false},
          "sender": {"login": "octocat", "id": 583231, "type": "User"}
        }
        """
    }

    /// A `check_suite` delivery, trimmed.
    static func checkSuite(action: String, status: String, conclusion: String?, branch: String = "main") -> String {
        """
        {"action": "\(action)",
         "check_suite": {"id": 118578147, "head_branch": "\(branch)", "head_sha": "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
                         "status": "\(status)", "conclusion": \(conclusion.map { "\"\($0)\"" } ?? "null"),
                         "app": {"id": 15368, "slug": "github-actions", "name": "GitHub Actions"},
                         "latest_check_runs_count": 3, "rerequestable": true},
         "repository": {"id": 1296269, "full_name": "octo-org/ledring"}, "sender": {"login": "octocat"}}
        """
    }

    static func text(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }
    static func hue(_ control: RecordingRingControl, _ ring: String) -> RGB8? {
        control.snapshot().ring(named: ring)?.leds.first.flatMap { RGB8(hex: $0) }
    }
    static func isGreen(_ c: RGB8?) -> Bool { c.map { $0.g > 100 && $0.r < 80 } ?? false }
    static func isRed(_ c: RGB8?) -> Bool { c.map { $0.r > 150 && $0.g < 60 && $0.b < 60 } ?? false }
    static func isBlue(_ c: RGB8?) -> Bool { c.map { $0.b > 100 && $0.r < 60 && $0.g < 60 } ?? false }

    // MARK: GitHub

    @Test func signedRunsDriveTheBuildLight() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        try control.submit(.set(["move": 1]))
        try control.submit(.look(rings: ["move"], name: "failed"))
        let queued = Self.github(router, event: "workflow_run", Self.workflowRun(action: "requested", status: "queued", conclusion: nil))
        #expect(queued.status == 200, "\(Self.text(queued))")
        #expect(control.controller.states[0].spinningSince != nil, "a queued run spins the ring")
        #expect(control.controller.slots[0].lookChoice == nil, "over the ring's own look, not the last result")
        #expect(Self.github(router, event: "workflow_run", Self.workflowRun(action: "in_progress", status: "in_progress", conclusion: nil)).status == 200)
        #expect(control.controller.states[0].spinningSince != nil)
        control.advance(by: 60)
        let passed = Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "success"))
        #expect(passed.status == 200 && Self.text(passed).contains(#""look":"passed""#), "\(Self.text(passed))")
        #expect(control.controller.states[0].spinningSince == nil, "a finished run stops the spinner")
        #expect(control.controller.slots[0].lookChoice == "passed" && Self.isGreen(Self.hue(control, "move")))
        _ = Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "failure"))
        #expect(control.controller.slots[0].lookChoice == "failed" && Self.isRed(Self.hue(control, "move")))
        // A conclusion without its own look: failure's for timed_out, success's for skipped.
        _ = Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "skipped"))
        #expect(control.controller.slots[0].lookChoice == "passed")
        _ = Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "timed_out"))
        #expect(control.controller.slots[0].lookChoice == "failed")
        // check_suite the same way.
        #expect(Self.github(router, event: "check_suite", Self.checkSuite(action: "requested", status: "queued", conclusion: nil)).status == 200)
        #expect(control.controller.states[0].spinningSince != nil)
        #expect(Self.github(router, event: "check_suite", Self.checkSuite(action: "completed", status: "completed", conclusion: "success")).status == 200)
        #expect(control.controller.slots[0].lookChoice == "passed" && control.controller.states[0].spinningSince == nil)
        #expect(control.refusals.isEmpty)
    }

    @Test func aRunningLookInsteadOfTheSpinner() throws {
        let control = try Self.control()
        let router = try Self.router(control, Self.settings(running: "building"))
        _ = Self.github(router, event: "workflow_run", Self.workflowRun(action: "in_progress", status: "in_progress", conclusion: nil))
        #expect(control.controller.slots[0].lookChoice == "building" && control.controller.states[0].spinningSince == nil)
        _ = Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "cancelled"))
        #expect(control.controller.slots[0].lookChoice == "failed")
    }

    @Test(arguments: [Signature.none, .wrongSecret, .otherBody, .twice, .sha1])
    func aBadSignatureIsRefusedAndChangesNothing(signature: Signature) throws {
        let control = try Self.control()
        let router = try Self.router(control)
        try control.submit(.set(["move": 0.5]))
        let before = control.snapshot()
        let commands = control.commands.count
        for body in [Self.workflowRun(action: "completed", status: "completed", conclusion: "success"),
                     Self.workflowRun(action: "requested", status: "queued", conclusion: nil)] {
            let r = Self.github(router, event: "workflow_run", body, signature: signature)
            #expect(r.status == 401, "\(Self.text(r))")
            #expect(Self.text(r).contains("X-Hub-Signature-256"))
        }
        // Not even a ping is answered without the signature.
        #expect(Self.github(router, event: "ping", #"{"zen":"Design for failure.","hook_id":1}"#, signature: signature).status == 401)
        #expect(control.snapshot() == before && control.commands.count == commands)
        // The API's token is no substitute.
        let withToken = Self.route(router, HTTPRequest(method: "POST", path: "/api/hooks/github", authorization: "Bearer \(Self.apiToken)",
                                                       body: Array(#"{"action":"completed"}"#.utf8),
                                                       headers: ["Content-Type": ["application/json"], "X-GitHub-Event": ["workflow_run"]]))
        #expect(withToken.status == 401 && control.snapshot() == before)
    }

    @Test func pingsOtherEventsAndFilteredRunsChangeNothing() throws {
        let control = try Self.control()
        let router = try Self.router(control, Self.settings(workflows: ["CI"], branches: ["main"]))
        let ping = Self.github(router, event: "ping", #"{"zen":"Keep it logically awesome.","hook_id":123,"hook":{"type":"Repository","events":["workflow_run"]}}"#)
        #expect(ping.status == 200 && Self.text(ping).contains("pong"))
        let before = control.snapshot()
        for (event, body) in [("push", #"{"ref":"refs/heads/main","before":"6113728f27ae82c7b1a177c8d03f9e96e0adf246"}"#),
                              ("workflow_job", #"{"action":"queued","workflow_job":{"status":"queued"}}"#),
                              ("workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "failure", name: "Docs")),
                              ("workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "failure", branch: "feature/x")),
                              ("check_suite", Self.checkSuite(action: "completed", status: "completed", conclusion: "failure"))] {
            let r = Self.github(router, event: event, body)
            #expect(r.status == 202 && Self.text(r).contains("ignored"), "\(event): \(Self.text(r))")
        }
        #expect(control.snapshot() == before && control.commands.isEmpty)
        #expect(Self.github(router, event: "workflow_run", Self.workflowRun(action: "completed", status: "completed", conclusion: "failure")).status == 200)
        #expect(control.controller.slots[0].lookChoice == "failed", "the workflow and branch asked for")
    }

    @Test func offUntilConfiguredAndOnlyByPost() throws {
        let control = try Self.control()
        let off = HTTPRouter(control: control, token: nil, requestGuard: Self.guard_)
        let body = Self.workflowRun(action: "completed", status: "completed", conclusion: "success")
        let github = Self.github(off, event: "workflow_run", body)
        #expect(github.status == 404 && Self.text(github).contains("webhooks") && Self.text(github).contains("github"))
        let alert = Self.route(off, HTTPRequest(method: "POST", path: "/api/hooks/alertmanager", authorization: "Bearer x", body: []))
        #expect(alert.status == 404 && Self.text(alert).contains("alertmanager"))
        let router = try Self.router(control)
        #expect(Self.github(router, event: "workflow_run", body, method: "GET").status == 405)
        #expect(Self.github(router, event: "workflow_run", body, path: "/api/hooks/gitlab").status == 404)
        #expect(control.commands.isEmpty)
        // A public name not in http.hosts is refused before any webhook sees it.
        let unlisted = HTTPRouter(control: control, token: nil, webhooks: try Webhooks(Self.settings()))
        #expect(Self.github(unlisted, event: "workflow_run", body).status == 421)
        // Form-encoded deliveries are refused with the setting to change.
        var form = HTTPRequest(method: "POST", path: "/api/hooks/github", body: Array("payload=%7B%7D".utf8),
                               headers: ["Content-Type": ["application/x-www-form-urlencoded"], "X-GitHub-Event": ["workflow_run"]])
        form.headers["x-hub-signature-256"] = [Self.signature("payload=%7B%7D")]
        let refused = Self.route(router, form)
        #expect(refused.status == 415 && Self.text(refused).contains("application/json"))
    }

    /// GitHub's payloads are tens of kilobytes: a configured webhook reads up to
    /// `webhooks.maxBodyBytes` (256 KiB) while every other route keeps `maxBodyBytes`.
    @Test func webhooksTakeBiggerBodies() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        #expect(router.maxBodyBytes(for: "/api/hooks/github") == 256 * 1024)
        #expect(router.maxBodyBytes(for: "/api/hooks/alertmanager") == 256 * 1024)
        #expect(router.maxBodyBytes(for: "/api/rings/move") == 16 * 1024)
        #expect(HTTPRouter(control: control, token: nil).maxBodyBytes(for: "/api/hooks/github") == 16 * 1024, "not while it is off")
        // A 60 KB delivery (long commit messages, many pull requests) is read whole.
        let padding = String(repeating: "x", count: 60_000)
        let big = Self.workflowRun(action: "completed", status: "completed", conclusion: "failure")
            .replacingFirst("\"display_title\": \"README: the webhooks\"", with: "\"display_title\": \"\(padding)\"")
        #expect(big.utf8.count > 60_000)
        #expect(Self.github(router, event: "workflow_run", big).status == 200)
        #expect(control.controller.slots[0].lookChoice == "failed")
        let huge = big + String(repeating: " ", count: 256 * 1024)
        #expect(Self.github(router, event: "workflow_run", huge).status == 413)
    }

    // MARK: Alertmanager

    static func alert(_ status: String, fingerprint: String, name: String = "DiskFull") -> String {
        """
        {"status": "\(status)", "labels": {"alertname": "\(name)", "instance": "nas:9100", "severity": "critical"},
         "annotations": {"summary": "\(name) on nas"}, "startsAt": "2026-12-01T10:00:00.000Z",
         "endsAt": "\(status == "resolved" ? "2026-12-01T11:00:00.000Z" : "0001-01-01T00:00:00Z")",
         "generatorURL": "http://prometheus:9090/graph?g0.expr=up", "fingerprint": "\(fingerprint)"}
        """
    }

    /// A notification as Alertmanager's webhook_config sends it (version 4).
    static func notification(_ status: String, _ alerts: [String]) -> String {
        """
        {"version": "4", "groupKey": "{}:{alertname=\\"DiskFull\\"}", "truncatedAlerts": 0, "status": "\(status)",
         "receiver": "ledring", "groupLabels": {"alertname": "DiskFull"}, "commonLabels": {"severity": "critical"},
         "commonAnnotations": {}, "externalURL": "http://alertmanager:9093", "alerts": [\(alerts.joined(separator: ","))]}
        """
    }

    static func alertmanager(_ router: HTTPRouter, _ body: String, token: String? = alertToken) -> HTTPResponse {
        route(router, HTTPRequest(method: "POST", path: "/api/hooks/alertmanager", authorization: token.map { "Bearer " + $0 },
                                  body: Array(body.utf8), headers: ["Content-Type": ["application/json"], "User-Agent": ["Alertmanager/0.27.0"]]))
    }

    @Test func aFiringAlertShowsUntilResolvedAndTheRingsComeBackExactly() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        try control.submit(.set(["stand": 0.6, "move": 0.3]))
        control.advance(by: 1)
        let before = control.snapshot()
        let firing = Self.notification("firing", [Self.alert("firing", fingerprint: "c0ffee1234567890")])
        let shown = Self.alertmanager(router, firing)
        #expect(shown.status == 200, "\(Self.text(shown))")
        #expect(Self.isBlue(Self.hue(control, "stand")) && control.snapshot().ring(named: "move") == before.ring(named: "move"))
        control.advance(by: 3600)
        #expect(Self.isBlue(Self.hue(control, "stand")), "still firing an hour on")
        // Alertmanager repeats it (repeat_interval): it lasts a day from then.
        #expect(Self.alertmanager(router, firing).status == 200)
        control.advance(by: 23 * 3600)
        #expect(Self.isBlue(Self.hue(control, "stand")), "a day after the first send, but renewed an hour in")
        #expect(control.controller.notices.count == 1)
        let resolved = Self.alertmanager(router, Self.notification("resolved", [Self.alert("resolved", fingerprint: "c0ffee1234567890")]))
        #expect(resolved.status == 200)
        #expect(control.snapshot() == before, "the frame and everything else as before the alert")
        #expect(control.controller.notices.isEmpty)
        // Resolved again (Alertmanager may), or never seen: fine, nothing changes.
        #expect(Self.alertmanager(router, Self.notification("resolved", [Self.alert("resolved", fingerprint: "c0ffee1234567890")])).status == 200)
        #expect(control.snapshot() == before)
    }

    @Test func anAlertNeverResolvedEndsAfterADay() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        try control.submit(.set(["stand": 1]))
        let before = control.snapshot()
        #expect(Self.alertmanager(router, Self.notification("firing", [Self.alert("firing", fingerprint: "a1")])).status == 200)
        control.advance(by: Notice.maxDuration - 1)
        #expect(Self.isBlue(Self.hue(control, "stand")))
        control.advance(by: 1)
        #expect(control.snapshot() == before)
    }

    @Test func resolvingOneAlertKeepsTheOthers() throws {
        let control = try Self.control()
        var settings = Self.settings()
        settings.alertmanager?.color = nil
        settings.alertmanager?.look = "alert"
        settings.alertmanager?.rings = []
        let router = try Self.router(control, settings)
        try control.submit(.set(["move": 1, "stand": 0.5]))
        let before = control.snapshot()
        let both = Self.notification("firing", [Self.alert("firing", fingerprint: "aaaa000011112222"),
                                                Self.alert("firing", fingerprint: "bbbb000011112222", name: "NodeDown")])
        #expect(Self.alertmanager(router, both).status == 200)
        #expect(control.controller.notices.count == 2)
        let magenta = { (c: RGB8?) in c.map { $0.r > 40 && $0.b > 40 && $0.g < 10 } ?? false }
        #expect(magenta(Self.hue(control, "move")) && magenta(Self.hue(control, "stand")), "no rings listed: all")
        // The group is still firing; one of its alerts is resolved.
        let one = Self.notification("firing", [Self.alert("resolved", fingerprint: "aaaa000011112222"),
                                               Self.alert("firing", fingerprint: "bbbb000011112222", name: "NodeDown")])
        #expect(Self.alertmanager(router, one).status == 200)
        #expect(control.controller.notices.map { $0.notice.key } == ["alertmanager bbbb000011112222"])
        #expect(magenta(Self.hue(control, "move")))
        #expect(Self.alertmanager(router, Self.notification("resolved", [Self.alert("resolved", fingerprint: "bbbb000011112222", name: "NodeDown")])).status == 200)
        #expect(control.snapshot() == before)
    }

    @Test func alertsWithoutAFingerprintAreKeyedByTheirLabels() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        let a = #"{"status":"firing","labels":{"alertname":"A","instance":"x"}}"#
        let b = #"{"status":"firing","labels":{"instance":"y","alertname":"A"}}"#
        #expect(Self.alertmanager(router, Self.notification("firing", [a, b])).status == 200)
        #expect(control.controller.notices.count == 2)
        let aResolved = #"{"status":"resolved","labels":{"instance":"x","alertname":"A"}}"#
        #expect(Self.alertmanager(router, Self.notification("resolved", [aResolved])).status == 200)
        #expect(control.controller.notices.count == 1, "the same labels in another order are the same alert")
    }

    @Test func alertmanagerNeedsItsToken() throws {
        let control = try Self.control()
        let router = try Self.router(control)
        let before = control.snapshot()
        let firing = Self.notification("firing", [Self.alert("firing", fingerprint: "c0ffee")])
        for token in [nil, "wrong", Self.apiToken, Self.alertToken + "x", String(Self.alertToken.dropLast())] as [String?] {
            let r = Self.alertmanager(router, firing, token: token)
            #expect(r.status == 401 && r.headers["WWW-Authenticate"] != nil, "\(token ?? "none")")
        }
        #expect(control.snapshot() == before && control.commands.isEmpty)
        #expect(Self.alertmanager(router, #"{"version":"4","status":"firing"}"#).status == 400)
        #expect(Self.alertmanager(router, #"{"alerts":[{"status":"pending","fingerprint":"1"}]}"#).status == 400)
        #expect(control.commands.isEmpty)
    }
}

extension String {
    /// The text with the first `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
