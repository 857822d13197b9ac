import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDJSON
import LEDRingNet
import Testing
import LEDRingNetTesting

/// The HTTP API end to end over loopback: `HTTPLoopServer` on a poll loop of its own thread, as
/// the daemon runs it.
@Suite struct HTTPServerTests {
    /// A running server on a kernel-chosen loopback port.
    static func running(token: String? = nil, address: String = "127.0.0.1") throws
        -> (LoopHTTPRunner, RecordingRingControl) {
        var settings = HTTPSettings()
        settings.port = 0
        settings.address = address
        settings.token = token
        let control = try RecordingRingControl()
        return (try LoopHTTPRunner(settings: settings, control: control, log: { _ in }), control)
    }

    @Test func stateSetAndReset() throws {
        let (server, control) = try Self.running()
        defer { server.stop() }
        #expect(server.port > 0)
        let state = try LoopbackHTTP.request(port: server.port, "GET", "/api/state")
        #expect(state.status == 200 && state.headers["content-type"] == "application/json")
        let snapshot = try RingSnapshot(json: JSONValue.parse(state.body))
        #expect(snapshot.rings.map(\.name) == ["move", "exercise", "stand"])

        let set = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move", body: #"{"value":0.75,"duration":0.5,"curve":"easeOut"}"#,
                                          headers: ["Content-Type": "application/json"])
        #expect(set.status == 200)
        #expect(try RingSnapshot(json: JSONValue.parse(set.body)).ring(named: "move")?.target == 0.75)
        let reset = try LoopbackHTTP.request(port: server.port, "POST", "/api/reset")
        #expect(reset.status == 200)
        #expect(control.commands == [.set(["move": 0.75], duration: 0.5, curve: .easeOut), .defaultReset])
    }

    @Test func malformedJSONUnknownRingsWrongMethodsAndTraversal() throws {
        let (server, control) = try Self.running()
        defer { server.stop() }
        let bad = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move", body: "{\"value\": 0.5,",
                                          headers: ["Content-Type": "application/json"])
        #expect(bad.status == 400 && bad.body.contains("not valid JSON"))
        let unknown = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/nope", body: "0.5")
        #expect(unknown.status == 404 && unknown.body.contains("nope"))
        #expect(try LoopbackHTTP.request(port: server.port, "PUT", "/api/reset").status == 405)
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/../etc/passwd").status == 404)
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/%2e%2e/%2e%2e/etc/passwd").status == 404)
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/etc/passwd").status == 404)
        #expect(control.commands.isEmpty)
    }

    @Test func oversizedBodiesGet413() throws {
        let (server, control) = try Self.running()
        defer { server.stop() }
        // Declared too big: refused from the headers alone, before any body is sent.
        let declared = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move", headers: ["Content-Length": "1000000"])
        #expect(declared.status == 413)
        // Sent whole without a length (chunked): read, dropped, refused.
        let big = String(repeating: " ", count: 20_000) + "0.5"
        let chunked = "\(String(big.utf8.count, radix: 16))\r\n\(big)\r\n0\r\n\r\n"
        let sent = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move",
                                            headers: ["Transfer-Encoding": "chunked"], rawBody: Array(chunked.utf8))
        #expect(sent.status == 413)
        #expect(control.commands.isEmpty)
    }

    @Test func tokenIsRequiredWhenConfigured() throws {
        let (server, _) = try Self.running(token: "t0ken")
        defer { server.stop() }
        let none = try LoopbackHTTP.request(port: server.port, "GET", "/api/state")
        #expect(none.status == 401 && none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/api/state", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/api/state", headers: ["Authorization": "Bearer t0ken"]).status == 200)
        // The query token opens only the event stream (EventSource cannot send a header).
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/api/state?access_token=t0ken").status == 401)
        let stream = try EventStreamReader(port: server.port, path: "/api/events?access_token=t0ken")
        #expect(try stream.next().contains("\"rings\""))
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/").status == 200)
    }

    @Test func eventsStreamEveryChange() throws {
        let (server, control) = try Self.running()
        defer { server.stop() }
        let events = try EventStreamReader(port: server.port)
        let first = try RingSnapshot(json: JSONValue.parse(try events.next()))
        #expect(first.ring(named: "stand")?.target == 0)
        #expect(events.head?.headers["content-type"] == "text/event-stream")
        try control.submit(.set(["stand": 0.9]))
        let changed = try events.next { $0.contains(#""name":"stand""#) && $0.contains(#""target":0.9"#) }
        let snapshot = try RingSnapshot(json: JSONValue.parse(changed))
        #expect(snapshot.ring(named: "stand")?.leds.contains { $0 != "#000000" } == true)
    }

    @Test func listensOnIPv6LoopbackToo() throws {
        let (server, _) = try Self.running(address: "::1")
        defer { server.stop() }
        #expect(try LoopbackHTTP.request(port: server.port, "GET", "/api/state", host: "::1").status == 200)
    }

    @Test func aPortInUseIsAnErrorNamingIt() throws {
        let (first, control) = try Self.running()
        defer { first.stop() }
        var settings = HTTPSettings()
        settings.port = first.port
        #expect {
            _ = try LoopHTTPRunner(settings: settings, control: control, log: { _ in })
        } throws: { error in
            "\(error)".contains("port \(first.port)") && "\(error)".contains("choose another http.port")
        }
    }
}
