import Glibc
import LEDMQTT
import LEDSystem

/// Seconds on the monotonic clock: the time every session in these tests is driven by.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The product's `MQTTLink` over the real system calls to 127.0.0.1:`port`, driven the way the
/// daemon's poll(2) loop drives it. Everything it saw is recorded with the time, and every
/// packet it wrote is decoded again (a wire tap on `MQTTLink.onWrite`), so the tests can check
/// what went out.
final class PollClient {
    let name: String
    let port: Int
    let link: MQTTLink
    /// Called on every `.connected` (a client subscribes there: clean session forgets).
    var onConnected: ((PollClient) -> Void)?
    /// When false, `.reconnectDue` is recorded but no socket is opened.
    var reconnects: Bool {
        get { link.reconnects }
        set { link.reconnects = newValue }
    }

    private(set) var events: [(time: Double, event: MQTTEvent)] = []
    /// Each packet written, at the time the link was told (`now` of the call that wrote it): the
    /// clock the session schedules by, so intervals measured here are the session's own, not
    /// that plus how late this process got to the write on a busy machine.
    private(set) var written: [(time: Double, packet: MQTTPacket)] = []
    /// The `now` of the link call under way.
    private var linkNow: Double = 0
    /// When each socket was opened.
    private(set) var socketOpened: [Double] = []
    private var tap = MQTTDecoder(maximumPacketSize: Int.max)
    private var attemptsSeen = 0

    init(_ name: String, port: Int, _ configuration: MQTTSessionConfiguration) throws {
        self.name = name
        self.port = port
        link = try MQTTLink(brokers: [.loopback(port: UInt16(port))], configuration: configuration,
                            system: RetryingSystemCalls(LinuxSystemCalls()))
        link.onWrite = { [unowned self] bytes in
            tap.feed(bytes)
            while let decoded = try? tap.next() {
                if case let .packet(packet) = decoded { written.append((linkNow, packet)) }
            }
        }
    }

    static func configuration(_ clientId: String, keepAlive: UInt16 = 30, will: MQTTWill? = nil,
                              maximumPacketSize: Int = 1 << 20, connackTimeout: Double = 3, pingTimeout: Double? = nil,
                              reconnectMin: Double = 0.2, reconnectMax: Double = 2) -> MQTTSessionConfiguration {
        MQTTSessionConfiguration(connect: MQTTConnectOptions(clientId: clientId, keepAlive: keepAlive, will: will),
                                 connackTimeout: connackTimeout, pingTimeout: pingTimeout, reconnectMin: reconnectMin,
                                 reconnectMax: reconnectMax, maximumPacketSize: maximumPacketSize)
    }

    var session: MQTTSession {
        get { link.session }
        set { link.session = newValue }
    }

    var isConnected: Bool { link.isConnected }

    /// Opens a socket and starts the connection.
    func open() {
        let now = monotonicSeconds()
        linkNow = now
        record(link.open(now: now), now: now)
    }

    /// Closes the socket without a word (no DISCONNECT): what a crash or a pulled cable does.
    func closeSocket() {
        let now = monotonicSeconds()
        linkNow = now
        record(link.dropConnection(now: now), now: now)
    }

    /// Leaves cleanly: DISCONNECT is written by the loop, which then closes the socket.
    func disconnect() {
        link.session.disconnect()
    }

    func publish(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) throws -> UInt16? {
        try link.session.publish(topic: topic, payload: payload, qos: qos, retain: retain)
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
    var pollRequest: pollfd? { link.pollRequest }

    /// Reads and writes what `revents` allows.
    func serve(_ revents: Int16) {
        let now = monotonicSeconds()
        linkNow = now
        record(link.handle(revents, now: now), now: now)
    }

    func tick() {
        let now = monotonicSeconds()
        linkNow = now
        record(link.tick(now: now), now: now)
    }

    private func record(_ new: [MQTTEvent], now: Double) {
        while attemptsSeen < link.attempts {
            attemptsSeen += 1
            socketOpened.append(now)
        }
        for event in new {
            events.append((now, event))
            switch event {
            case .connectionLost, .refused:
                tap = MQTTDecoder(maximumPacketSize: Int.max)
            case .connected:
                onConnected?(self)
            default:
                break
            }
        }
        // What an onConnected subscription queued goes out now (a full socket: on POLLOUT).
        if link.session.hasOutput {
            let more = link.flush(now: now)
            if !more.isEmpty { record(more, now: now) }
        }
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
