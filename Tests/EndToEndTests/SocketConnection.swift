import Foundation
import Glibc

/// A raw connection to the daemon's control socket, for requests the client command would not
/// send (malformed, oversized, many at once).
final class SocketConnection {
    let fd: Int32
    private var received: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw Failure(description: "connect \(path): errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends `text` as is, reading replies meanwhile (kept for `readLine`): a client that only
    /// writes while the daemon waits for it to read its replies would wait for ever. Bounded by
    /// `timeout` seconds.
    func send(_ text: String, timeout: Double = 30) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        let deadline = Date().addingTimeInterval(timeout)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                offset += n
                continue
            }
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Failure(description: "send: errno \(errno)") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "send: the daemon took nothing for \(timeout) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN | POLLOUT), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            if p.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if got > 0 { received += buffer[0..<got] }
            }
        }
    }

    /// The next reply line, waiting at most `timeout` seconds; nil on timeout or end of stream.
    func readLine(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            received += buffer[0..<n]
        }
    }

    /// One request, one reply, decoded.
    func request(_ line: String) throws -> [String: Any] {
        try send(line + "\n")
        guard let reply = readLine() else { throw Failure(description: "no reply to \(line.prefix(80))") }
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any] else {
            throw Failure(description: "reply is not an object: \(reply)")
        }
        return object
    }
}
