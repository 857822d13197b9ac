import Foundation
import Glibc

/// A tiny HTTP/1.1 client over raw loopback sockets, so tests control every byte (oversized
/// bodies, odd paths, headers only) and depend on nothing beyond Glibc.
public enum LoopbackHTTP {
    /// Every wait on the socket is bounded by this.
    public static let timeoutMilliseconds: Int32 = 10_000

    public static func connect(port: Int, host: String = "127.0.0.1") throws -> Int32 {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError(description: "socket: errno \(errno)") }
        var result: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            close(fd)
            throw LoopbackError(description: "connect to \(host):\(port): errno \(errno)")
        }
        return fd
    }

    public static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw LoopbackError(description: "send: errno \(errno)") }
            sent += n
        }
    }

    /// Reads what is available within the timeout; empty at end of stream.
    public static func readSome(_ fd: Int32, timeout: Int32 = timeoutMilliseconds) throws -> [UInt8] {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) == 1 else { throw LoopbackError(description: "no data within \(timeout) ms") }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw LoopbackError(description: "read: errno \(errno)") }
        return Array(buffer.prefix(n))
    }

    /// Sends one request with `Connection: close` and reads the whole reply.
    public static func request(port: Int, _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:],
                        host: String = "127.0.0.1", rawBody: [UInt8]? = nil) throws -> HTTPReply {
        let fd = try connect(port: port, host: host)
        defer { close(fd) }
        let payload = rawBody ?? body.map { Array($0.utf8) } ?? []
        // `Host: localhost` unless the caller gives its own (a proxy's name, say).
        var head = "\(method) \(path) HTTP/1.1\r\n" + (headers["Host"] == nil ? "Host: localhost\r\n" : "") + "Connection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if headers["Content-Length"] == nil && headers["Transfer-Encoding"] == nil && (method == "POST" || !payload.isEmpty) { head += "Content-Length: \(payload.count)\r\n" }
        head += "\r\n"
        try write(fd, Array(head.utf8) + payload)
        var received: [UInt8] = []
        let deadline = Deadline(seconds: 30)
        for _ in 0..<10_000 where !deadline.passed {
            let chunk = try readSome(fd)
            if chunk.isEmpty { break }
            received += chunk
        }
        return try parse(received)
    }

    public static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw LoopbackError(description: "no header end in \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw LoopbackError(description: "bad status line in \(text.prefix(200))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
