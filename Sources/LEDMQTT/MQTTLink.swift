import Glibc
import LEDSystem

/// One `MQTTSession` on a non-blocking TCP socket, through the `LEDSystem` seam: the piece that
/// makes MQTT one more descriptor and one more deadline in the daemon's single poll(2) loop, in
/// the full build and the static Embedded one alike (no thread, no Dispatch, no libmosquitto).
///
/// The caller's loop, each turn: put `pollRequest` (if any) in its pollfd array and wait at most
/// until `nextDeadline`; hand the entry's `revents` to `handle(_:now:)`; call `tick(now:)`. Both
/// return the session's events; the link has already acted on the connection ones (closed the
/// socket on a loss, opened a new one when the reconnect is due). Publishing and subscribing go
/// through `session`; what they queue is written when the socket is writable, or at once by
/// `flush(now:)`.
///
/// How the socket is driven follows the kernel: a non-blocking TCP `connect` answers
/// `EINPROGRESS` (__inet_stream_connect in net/ipv4/af_inet.c) and its end is POLLOUT, with the
/// outcome in `SO_ERROR` (connect(2): "use getsockopt(2) to read the SO_ERROR option"); a refused
/// connect polls `POLLOUT | POLLERR | POLLHUP` (tcp_poll in net/ipv4/tcp.c). `TCP_NODELAY` is set,
/// as the keep-alive PINGREQ and the small state messages should not wait for Nagle (tcp(7)).
public final class MQTTLink {
    /// The MQTT rules: state, output, deadlines. Publish and subscribe through it.
    public var session: MQTTSession
    /// Where the broker listens: each connect attempt takes the next of these, in turn (a name
    /// with an IPv6 and an IPv4 address, or several brokers).
    public let brokers: [IPEndpoint]
    /// When false, a due reconnect is reported but no socket is opened.
    public var reconnects = true
    /// Called with every run of bytes written to the socket (a test's wire tap).
    public var onWrite: ((ArraySlice<UInt8>) -> Void)?
    /// The socket, while there is one.
    public private(set) var socket: Int32?
    /// The broker the current socket goes to.
    public private(set) var broker: IPEndpoint?
    /// How many sockets were opened.
    public private(set) var attempts = 0

    /// The most a wake reads, so a flood from the broker cannot hold up the loop's frames: the
    /// rest is read on the next turn (poll reports it again).
    public static let readsPerWake = 8

    private let system: any SystemCalls
    /// True from `connect` until the TCP handshake's end is known.
    private var handshaking = false
    private var buffer: [UInt8]

    /// `brokers` must not be empty (the caller resolves the name first).
    public init(brokers: [IPEndpoint], configuration: MQTTSessionConfiguration, system: any SystemCalls,
                readSize: Int = 65536) throws(MQTTEncodeError) {
        precondition(!brokers.isEmpty, "MQTTLink needs at least one broker address")
        self.brokers = brokers
        self.system = system
        session = try MQTTSession(configuration)
        buffer = [UInt8](repeating: 0, count: max(readSize, 1))
    }

    deinit { closeSocket() }

    /// Opens a socket to the next broker and starts the connection (CONNECT waits in the
    /// output until the handshake is done). A socket that cannot be made or a connect refused
    /// at once is a loss like any other: reported, and retried after the back-off.
    @discardableResult
    public func open(now: Double) -> [MQTTEvent] {
        closeSocket()
        let target = brokers[attempts % brokers.count]
        attempts += 1
        broker = target
        session.startConnection(now: now)
        let fd: Int32
        do {
            fd = try system.ipSocket(family: target.family, kind: .stream, flags: O_NONBLOCK)
        } catch {
            return lost("cannot open a socket for \(target): \(error)", now: now)
        }
        socket = fd
        // Not fatal: without it PINGREQ may wait up to 40 ms for an ACK (delayed ACK and Nagle).
        try? system.setSocketOption(fd, .noDelay, true)
        do {
            try system.connect(fd, to: target)
            handshaking = false
        } catch where error.rawValue == EINPROGRESS {
            handshaking = true
        } catch {
            return lost("cannot connect to \(target): \(error)", now: now)
        }
        return flush(now: now)
    }

