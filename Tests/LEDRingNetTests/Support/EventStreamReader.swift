import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LEDRingNetTesting

/// A server-sent event stream read over a raw socket, one `data:` line at a time.
final class EventStreamReader {
    private let fd: Int32
    private var raw: [UInt8] = []
    private var headerDone = false
    private var chunked = false
    private var text = ""

    init(port: Int, path: String = "/api/events") throws {
        fd = try LoopbackHTTP.connect(port: port)
        try LoopbackHTTP.write(fd, Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n".utf8))
    }

    deinit { close(fd) }

    /// The status and headers, once read.
    private(set) var head: HTTPReply?

    /// Moves whole chunks (or everything, unchunked) from `raw` to `text`.
    private func decode() throws {
        if !headerDone {
            guard let end = String(decoding: raw, as: UTF8.self).range(of: "\r\n\r\n") else { return }
            let headText = String(String(decoding: raw, as: UTF8.self)[..<end.upperBound])
            head = try LoopbackHTTP.parse(Array(headText.utf8))
            chunked = head?.headers["transfer-encoding"]?.contains("chunked") == true
            raw.removeFirst(headText.utf8.count)
            headerDone = true
        }
        guard chunked else {
            text += String(decoding: raw, as: UTF8.self)
            raw.removeAll()
            return
        }
        while let lineEnd = (0..<max(0, raw.count - 1)).first(where: { raw[$0] == 13 && raw[$0 + 1] == 10 }) {
            guard let size = Int(String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) else {
                throw LoopbackError(description: "bad chunk size line")
            }
            guard raw.count >= lineEnd + 2 + size + 2 else { return }
            text += String(decoding: raw[(lineEnd + 2)..<(lineEnd + 2 + size)], as: UTF8.self)
            raw.removeFirst(lineEnd + 2 + size + 2)
        }
    }

    /// The next event's data, within a bounded number of reads.
    func next() throws -> String {
        let deadline = Deadline(seconds: 30)
        for _ in 0..<1000 where !deadline.passed {
            try decode()
            if let end = text.range(of: "\n\n") {
                let event = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                if let line = event.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) {
                    return String(line.dropFirst(6))
                }
                continue
            }
            let chunk = try LoopbackHTTP.readSome(fd)
            guard !chunk.isEmpty else { throw LoopbackError(description: "event stream ended") }
            raw += chunk
        }
        throw LoopbackError(description: "no event within 30 s")
    }

    /// Waits (bounded) for an event whose data satisfies `matches`.
    func next(where matches: (String) -> Bool) throws -> String {
        let deadline = Deadline(seconds: 30)
        for _ in 0..<200 where !deadline.passed {
            let data = try next()
            if matches(data) { return data }
        }
        throw LoopbackError(description: "no matching event within 30 s")
    }
}
