import LEDRingControl
import RingModel

/// HTTP/1.1 framing (RFC 9112) for the static build's own server, as a pure reader of bytes and a
/// writer of responses: no sockets, so every framing rule is tested with bytes alone, and the
/// server (`HTTPLoopServer`) only moves them. Requests come out as `HTTPRequest`, the router's own
/// type, so what is routed, guarded and answered is the full build's code.
///
/// Where a request's framing is ambiguous (two Content-Lengths, Content-Length beside
/// Transfer-Encoding) the reader hands the request on without a body and says the connection
/// must close: `RequestGuard` answers it with the full build's 400, and no byte after it is
/// taken for another request (request smuggling, RFC 9112 §6.3 and §11.2).
public struct HTTPMessageReader {
    /// What the bytes so far make.
    public enum Event {
        /// A whole request; `keepAlive` false when the connection closes after its answer.
        case request(HTTPRequest, keepAlive: Bool)
        /// Answer this and close: the bytes are not a request that can be answered otherwise.
        case refused(HTTPResponse)
        /// The client waits for `100 Continue` before it sends the body (`Expect: 100-continue`,
        /// curl's habit for bodies over 1 KiB); ask again after writing it.
        case continueExpected
    }

    /// Most bytes of request line and headers together (libmicrohttpd's pool in the full build
    /// is 64 KiB for everything; browsers send about 1 KiB).
    public static let maxHeadBytes = 32 * 1024
    /// Most header lines read; a request with more is refused whole (see `RequestGuard`: past
    /// the ones read, a second Host or a cross-site Origin would go unseen).
    public static let maxHeaders = 100
    /// Bodies over their limit are read and dropped up to this size before the 413, so the
    /// client sees the answer rather than a reset; beyond it the answer goes at once.
    public static let drainLimit = 1 << 20

    private enum Framing {
        case length(Int)
        case chunked
    }

    private enum ChunkStep {
        case size
        case data(Int)
        case dataEnd
        case trailers
    }

    private enum State {
        case head
        case body(HTTPRequest, keepAlive: Bool, remaining: Int)
        case chunked(HTTPRequest, keepAlive: Bool, step: ChunkStep, received: Int, limit: Int)
        case done
    }

    private var buffer: [UInt8] = []
    private var state = State.head
    private let bodyLimit: (String) -> Int

    /// A reader whose bodies may be as long as `bodyLimit(path)` says (`HTTPRouter.maxBodyBytes(for:)`).
    public init(bodyLimit: @escaping (String) -> Int) {
        self.bodyLimit = bodyLimit
    }