    /// What to poll the socket for: reading always, writing while the handshake is under way or
    /// output waits. Nil without a socket.
    public var pollRequest: pollfd? {
        guard let socket else { return nil }
        let write = handshaking || session.hasOutput
        return pollfd(fd: socket, events: Int16(POLLIN) | (write ? Int16(POLLOUT) : 0), revents: 0)
    }

    /// When `tick` next has something to do (the CONNACK deadline, the keep-alive PINGREQ, the
    /// PINGRESP deadline, the reconnect); nil when nothing is timed, so an idle loop sleeps.
    public var nextDeadline: Double? { session.nextDeadline }

    /// Whether CONNACK has accepted the connection.
    public var isConnected: Bool { session.state == .connected }

    /// Acts on what poll reported for the socket.
    public func handle(_ revents: Int16, now: Double) -> [MQTTEvent] {
        guard let fd = socket, revents != 0 else { return [] }
        var events: [MQTTEvent] = []
        if handshaking {
            guard revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 else { return [] }
            do {
                if let failure = try system.socketError(fd) {
                    return lost("cannot connect to \(describe(broker)): \(failure)", now: now)
                }
            } catch {
                return lost("cannot connect to \(describe(broker)): \(error)", now: now)
            }
            if revents & Int16(POLLHUP) != 0 {
                return lost("cannot connect to \(describe(broker)): the connection was closed", now: now)
            }
            handshaking = false
        }
        if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            reading: for _ in 0..<Self.readsPerWake {
                guard socket == fd else { break }
                switch system.readAvailable(fd, into: &buffer) {
                case .data(let count):
                    events += act(on: session.receive(buffer[..<count], now: now), now: now)
                    if count < buffer.count { break reading }
                case .endOfFile:
                    events += lost("the broker closed the connection", now: now)
                    break reading
                case .wouldBlock:
                    break reading
                case .failed(let error):
                    events += lost("cannot read from \(describe(broker)): \(error)", now: now)
                    break reading
                }
            }
        }
        return events + flush(now: now)
    }

    /// Runs the session's timers; writes a PINGREQ it queued; opens the socket of a due reconnect.
    public func tick(now: Double) -> [MQTTEvent] {
        let events = act(on: session.tick(now: now), now: now)
        return events + flush(now: now)
    }

    /// Writes as much of the output as the socket takes now. After DISCONNECT has gone out the
    /// socket is closed (MQTT-3.14.4-1: the client closes the network connection).
    @discardableResult
    public func flush(now: Double) -> [MQTTEvent] {
        while let fd = socket, !handshaking, session.hasOutput {
            let pending = session.output
            switch system.sendAvailable(fd, pending, socket: true) {
            case .sent(count: 0):
                return []
            case .sent(let count):
                onWrite?(pending.prefix(count))
                session.didSend(count, now: now)
            case .failed(let error):
                return lost("cannot write to \(describe(broker)): \(error)", now: now)
            }
        }
        if socket != nil, !handshaking, session.state == .disconnecting, !session.hasOutput {
            closeSocket()
            return session.closed(reason: "closed after DISCONNECT", now: now)
        }
        return []
    }

    /// Leaves cleanly: DISCONNECT (so the broker discards the will) written now if the socket
    /// takes it, then the socket closed; no reconnect follows. What the socket did not take is
    /// dropped with it: a daemon that stops does not wait for a stalled broker.
    public func stop(now: Double) {
        session.disconnect()
        flush(now: now)
        if socket != nil {
            closeSocket()
            _ = session.closed(reason: "stopped", now: now)
        }
    }

    /// The socket closed without a word (a test's crash; the session reconnects later).
    public func dropConnection(now: Double) -> [MQTTEvent] {
        lost("the connection was dropped", now: now)
    }

    private func act(on events: [MQTTEvent], now: Double) -> [MQTTEvent] {
        var all: [MQTTEvent] = []
        for event in events {
            all.append(event)
            switch event {
            case .connectionLost, .refused:
                closeSocket()
            case .reconnectDue:
                if reconnects { all += open(now: now) }
            default:
                break
            }
        }
        return all
    }

    private func lost(_ reason: String, now: Double) -> [MQTTEvent] {
        closeSocket()
        return act(on: session.closed(reason: reason, now: now), now: now)
    }

    private func closeSocket() {
        if let socket { try? system.close(socket) }
        socket = nil
        handshaking = false
    }

    private func describe(_ endpoint: IPEndpoint?) -> String {
        endpoint.map { $0.description } ?? "the broker"
    }
}
