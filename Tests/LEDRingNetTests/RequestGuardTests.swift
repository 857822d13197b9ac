import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import Testing

/// Cross-site requests, DNS rebinding and ambiguous requests, refused before any route runs.
@Suite struct RequestGuardTests {
    let control: RecordingRingControl
    init() throws { control = try RecordingRingControl() }

    func route(_ method: String, _ path: String, _ body: String = "", headers: [String: [String]] = [:], version: String? = "HTTP/1.1",
               token: String? = nil, auth: String? = nil, accessToken: String? = nil, hosts: [String] = []) -> HTTPResponse? {
        let router = HTTPRouter(control: control, token: token, requestGuard: RequestGuard(address: "127.0.0.1", names: hosts))
        let request = HTTPRequest(method: method, path: path, authorization: auth, accessToken: accessToken, body: Array(body.utf8),
                                  headers: headers, version: version)
        guard case .response(let response) = router.route(request) else { return nil }
        return response
    }

    func text(_ r: HTTPResponse?) -> String { r.map { String(decoding: $0.body, as: UTF8.self) } ?? "" }

    @Test func anotherOriginCannotChangeAnything() {
        let evil = ["Host": ["127.0.0.1:8080"], "Origin": ["http://evil.example"]]
        let power = route("POST", "/api/power", "off", headers: evil.merging(["Content-Type": ["text/plain"]]) { a, _ in a })
        #expect(power?.status == 403 && text(power).contains("evil.example"))
        #expect(route("POST", "/api/reset", headers: evil)?.status == 403)
        #expect(route("POST", "/api/rings/move", #"{"value":1}"#, headers: evil.merging(["Content-Type": ["application/json"]]) { a, _ in a })?.status == 403)
        #expect(route("POST", "/api/rings/move/spin", headers: ["Host": ["127.0.0.1:8080"], "Origin": ["null"]])?.status == 403)
        // The browser's own word for it.
        #expect(route("POST", "/api/reset", headers: ["Host": ["127.0.0.1:8080"], "Sec-Fetch-Site": ["cross-site"]])?.status == 403)
        #expect(control.commands.isEmpty)
        // The page's own origin, and clients that send no Origin (curl), still work.
        #expect(route("POST", "/api/reset", headers: ["Host": ["127.0.0.1:8080"], "Origin": ["http://127.0.0.1:8080"],
                                                      "Sec-Fetch-Site": ["same-origin"]])?.status == 200)
        #expect(route("POST", "/api/power", "off", headers: ["Host": ["localhost:8080"]])?.status == 200)
        // Behind a TLS reverse proxy that keeps Host.
        #expect(route("POST", "/api/power", "on", headers: ["Host": ["ledring.local"], "Origin": ["https://ledring.local"]],
                      hosts: ["ledring.local"])?.status == 200)
        #expect(route("POST", "/api/power", "on", headers: ["Host": ["ledring.local"], "Origin": ["https://evil.example"]],
                      hosts: ["ledring.local"])?.status == 403)
        #expect(control.commands == [.defaultReset, .power(false), .power(true)])
    }

    @Test func hostMustNameThisServer() {
        let rebound = route("GET", "/api/state", headers: ["Host": ["evil.example:8080"]])
        #expect(rebound?.status == 421 && text(rebound).contains("evil.example") && text(rebound).contains("hosts"))
        #expect(route("GET", "/", headers: ["Host": ["evil.example"]])?.status == 421)
        #expect(route("POST", "/api/reset", headers: ["Host": ["evil.example:8080"], "Origin": ["http://evil.example:8080"]])?.status == 421)
        #expect(route("GET", "/api/state", headers: ["Host": ["localhost:8080"]])?.status == 200)
        #expect(route("GET", "/api/state", headers: ["Host": ["127.0.0.1:8080"]])?.status == 200)
        #expect(route("GET", "/api/state", headers: ["Host": ["[::1]:8080"]])?.status == 200)
        #expect(route("GET", "/api/state", headers: ["Host": ["ledring.local"]], hosts: ["ledring.local"])?.status == 200)
        #expect(route("GET", "/api/state", headers: ["Host": ["LEDRing.Local:80"]], hosts: ["ledring.local"])?.status == 200)
        #expect(control.commands.isEmpty)
    }

    @Test func jsonBodiesNeedAJSONContentType() {
        let host = ["Host": ["127.0.0.1"]]
        let plain = route("POST", "/api/rings/move", #"{"value":0.5}"#, headers: host.merging(["Content-Type": ["text/plain"]]) { a, _ in a })
        #expect(plain?.status == 415 && text(plain).contains("application/json"))
        #expect(route("POST", "/api/rings/move", #"{"value":0.5}"#, headers: host)?.status == 415)
        #expect(route("POST", "/api/rings/move", #" {"value":0.5}"#,
                      headers: host.merging(["Content-Type": ["application/x-www-form-urlencoded"]]) { a, _ in a })?.status == 415)
        #expect(control.commands.isEmpty)
        #expect(route("POST", "/api/rings/move", #"{"value":0.5}"#,
                      headers: host.merging(["Content-Type": ["application/json; charset=utf-8"]]) { a, _ in a })?.status == 200)
        // A plain value is not JSON and needs no content type.
        #expect(route("POST", "/api/rings/move", "50%", headers: host)?.status == 200)
        #expect(control.commands.count == 2)
    }

    @Test func ambiguousFramingIsRefused() {
        let twice = route("POST", "/api/rings/move", "0.5", headers: ["Host": ["127.0.0.1"], "Content-Length": ["3", "30"]])
        #expect(twice?.status == 400 && text(twice).contains("Content-Length"))
        #expect(route("GET", "/api/state", headers: ["Host": ["127.0.0.1", "evil.example"]])?.status == 400)
        #expect(route("GET", "/api/state", headers: [:], version: "HTTP/1.1")?.status == 400)
        #expect(route("GET", "/api/state", headers: [:], version: "HTTP/1.0")?.status == 200)
        #expect(control.commands.isEmpty)
    }

    @Test func bearerSchemeIsCaseInsensitive() {
        let host = ["Host": ["127.0.0.1"]]
        #expect(route("GET", "/api/state", headers: host, token: "s3cret", auth: "bearer s3cret")?.status == 200)
        #expect(route("GET", "/api/state", headers: host, token: "s3cret", auth: "BEARER  s3cret")?.status == 200)
        #expect(route("GET", "/api/state", headers: host, token: "s3cret", auth: "Basic s3cret")?.status == 401)
    }

    @Test func queryTokenOnlyOpensTheEventStream() {
        let host = ["Host": ["127.0.0.1"]]
        let write = route("POST", "/api/reset", headers: host, token: "s3cret", accessToken: "s3cret")
        #expect(write?.status == 401 && text(write).contains("only by GET /api/events"))
        #expect(route("GET", "/api/state", headers: host, token: "s3cret", accessToken: "s3cret")?.status == 401)
        #expect(control.commands.isEmpty)
        let router = HTTPRouter(control: control, token: "s3cret")
        #expect(router.route(HTTPRequest(method: "GET", path: "/api/events", accessToken: "s3cret", headers: host)) == .events)
    }

    func message(_ r: HTTPResponse?) -> String {
        guard let r, let object = try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] else { return "" }
        return object["error"] as? String ?? ""
    }

    @Test func echoedTextIsEscapedAndCapped() {
        let long = route("GET", "/" + String(repeating: "a", count: 10_000), headers: ["Host": ["127.0.0.1"]])
        #expect(long?.status == 404 && message(long).count < 300)
        let forged = route("GET", "/api/x\nledring: stopping on SIGTERM", headers: ["Host": ["127.0.0.1"]])
        #expect(forged?.status == 404 && message(forged).contains("x\\nledring") && !message(forged).contains("\n"))
    }
}
