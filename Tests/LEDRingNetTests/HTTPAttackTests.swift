import Foundation
import LEDRingControl
import LEDRingControlTesting
import LEDRingNet
import LEDRingNetTesting
import LEDSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 14 over raw loopback sockets: what another page, a rebinding name or a crowd of slow
/// clients can do to the HTTP server. Bounded: at most 40 connections, each wait at most 10 s.
@Suite struct HTTPAttackTests {
    /// Sends `head` (CRLF line ends added) and `body` on a fresh connection; reads the reply.
    static func raw(_ port: Int, _ lines: [String], body: String = "") throws -> HTTPReply {
        let fd = try LoopbackHTTP.connect(port: port)
        defer { close(fd) }
        try LoopbackHTTP.write(fd, Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8))
        var received: [UInt8] = []
        for _ in 0..<1000 {
            let chunk = try LoopbackHTTP.readSome(fd)
            if chunk.isEmpty { break }
            received += chunk
        }
        return try LoopbackHTTP.parse(received)
    }

    @Test func anotherOriginCannotTurnThePowerOff() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        let reply = try Self.raw(server.port, ["POST /api/power HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "Origin: http://evil.example",
                                               "Content-Type: text/plain", "Content-Length: 3", "Connection: close"], body: "off")
        #expect(reply.status == 403)
        let json = try Self.raw(server.port, ["POST /api/rings/move HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "Content-Type: text/plain",
                                              "Content-Length: 13", "Connection: close"], body: #"{"value":0.5}"#)
        #expect(json.status == 415)
        #expect(control.commands.isEmpty)
    }

    /// The guard reads every header or refuses the request: after 100 junk headers a cross-site
    /// Origin, a second Host or a second Content-Length used to go unseen (200).
    @Test func headersPastTheOnesReadCannotHide() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        let junk = (0..<100).map { "X-Junk-\($0): \($0)" }
        let hidden = try Self.raw(server.port, ["POST /api/power HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + junk
                                  + ["Origin: http://evil.example", "Sec-Fetch-Site: cross-site", "Content-Type: text/plain",
                                     "Content-Length: 3", "Connection: close"], body: "off")
        #expect(hidden.status == 431, "\(hidden.status) \(hidden.body)")
        #expect(hidden.body.contains("at most 100 are read"), "\(hidden.body)")
        let secondHost = try Self.raw(server.port, ["GET /api/state HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + junk
                                      + ["Host: evil.example", "Connection: close"])
        #expect(secondHost.status == 431 && !secondHost.body.contains("rings"))
        // Under the limit the guard sees them all, as before: the Origin is refused with 403.
        let seen = try Self.raw(server.port, ["POST /api/power HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + junk.prefix(90)
                                + ["Origin: http://evil.example", "Content-Type: text/plain", "Content-Length: 3", "Connection: close"],
                                body: "off")
        #expect(seen.status == 403, "\(seen.status) \(seen.body)")
        let fine = try Self.raw(server.port, ["GET /api/state HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + junk.prefix(90) + ["Connection: close"])
        #expect(fine.status == 200)
        #expect(control.commands.isEmpty)
    }

    @Test func aRebindingHostIsNotServed() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        let reply = try Self.raw(server.port, ["GET /api/state HTTP/1.1", "Host: evil.example:\(server.port)", "Connection: close"])
        #expect(reply.status == 421 && !reply.body.contains("rings"))
        let page = try Self.raw(server.port, ["GET / HTTP/1.1", "Host: evil.example", "Connection: close"])
        #expect(page.status == 421)
        let own = try Self.raw(server.port, ["GET /api/state HTTP/1.1", "Host: localhost:\(server.port)", "Connection: close"])
        #expect(own.status == 200)
        #expect(control.commands.isEmpty)
    }

    @Test func noHostAndTwoLengthsAreRefused() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        let noHost = try Self.raw(server.port, ["POST /api/reset HTTP/1.1", "Content-Length: 0", "Connection: close"])
        #expect(noHost.status == 400)
        let twice = try Self.raw(server.port, ["POST /api/rings/move HTTP/1.1", "Host: localhost", "Content-Length: 3", "Content-Length: 3",
                                               "Connection: close"], body: "0.5")
        #expect(twice.status == 400)
        #expect(control.commands.isEmpty)
    }

    @Test func lowerCaseBearerAndNoTokenInWriteURLs() throws {
        let (server, control) = try HTTPServerTests.running(token: "s3cret")
        defer { server.stop() }
        let lower = try LoopbackHTTP.request(port: server.port, "GET", "/api/state", headers: ["Authorization": "bearer s3cret"])
        #expect(lower.status == 200)
        let query = try LoopbackHTTP.request(port: server.port, "POST", "/api/reset?access_token=s3cret")
        #expect(query.status == 401)
        #expect(control.commands.isEmpty)
    }

    @Test func errorsSayWhereAndNeverShowFoundationText() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        let json = ["Content-Type": "application/json"]
        let invalidUTF8 = Array(#"{"value":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        let cases: [([UInt8], String)] = [(Array("{\"value\":\n0.5,,}".utf8), "line 2, column 5"), (Array(#"{"value":1e309}"#.utf8), "1e309"),
                                          (invalidUTF8, "UTF-8"), (Array(#"{"value":0.5,"value":0.6}"#.utf8), "duplicate key")]
        for (body, expected) in cases {
            let reply = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move", headers: json, rawBody: body)
            #expect(reply.status == 400)
            #expect(!reply.body.contains("NSCocoaErrorDomain") && !reply.body.contains("DecodingError") && !reply.body.contains("Error Domain"))
            #expect(reply.body.contains(expected), "\(reply.body)")
        }
        let huge = try LoopbackHTTP.request(port: server.port, "POST", "/api/rings/move", body: #"{"value":"\#(String(repeating: "9", count: 10_000))"}"#,
                                            headers: json)
        #expect(huge.status == 400 && huge.body.count < 500)
        #expect(control.commands.isEmpty)
    }

    @Test func openEventStreamsLeaveRoomForOthers() throws {
        let (server, control) = try HTTPServerTests.running()
        defer { server.stop() }
        // As many streams as the old connection limit: the pool takes a few, the rest are told
        // "busy" (503), never reset, and a plain request is still answered.
        var streams: [Int32] = []
        defer { streams.forEach { close($0) } }
        var statuses: [Int] = []
        for _ in 0..<32 {
            let fd = try LoopbackHTTP.connect(port: server.port)
            streams.append(fd)
            try LoopbackHTTP.write(fd, Array("GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            let head = String(decoding: try LoopbackHTTP.readSome(fd), as: UTF8.self)
            statuses.append(Int(head.dropFirst(9).prefix(3)) ?? 0)
        }
        #expect(statuses.contains(200) && statuses.contains(503) && statuses.allSatisfy { $0 == 200 || $0 == 503 })
        let state = try LoopbackHTTP.request(port: server.port, "GET", "/api/state")
        #expect(state.status == 200)
        #expect(control.commands.isEmpty)
    }

    /// A server whose clients must finish their headers within 1 s and may idle 1 s.
    static func impatient() throws -> (LoopHTTPRunner, RecordingRingControl) {
        var settings = HTTPSettings()
        settings.port = 0
        settings.headerTimeout = 1
        settings.idleTimeout = 1
        let control = try RecordingRingControl()
        return (try LoopHTTPRunner(settings: settings, control: control, log: { _ in }), control)
    }

    @Test func slowHeadersAndIdleConnectionsAreClosed() throws {
        let (server, _) = try Self.impatient()
        defer { server.stop() }
        // Trickling: a byte now and then keeps an idle timer happy, not the header deadline.
        let slow = try LoopbackHTTP.connect(port: server.port)
        defer { close(slow) }
        var closed = false
        for byte in Array("GET /api/state HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1".utf8) {
            let sent = [byte].withUnsafeBytes { send(slow, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { closed = true; break }
            var p = pollfd(fd: slow, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 300) > 0 { closed = (try? LoopbackHTTP.readSome(slow, timeout: 0))?.isEmpty ?? true; break }
        }
        #expect(closed, "a client trickling its headers was never cut off")
        // The same for a body trickled after complete headers.
        let slowBody = try LoopbackHTTP.connect(port: server.port)
        defer { close(slowBody) }
        try LoopbackHTTP.write(slowBody, Array("POST /api/rings/move HTTP/1.1\r\nHost: localhost\r\nContent-Length: 60\r\n\r\n".utf8))
        var bodyCut = false
        for _ in 0..<60 {
            let sent = [UInt8(ascii: " ")].withUnsafeBytes { send(slowBody, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { bodyCut = true; break }
            var p = pollfd(fd: slowBody, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 300) > 0 { bodyCut = (try? LoopbackHTTP.readSome(slowBody, timeout: 0))?.isEmpty ?? true; break }
        }
        #expect(bodyCut, "a client trickling its body was never cut off")
        // Kept alive after a request, then silent: closed.
        let idle = try LoopbackHTTP.connect(port: server.port)
        defer { close(idle) }
        try LoopbackHTTP.write(idle, Array("GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        var received: [UInt8] = []
        var ended = false
        for _ in 0..<100 {
            let chunk = try LoopbackHTTP.readSome(idle)
            if chunk.isEmpty { ended = true; break }
            received += chunk
        }
        #expect(ended && String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test func trickledHeadersDoNotLockOthersOut() throws {
        let (server, _) = try HTTPServerTests.running()
        defer { server.stop() }
        // 32 clients that start a request and never finish its headers.
        var slow: [Int32] = []
        defer { slow.forEach { close($0) } }
        for _ in 0..<32 {
            let fd = try LoopbackHTTP.connect(port: server.port)
            slow.append(fd)
            try LoopbackHTTP.write(fd, Array("GET /api/state HTTP/1.1\r\nHo".utf8))
        }
        usleep(200_000)
        let state = try LoopbackHTTP.request(port: server.port, "GET", "/api/state")
        #expect(state.status == 200)
    }
}

/// Secret files are small regular files: a device is refused at once, not read for ever.
@Suite struct SecretFileTests {
    @Test func aDeviceIsRefused() throws {
        var settings = HTTPSettings()
        settings.tokenFile = "/dev/zero"
        #expect {
            _ = try HTTPLoopServer(settings: settings, control: try RecordingRingControl(), system: LinuxSystemCalls(), log: { _ in })
        } throws: { error in
            "\(error)".contains("/dev/zero") && "\(error)".contains("not a regular file") && !"\(error)".contains("permission")
        }
    }

    @Test func aTokenFileGivesItsFirstLine() throws {
        let path = "/tmp/lr-token-\(UUID().uuidString.prefix(8))"
        defer { unlink(path) }
        try "  s3cret \nrest\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try SecretFile.firstLine(path) == "s3cret")
        #expect(try SecretFile.firstLine(path, trimming: false) == "  s3cret ")
    }
}
