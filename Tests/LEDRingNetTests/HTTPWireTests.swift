@testable import LEDRingNet
import Testing

/// The static build's HTTP/1.1 framing, byte by byte (RFC 9112): what the reader makes of a
/// request however it is cut, and what it refuses.
@Suite struct HTTPWireTests {
    static func reader(limit: Int = 100) -> HTTPMessageReader { HTTPMessageReader(bodyLimit: { _ in limit }) }

    /// Every event the bytes make, fed `step` bytes at a time.
    static func events(_ text: String, step: Int = 1_000_000, limit: Int = 100) -> [String] {
        var reader = reader(limit: limit)
        var out: [String] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            reader.append(bytes[i..<min(bytes.count, i + step)])
            i += step
            while let event = reader.next() {
                switch event {
                case .request(let r, let keepAlive):
                    out.append("\(r.method) \(r.path) body=\(String(decoding: r.body, as: UTF8.self)) keep=\(keepAlive)"
                               + (r.accessToken.map { " token=\($0)" } ?? ""))
                case .refused(let response):
                    out.append("refused \(response.status)")
                case .continueExpected:
                    out.append("continue")
                }
            }
        }
        return out
    }

    @Test(arguments: [1, 3, 1000])
    func pipelinedRequestsComeOutInOrderHoweverTheBytesAreCut(step: Int) {
        let text = "GET /api/state HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /api/rings/move HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n0.5"
            + "POST /api/reset HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\nab\r\n1\r\nc\r\n0\r\nX-Trailer: 1\r\n\r\n"
            + "GET /api/events?access_token=a%20b+c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
            + "GET /never HTTP/1.1\r\n\r\n"
        #expect(Self.events(text, step: step) == [
            "GET /api/state body= keep=true",
            "POST /api/rings/move body=0.5 keep=true",
            "POST /api/reset body=abc keep=true",
            "GET /api/events body= keep=false token=a b c",
        ])
    }

    @Test func http10ClosesUnlessAskedAndLFOnlyLinesAreRead() {
        #expect(Self.events("GET / HTTP/1.0\n\n") == ["GET / body= keep=false"])
        #expect(Self.events("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET /x HTTP/1.0\r\n\r\n")
                == ["GET / body= keep=true", "GET /x body= keep=false"])
    }

    @Test func theBodyWaitsForOneHundredContinueOnlyWhenAskedAndNotYetSent() {
        #expect(Self.events("POST /a HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n", step: 1000)
                == ["continue"])
        #expect(Self.events("POST /a HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi")
                == ["POST /a body=hi keep=true"])
    }

    /// Ambiguous framing is handed on without a body (the guard's 400) and nothing after it is read.
    @Test func smugglingShapesAreNotFramed() {
        #expect(Self.events("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /b HTTP/1.1\r\n\r\n")
                == ["POST /a body= keep=false"])
        #expect(Self.events("POST /a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\nabcGET /b HTTP/1.1\r\n\r\n")
                == ["POST /a body= keep=false"])
        #expect(Self.events("POST /a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == ["refused 501"])
        #expect(Self.events("GET /a HTTP/1.1\r\nHost : a\r\n\r\n") == ["refused 400"])
        #expect(Self.events("GET /a HTTP/1.1\r\nX: 1\r\n  folded\r\n\r\n") == ["refused 400"])
        #expect(Self.events("POST /a HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == ["refused 400"])
        #expect(Self.events("POST /a HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n") == ["refused 400"])
    }

    @Test func badRequestLinesAndVersions() {
        #expect(Self.events("GET /a HTTP/2.0\r\n\r\n") == ["refused 505"])
        #expect(Self.events("GET /a\r\n\r\n") == ["refused 400"])
        #expect(Self.events("GET  /a HTTP/1.1\r\n\r\n") == ["refused 400"])
        #expect(Self.events("GET http://evil/a HTTP/1.1\r\n\r\n") == ["refused 400"])
        #expect(Self.events("\r\n\r\nGET /a HTTP/1.1\r\n\r\n") == ["GET /a body= keep=true"], "empty lines before a request are skipped")
        #expect(Self.events("GET /%2e%2e/x%41 HTTP/1.1\r\n\r\n") == ["GET /../xA body= keep=true"], "the path is percent-decoded")
    }

    @Test func limits() {
        // A declared body over the limit is refused from the headers alone.
        #expect(Self.events("POST /a HTTP/1.1\r\nContent-Length: 101\r\n\r\n") == ["refused 413"])
        // A chunked one is read to its end and then refused.
        let big = String(repeating: "x", count: 150)
        #expect(Self.events("POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n96\r\n\(big)\r\n0\r\n\r\n") == ["refused 413"])
        // Headers past 32 KiB, or more than 100 lines of them.
        let long = "GET /a HTTP/1.1\r\nX: " + String(repeating: "y", count: 33 * 1024)
        #expect(Self.events(long, step: 4096) == ["refused 431"])
        let many = "GET /a HTTP/1.1\r\n" + (0..<101).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(Self.events(many) == ["refused 431"])
        #expect(Self.events("GET /a HTTP/1.1\r\n" + (0..<100).map { "X-\($0): 1\r\n" }.joined() + "\r\n") == ["GET /a body= keep=true"])
    }

    @Test func idleAndBodyStates() {
        var reader = Self.reader()
        #expect(reader.isIdle && !reader.isReadingBody)
        reader.append(Array("POST /a HTTP/1.1\r\nContent-Length: 4\r\n\r\nab".utf8)[...])
        #expect(reader.next() == nil)
        #expect(!reader.isIdle && reader.isReadingBody)
        reader.append(Array("cd".utf8)[...])
        guard case .request(let request, true)? = reader.next() else { Issue.record("no request"); return }
        #expect(request.body == Array("abcd".utf8))
        #expect(reader.isIdle)
    }

    @Test func responsesOnTheWire() {
        let response = HTTPResponse(status: 404, contentType: "application/json", body: Array("{}".utf8), headers: ["B": "2", "A": "1"])
        #expect(String(decoding: response.wire(keepAlive: true), as: UTF8.self)
                == "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nA: 1\r\nB: 2\r\n\r\n{}")
        #expect(String(decoding: response.wire(keepAlive: false, head: true), as: UTF8.self)
                == "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nA: 1\r\nB: 2\r\nConnection: close\r\n\r\n")
        #expect(HTTPServing.busy(limit: 3).closesConnection)
        #expect(String(decoding: HTTPLoopServer.framed(Array("hello".utf8), chunked: true), as: UTF8.self) == "5\r\nhello\r\n")
    }
}
