import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import Testing

/// The routes without a server.
@Suite struct HTTPRouterTests {
    let control: RecordingRingControl
    init() throws { control = try RecordingRingControl() }

    func route(_ method: String, _ path: String, _ body: String = "", token: String? = nil, auth: String? = nil) -> HTTPResponse? {
        let router = HTTPRouter(control: control, token: token)
        // As a well-behaved client: JSON bodies say so.
        let headers = body.hasPrefix("{") ? ["Content-Type": ["application/json"]] : [:]
        guard case .response(let response) = router.route(HTTPRequest(method: method, path: path, authorization: auth, body: Array(body.utf8),
                                                                      headers: headers)) else {
            return nil
        }
        return response
    }

    func text(_ r: HTTPResponse?) -> String { r.map { String(decoding: $0.body, as: UTF8.self) } ?? "" }

    @Test func setResetSpinStopBrightnessAndPower() {
        #expect(route("POST", "/api/rings/move", #"{"value":0.5,"duration":1,"curve":"spring"}"#)?.status == 200)
        #expect(route("POST", "/api/rings/stand", "80%")?.status == 200)
        #expect(route("POST", "/api/rings", #"{"values":{"exercise":1.2,"move":"10%"}}"#)?.status == 200)
        #expect(route("POST", "/api/rings/stand/spin")?.status == 200)
        #expect(route("POST", "/api/rings/stand/stop")?.status == 200)
        #expect(route("POST", "/api/brightness", #"{"value":0.25}"#)?.status == 200)
        #expect(route("POST", "/api/power", "off")?.status == 200)
        #expect(route("POST", "/api/reset")?.status == 200)
        #expect(control.commands == [
            .set(["move": 0.5], duration: 1, curve: .spring),
            .set(values: [.init(ring: "stand", value: 0.8, percent: true)], duration: 0, curve: .easeInOut),
            .set(values: [.init(ring: "exercise", value: 1.2), .init(ring: "move", value: 0.1, percent: true)], duration: 0, curve: .easeInOut), .spin(rings: ["stand"]), .stop(rings: ["stand"]),
            .brightness(0.25), .power(false), .defaultReset,
        ])
    }

    /// A ring's own on/off (what Home Assistant's ring light does over MQTT), with its fade.
    @Test func aRingSwitchesOffAndOnWithAFade() {
        #expect(route("POST", "/api/rings/stand/power", "off")?.status == 200)
        #expect(route("POST", "/api/rings/stand/power", #"{"on":true,"duration":"1.5s"}"#)?.status == 200)
        #expect(control.commands == [.light(rings: ["stand"], on: false, duration: 0), .light(rings: ["stand"], on: true, duration: 1.5)])
        let bad = route("POST", "/api/rings/stand/power", #"{"on":false,"duration":-1}"#)
        #expect(bad?.status == 400 && text(bad).contains("duration -1"), "\(text(bad))")
        #expect(route("POST", "/api/rings/stand/power", #"{"on":"maybe"}"#)?.status == 400)
        #expect(route("POST", "/api/power", #"{"on":false,"duration":1}"#)?.status == 400, "the device's power has no fade")
        #expect(control.commands.count == 2)
    }

    @Test func refusalsNameWhatWasWrong() {
        let bad = route("POST", "/api/rings/move", #"{"value":"#)
        #expect(bad?.status == 400 && text(bad).contains("not valid JSON"))
        let unknown = route("POST", "/api/rings/moov", "0.5")
        #expect(unknown?.status == 404 && text(unknown).contains("no ring called \\\"moov\\\""))
        #expect(route("GET", "/api/rings/move")?.status == 405)
        #expect(route("GET", "/api/rings/move")?.headers["Allow"] == "POST")
        #expect(route("DELETE", "/api/state")?.status == 405)
        #expect(route("GET", "/../etc/passwd")?.status == 404)
        #expect(route("GET", "/api/nothing")?.status == 404)
        #expect(route("POST", "/api/rings/move", String(repeating: "1", count: 16 * 1024 + 1))?.status == 413)
        #expect(route("POST", "/api/brightness", "2")?.status == 400)
        #expect(control.commands.isEmpty)
    }

    @Test func tokenGuardsTheAPIButNotThePage() {
        #expect(route("GET", "/api/state", token: "s3cret")?.status == 401)
        #expect(route("GET", "/api/state", token: "s3cret", auth: "Bearer wrong")?.status == 401)
        #expect(route("GET", "/api/state", token: "s3cret", auth: "Bearer s3cret")?.status == 200)
        #expect(route("GET", "/", token: "s3cret")?.status == 200)
        let router = HTTPRouter(control: control, token: "s3cret")
        #expect(router.route(HTTPRequest(method: "GET", path: "/api/events", accessToken: "s3cret")) == .events)
    }

    @Test func thePageIsSelfContained() throws {
        let page = try #require(route("GET", "/"))
        let html = text(page)
        #expect(page.contentType.hasPrefix("text/html"))
        #expect(html.contains("<svg") && html.contains("Reset all") && html.contains("EventSource"))
        // No third-party assets: the only URL is the SVG namespace, and nothing is loaded by src/href.
        let urls = html.components(separatedBy: "http").dropFirst().map { $0.prefix(30) }
        #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") })
        #expect(!html.contains("src=") && !html.contains("href="))
        #expect(page.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
    }
}