    /// Takes the next bytes read from the connection.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        guard case .done = state else {
            buffer += bytes
            return
        }
    }

    /// Whether no request has begun (nothing buffered, no body awaited): the connection is idle.
    public var isIdle: Bool {
        guard case .head = state else { return false }
        return buffer.allSatisfy { $0 == 13 || $0 == 10 }
    }

    /// Whether a request's headers are in and its body is still arriving.
    public var isReadingBody: Bool {
        switch state {
        case .body, .chunked: return true
        case .head, .done: return false
        }
    }

    /// The next event the buffered bytes make, or nil until more arrive (or after a refusal or
    /// a request that closes the connection: nothing more is read).
    public mutating func next() -> Event? {
        switch state {
        case .done:
            return nil
        case .head:
            return readHead()
        case .body(let request, let keepAlive, let remaining):
            guard buffer.count >= remaining else { return nil }
            var request = request
            request.body = Array(buffer[0..<remaining])
            buffer.removeFirst(remaining)
            state = keepAlive ? .head : .done
            return .request(request, keepAlive: keepAlive)
        case .chunked(let request, let keepAlive, let step, let received, let limit):
            return readChunks(request, keepAlive: keepAlive, step: step, received: received, limit: limit)
        }
    }

    private mutating func refuse(_ response: HTTPResponse) -> Event {
        state = .done
        buffer.removeAll()
        return .refused(response)
    }

    /// The index just past the blank line that ends the head, if it is in.
    private func headEnd() -> Int? {
        var i = 0
        while i < buffer.count {
            if buffer[i] == 10 {
                if i + 1 < buffer.count && buffer[i + 1] == 10 { return i + 2 }
                if i + 2 < buffer.count && buffer[i + 1] == 13 && buffer[i + 2] == 10 { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    private mutating func readHead() -> Event? {
        // Empty lines before a request line are skipped (RFC 9112 §2.2).
        var skip = 0
        while skip < buffer.count && (buffer[skip] == 13 || buffer[skip] == 10) { skip += 1 }
        if skip > 0 { buffer.removeFirst(skip) }
        guard let end = headEnd() else {
            if buffer.count > HTTPMessageReader.maxHeadBytes { return refuse(Self.headTooLarge) }
            return nil
        }
        if end > HTTPMessageReader.maxHeadBytes { return refuse(Self.headTooLarge) }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for i in 0..<end where buffer[i] == 10 {
            var line = buffer[start..<i]
            if line.last == 13 { line = line.dropLast() }
            lines.append(line)
            start = i + 1
        }
        let head = lines.dropLast()  // the blank line
        buffer.removeFirst(end)
        guard let requestLine = head.first else { return refuse(.error(400, "no request line")) }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte) else {
            return refuse(.error(400, "the request line is not METHOD /path HTTP/1.1"))
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") {
                return refuse(.error(505, "HTTP version \(LogText.escaped(version)) is not served; use HTTP/1.1"))
            }
            return refuse(.error(400, "the request line is not METHOD /path HTTP/1.1"))
        }
        let target = parts[1]
        guard target.first == 47 else {  // "/"
            return refuse(.error(400, "the request target must be a path starting with /"))
        }
        var headers: [String: [String]] = [:]
        var count = 0
        for line in head.dropFirst() {
            guard let first = line.first else { continue }
            // Obsolete line folding (RFC 9112 §5.2): refused, not joined.
            if first == 32 || first == 9 { return refuse(.error(400, "a header line starts with white space (line folding); send each header on one line")) }
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(Self.isTokenByte) else {
                return refuse(.error(400, "a header line is not Name: value"))
            }
            count += 1
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            var value = line[(colon + 1)...]
            while let c = value.first, c == 32 || c == 9 { value = value.dropFirst() }
            while let c = value.last, c == 32 || c == 9 { value = value.dropLast() }
            headers[name, default: []].append(String(decoding: value, as: UTF8.self))
        }
        if count > HTTPMessageReader.maxHeaders {
            return refuse(.error(431, "the request has \(count) headers; at most \(HTTPMessageReader.maxHeaders) are read, "
                                     + "so it is refused whole; send fewer"))
        }
        let (path, query) = Self.split(target)
        let request = HTTPRequest(method: method, path: path, authorization: headers["authorization"]?.first,
                                  accessToken: Self.queryValue("access_token", in: query), body: [], headers: headers,
                                  version: version)
        var keepAlive = Self.keepsAlive(version: version, connection: headers["connection"] ?? [])
        let lengths = headers["content-length"] ?? []
        let encodings = headers["transfer-encoding"] ?? []
        // Ambiguous framing: routed without a body (RequestGuard refuses it), and then closed.
        if lengths.count > 1 || (!lengths.isEmpty && !encodings.isEmpty) || encodings.count > 1 {
            state = .done
            buffer.removeAll()
            return .request(request, keepAlive: false)
        }
        let limit = bodyLimit(path)
        let framing: Framing
        if let encoding = encodings.first {
            guard encoding.lowercased() == "chunked" else {
                return refuse(.error(501, "Transfer-Encoding \(LogText.escaped(encoding)) is not served; send Content-Length or chunked"))
            }
            framing = .chunked
        } else if let text = lengths.first {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text) else {
                return refuse(.error(400, "Content-Length \(LogText.escaped(text)) is not a number of bytes"))
            }
            guard length <= limit else {
                return refuse(.error(413, "body is \(length) bytes; at most \(limit) are accepted"))
            }
            framing = .length(length)
        } else {
            framing = .length(0)
        }
        if version == "HTTP/1.0", case .chunked = framing { keepAlive = false }
        let expects = (headers["expect"]?.first?.lowercased() == "100-continue") && version == "HTTP/1.1"
        switch framing {
        case .length(0):
            state = keepAlive ? .head : .done
            return .request(request, keepAlive: keepAlive)
        case .length(let length):
            state = .body(request, keepAlive: keepAlive, remaining: length)
        case .chunked:
            state = .chunked(request, keepAlive: keepAlive, step: .size, received: 0, limit: limit)
        }
        if expects && buffer.isEmpty { return .continueExpected }
        return next()
    }

    /// A line (without its CRLF or LF) at the start of the buffer, taken out; nil until it is in.
    private mutating func takeLine(max: Int) -> ArraySlice<UInt8>?? {
        guard let lf = buffer.firstIndex(of: 10) else { return buffer.count > max ? .some(nil) : nil }
        guard lf <= max else { return .some(nil) }
        var line = buffer[0..<lf]
        if line.last == 13 { line = line.dropLast() }
        let taken = Array(line)
        buffer.removeFirst(lf + 1)
        return .some(taken[...])
    }

    private mutating func readChunks(_ request: HTTPRequest, keepAlive: Bool, step: ChunkStep, received: Int, limit: Int) -> Event? {
        var request = request
        var step = step
        var received = received
        defer {
            if case .chunked = state { state = .chunked(request, keepAlive: keepAlive, step: step, received: received, limit: limit) }
        }
        while true {
            switch step {
            case .size:
                guard let taken = takeLine(max: 1024) else { return nil }
                guard let line = taken else { return refuse(.error(400, "a chunk size line is over 1 KiB")) }
                let digits = line.prefix { $0 != 59 && $0 != 32 && $0 != 9 }  // before ";ext"
                guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    return refuse(.error(400, "a chunk size is not a hexadecimal number"))
                }
                step = size == 0 ? .trailers : .data(size)
            case .data(let left):
                guard !buffer.isEmpty else { return nil }
                let n = min(left, buffer.count)
                if received + n <= limit { request.body += buffer[0..<n] }
                received += n
                buffer.removeFirst(n)
                if received > HTTPMessageReader.drainLimit {
                    return refuse(.error(413, "body is over \(received) bytes; at most \(limit) are accepted"))
                }
                step = n == left ? .dataEnd : .data(left - n)
            case .dataEnd:
                guard let taken = takeLine(max: 2) else { return nil }
                guard let line = taken, line.isEmpty else { return refuse(.error(400, "a chunk does not end with CRLF")) }
                step = .size
            case .trailers:
                guard let taken = takeLine(max: HTTPMessageReader.maxHeadBytes) else { return nil }
                guard let line = taken else { return refuse(Self.headTooLarge) }
                guard line.isEmpty else { continue }  // trailer fields are read and not used
                if received > limit {
                    return refuse(.error(413, "body is \(received) bytes; at most \(limit) are accepted"))
                }
                state = keepAlive ? .head : .done
                return .request(request, keepAlive: keepAlive)
            }
        }
    }

    private static let headTooLarge = HTTPResponse.error(431, "the request line and headers are over \(maxHeadBytes / 1024) KiB; send less")

    /// tchar of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }

    /// HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 closes unless told `keep-alive`.
    static func keepsAlive(version: String, connection: [String]) -> Bool {
        var tokens: [String] = []
        for value in connection {
            for part in value.split(separator: ",") { tokens.append(String(part).trimmingWhitespace().lowercased()) }
        }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    /// The path (percent-decoded, as libmicrohttpd hands it to the full build) and the raw query.
    static func split(_ target: ArraySlice<UInt8>) -> (path: String, query: ArraySlice<UInt8>) {
        let mark = target.firstIndex(of: 63) ?? target.endIndex  // "?"
        let query = mark < target.endIndex ? target[(mark + 1)...] : target[target.endIndex...]
        return (String(decoding: percentDecoded(target[target.startIndex..<mark], plusIsSpace: false), as: UTF8.self), query)
    }

    /// The first value of `name` in a query string (`a=1&b=2`), decoded.
    static func queryValue(_ name: String, in query: ArraySlice<UInt8>) -> String? {
        for pair in query.split(separator: 38) {  // "&"
            let equals = pair.firstIndex(of: 61) ?? pair.endIndex
            let key = percentDecoded(pair[pair.startIndex..<equals], plusIsSpace: true)
            guard key == Array(name.utf8) else { continue }
            let value = equals < pair.endIndex ? pair[(equals + 1)...] : pair[pair.endIndex...]
            return String(decoding: percentDecoded(value, plusIsSpace: true), as: UTF8.self)
        }
        return nil
    }

    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if c == 37, i + 2 < bytes.endIndex, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
                continue
            }
            out.append(plusIsSpace && c == 43 ? 32 : c)
            i += 1
        }
        return out
    }
}

extension HTTPResponse {
    /// The status line, headers and (unless `head`) body, as sent: `Content-Length` always,
    /// `Connection: close` when the connection ends after it.
    public func wire(keepAlive: Bool, head: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        var names: [String] = []
        for (name, _) in headers { names.append(name) }
        names.sort()
        for name in names where name.lowercased() != "connection" { text += "\(name): \(headers[name] ?? "")\r\n" }
        if !keepAlive { text += "Connection: close\r\n" }
        text += "\r\n"
        return head ? Array(text.utf8) : Array(text.utf8) + body
    }

    /// Whether the response itself asks to close the connection (`Connection: close`, the 503s).
    public var closesConnection: Bool {
        for (name, value) in headers where name.lowercased() == "connection" && value.lowercased() == "close" { return true }
        return false
    }

    /// The reason phrase of the codes ledring answers with.
    static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
