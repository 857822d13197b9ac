import Foundation
import Glibc
import LEDRingNet
import LEDRingNetTesting
import RingModel
import Testing

/// End-to-end: `ledring run` with `http.webhooks`; GitHub's signed deliveries and Alertmanager's
/// notifications over loopback HTTP change the frames that reach the dump file, and a wrongly
/// signed delivery changes nothing.
@Suite(.serialized) struct WebhookEndToEndTests {
    static let secret = "e2e webhook secret"

    /// A finished `workflow_run` delivery, padded past `http.maxBodyBytes` (16 KiB) as real ones
    /// with long commit messages are.
    static func completed(_ conclusion: String) -> String {
        let message = String(repeating: "A long commit message. ", count: 1200)
        return """
        {"action":"completed","workflow_run":{"id":9876543210,"name":"CI","head_branch":"main",
         "head_sha":"acb5820ced9479c074f688cc328bf03f341a511d","run_number":562,"event":"push","status":"completed",
         "conclusion":"\(conclusion)","workflow_id":159038,"head_commit":{"message":"\(message)"}},
         "repository":{"id":1296269,"full_name":"octo-org/ledring"},"sender":{"login":"octocat"}}
        """
    }

    static func signed(_ body: String, secret: String = secret) -> [String: String] {
        ["Content-Type": "application/json", "X-GitHub-Event": "workflow_run", "User-Agent": "GitHub-Hookshot/5e1d9a3",
         "X-Hub-Signature-256": "sha256=" + SHA256.hex(SHA256.hmac(key: Array(secret.utf8), message: Array(body.utf8)))]
    }

    static func moveLook(port: Int) throws -> String? {
        let state = try LoopbackHTTP.request(port: port, "GET", "/api/state", headers: ["Authorization": "Bearer api-token"])
        let object = try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any]
        let rings = object?["rings"] as? [[String: Any]]
        return rings?.first { $0["name"] as? String == "move" }?["look"] as? String
    }

    static func isRed(_ c: RGB8) -> Bool { c.r > 100 && c.g < 60 && c.b < 60 }
    static func isGreen(_ c: RGB8) -> Bool { c.g > 100 && c.r < 80 }
    static func isBlue(_ c: RGB8) -> Bool { c.b > 100 && c.r < 60 && c.g < 60 }

    @Test
    func signedDeliveriesChangeTheRingAndForgedOnesDoNot() throws {
        let directory = DaemonProcess.makeDirectory()
        try (Self.secret + "\n").write(toFile: directory + "/github-secret", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(config: """
        {"looks": {"passed": {"gradient": "#20ff60"}, "failed": {"gradient": "#ff2020"}},
         "http": {"port": 0, "token": "api-token", "webhooks": {
           "github": {"secretFile": "\(directory)/github-secret", "ring": "move", "looks": {"success": "passed", "failure": "failed"}},
           "alertmanager": {"token": "am-token", "rings": ["stand"], "color": "#0000ff"}}}}
        """, directory: directory,
                                       arguments: ["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin", "--max-milliamps", "100000"])
        defer { daemon.cleanUp() }
        let port = try NetworkTests.httpPort(daemon)
        // The rings stay at 0 %, as the README's build light leaves them: a look is a status and
        // an alert without a value too, so each must light every LED of its ring even so.
        #expect(daemon.waitUntil { (try? daemon.frames().last) != nil })

        let failed = Self.completed("failure")
        #expect(failed.utf8.count > 16 * 1024)
        let r = try LoopbackHTTP.request(port: port, "POST", "/api/hooks/github", body: failed, headers: Self.signed(failed))
        #expect(r.status == 200, "\(r.body.prefix(300)) \(daemon.stderr)")
        #expect(daemon.waitUntil { (try? daemon.frames().last.map { $0[0..<24].allSatisfy(Self.isRed) }) == true }, "\(daemon.stderr)")
        #expect(try Self.moveLook(port: port) == "failed")

        // Signed with another secret, or the signature of another body: refused, nothing changes.
        let passed = Self.completed("success")
        for headers in [Self.signed(passed, secret: "guess"), Self.signed(failed), Self.signed(passed).filter { $0.key != "X-Hub-Signature-256" }] {
            let forged = try LoopbackHTTP.request(port: port, "POST", "/api/hooks/github", body: passed, headers: headers)
            #expect(forged.status == 401, "\(forged.body)")
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try Self.moveLook(port: port) == "failed")
        #expect(try daemon.frames().last.map { $0[0..<24].allSatisfy(Self.isRed) } == true)

        let ok = try LoopbackHTTP.request(port: port, "POST", "/api/hooks/github", body: passed, headers: Self.signed(passed))
        #expect(ok.status == 200)
        #expect(daemon.waitUntil { (try? daemon.frames().last.map { $0[0..<24].allSatisfy(Self.isGreen) }) == true }, "\(daemon.stderr)")

        // An alert over the stand ring while it fires, and the ring back when it is resolved.
        let before = try daemon.frames().last
        func alert(_ status: String) -> String {
            #"{"version":"4","status":"\#(status)","groupKey":"{}:{alertname=\"DiskFull\"}","alerts":[{"status":"\#(status)","labels":{"alertname":"DiskFull"},"fingerprint":"c0ffee1234567890"}]}"#
        }
        let firing = try LoopbackHTTP.request(port: port, "POST", "/api/hooks/alertmanager", body: alert("firing"),
                                              headers: ["Content-Type": "application/json", "Authorization": "Bearer am-token"])
        #expect(firing.status == 200, "\(firing.body.prefix(300))")
        #expect(daemon.waitUntil { (try? daemon.frames().last.map { $0[40..<52].allSatisfy(Self.isBlue) }) == true }, "\(daemon.stderr)")
        let resolved = try LoopbackHTTP.request(port: port, "POST", "/api/hooks/alertmanager", body: alert("resolved"),
                                                headers: ["Content-Type": "application/json", "Authorization": "Bearer am-token"])
        #expect(resolved.status == 200)
        #expect(daemon.waitUntil { (try? daemon.frames().last) == before }, "the frame as before the alert")
        #expect(daemon.process.isRunning)
    }
}
