import Glibc
import LEDMQTT

/// Seconds on the monotonic clock: the time every session in these tests is driven by.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One `MQTTSession` on a non-blocking TCP socket to 127.0.0.1:`port`, driven the way the
/// daemon's poll(2) loop will drive it: write the output when the socket is writable, feed it
/// what is read, tick it at its deadline, close the socket on a loss and open a new one when the
/// reconnect is due. Everything it saw is recorded with the time, and every packet it wrote is
/// decoded again (a wire tap), so the tests can check what went out.
final class PollClient {
    let name: String
    let port: Int
    var session: MQTTSession
    /// Called on every `.connected` (a client subscribes there: clean session forgets).
    var onConnected: ((PollClient) -> Void)?
    /// When false, `.reconnectDue` is recorded but no socket is opened.
    var reconnects = true

    private(set) var fd: Int32 = -1
    private(set) var events: [(time: Double, event: MQTTEvent)] = []
    private(set) var written: [(time: Double, packet: MQTTPacket)] = []
    /// When each socket was opened.
    private(set) var socketOpened: [Double] = []
    private var tap = MQTTDecoder(maximumPacketSize: Int.max)

    init(_ name: String, port: Int, _ configuration: MQTTSessionConfiguration) throws {
        self.name = name
        self.port = port
        session = try MQTTSession(configuration)
    }

    static func configuration(_ clientId: String, keepAlive: UInt16 = 30, will: MQTTWill? = nil,
                              maximumPacketSize: Int = 1 << 20, connackTimeout: Double = 3, pingTimeout: Double? = nil,
                              reconnectMin: Double = 0.2, reconnectMax: Double = 2) -> MQTTSessionConfiguration {
        MQTTSessionConfiguration(connect: MQTTConnectOptions(clientId: clientId, keepAlive: keepAlive, will: will),
                                 connackTimeout: connackTimeout, pingTimeout: pingTimeout, reconnectMin: reconnectMin,
                                 reconnectMax: reconnectMax, maximumPacketSize: maximumPacketSize)
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    var isConnected: Bool { session.state == .connected }

    /// Opens a socket and starts the connection (CONNECT waits until the socket is writable).
    func open() {
        let now = monotonicSeconds()
        socketOpened.append(now)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            record(session.closed(reason: "socket: \(String(cString: strerror(errno)))", now: now), now: now)
            return
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if rc != 0 && errno != EINPROGRESS {
            let reason = "connect: \(String(cString: strerror(errno)))"
            closeSocket()
            session.startConnection(now: now)
            record(session.closed(reason: reason, now: now), now: now)
            return
        }
        session.startConnection(now: now)
    }

    /// Closes the socket without a word (no DISCONNECT): what a crash or a pulled cable does.
    func closeSocket() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Leaves cleanly: DISCONNECT is written by the loop, which then closes the socket.
    func disconnect() {
        session.disconnect()
    }

    func publish(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) throws -> UInt16? {
        try session.publish(topic: topic, payload: payload, qos: qos, retain: retain)
    }

    /// The messages received, in order.
    var messages: [(topic: String, payload: [UInt8], retain: Bool)] {
        events.compactMap { entry in
            if case let .message(topic, payload, retain) = entry.event { return (topic, payload, retain) }
            return nil
        }
    }

    func count(where match: (MQTTEvent) -> Bool) -> Int { events.filter { match($0.event) }.count }

    var connects: Int { count { if case .connected = $0 { return true } else { return false } } }
    var losses: [(time: Double, reason: MQTTConnectionLoss)] {
        events.compactMap { entry in
            if case let .connectionLost(reason) = entry.event { return (entry.time, reason) }
            return nil
        }
    }

    func acknowledged(_ id: UInt16?) -> Bool {
        guard let id else { return false }
        return count { $0 == .published(packetId: id) } > 0
    }

    /// The pollfd this client wants, if it has a socket.
    var pollRequest: pollfd? {
        guard fd >= 0 else { return nil }
        return pollfd(fd: fd, events: Int16(POLLIN) | (session.hasOutput ? Int16(POLLOUT) : 0), revents: 0)
    }

    /// Reads and writes what `revents` allows.
    func serve(_ revents: Int16) {
        guard fd >= 0 else { return }
        if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            let now = monotonicSeconds()
            if n > 0 {
                record(session.receive(buffer[..<n], now: now), now: now)
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                let reason = n == 0 ? "the broker closed the connection" : "read: \(String(cString: strerror(errno)))"
                closeSocket()
                record(session.closed(reason: reason, now: now), now: now)
                return
            }
        }
        flush()
    }

    /// Writes as much of the output as the socket takes.
    func flush() {
        while fd >= 0 && session.hasOutput {
            let pending = session.output
            let n = pending.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let now = monotonicSeconds()
            if n > 0 {
                tap.feed(pending.prefix(n))
                while let decoded = try? tap.next() {
                    if case let .packet(packet) = decoded { written.append((now, packet)) }
                }
                session.didSend(n, now: now)
            } else {
                if errno == EAGAIN || errno == EINTR { return }
                let reason = "write: \(String(cString: strerror(errno)))"
                closeSocket()
                record(session.closed(reason: reason, now: now), now: now)
                return
            }
        }
        // After DISCONNECT has gone out, the socket is closed (MQTT-3.14.4-1).
        if fd >= 0 && session.state == .disconnecting && !session.hasOutput {
            closeSocket()
            let now = monotonicSeconds()
            record(session.closed(reason: "closed after DISCONNECT", now: now), now: now)
        }
    }

    func tick() {
        let now = monotonicSeconds()
        record(session.tick(now: now), now: now)
    }

    private func record(_ new: [MQTTEvent], now: Double) {
        for event in new {
            events.append((now, event))
            switch event {
            case .connectionLost, .refused:
                closeSocket()
                tap = MQTTDecoder(maximumPacketSize: Int.max)
            case .reconnectDue:
                if reconnects { open() }
            case .connected:
                onConnected?(self)
            default:
                break
            }
        }
        if fd >= 0 && session.hasOutput { flush() }
    }
}

/// Runs `clients` in one poll(2) loop until `condition` holds or `seconds` pass; whether it held.
/// The poll timeout is the earliest session deadline (at most 50 ms, so the condition is
/// looked at often).
@discardableResult
func runLoop(_ clients: [PollClient], within seconds: Double, until condition: () -> Bool = { false }) -> Bool {
    let end = monotonicSeconds() + seconds
    while true {
        for client in clients { client.tick() }
        if condition() { return true }
        let now = monotonicSeconds()
        if now >= end { return false }
        var wait = min(0.05, end - now)
        for client in clients {
            if let deadline = client.session.nextDeadline { wait = min(wait, max(0, deadline - now)) }
        }
        var requests: [pollfd] = []
        var owners: [PollClient] = []
        for client in clients {
            if let request = client.pollRequest {
                requests.append(request)
                owners.append(client)
            }
        }
        let timeout = Int32((wait * 1000).rounded(.up))
        let ready = requests.isEmpty ? Int32(usleep(UInt32(timeout) * 1000)) : poll(&requests, nfds_t(requests.count), timeout)
        if ready > 0 {
            for (index, request) in requests.enumerated() where request.revents != 0 {
                owners[index].serve(request.revents)
            }
        }
    }
}
