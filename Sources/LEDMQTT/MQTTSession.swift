/// How an `MQTTSession` connects and keeps its connection. Times are seconds.
public struct MQTTSessionConfiguration: Sendable, Equatable {
    /// What CONNECT says: client id, clean session, keep-alive, will, user name, password.
    public var connect: MQTTConnectOptions
    /// How long to wait for CONNACK after `startConnection` (which the caller may call while its
    /// TCP connect is still under way, so this bounds that too).
    public var connackTimeout: Double
    /// How long to wait for PINGRESP after queueing PINGREQ before the connection counts as
    /// lost (§3.1.2.10: "a reasonable amount of time"); nil: the keep-alive interval itself.
    public var pingTimeout: Double?
    /// The first reconnect delay, and the delay again after every CONNACK that accepts us.
    public var reconnectMin: Double
    /// The most the delay grows to (it doubles after every failed attempt).
    public var reconnectMax: Double
    /// The largest incoming packet decoded (fixed header included); larger ones are skipped
    /// without being buffered and reported as `.oversized` (a QoS 1 one is still acknowledged).
    public var maximumPacketSize: Int
    /// The most QoS 1 messages kept waiting for PUBACK; `publish` refuses more.
    public var maximumInFlight: Int

    public init(connect: MQTTConnectOptions, connackTimeout: Double = 10, pingTimeout: Double? = nil,
                reconnectMin: Double = 1, reconnectMax: Double = 60, maximumPacketSize: Int = 1 << 20,
                maximumInFlight: Int = 1000) {
        self.connect = connect
        self.connackTimeout = connackTimeout
        self.pingTimeout = pingTimeout
        self.reconnectMin = reconnectMin
        self.reconnectMax = max(reconnectMin, reconnectMax)
        self.maximumPacketSize = maximumPacketSize
        self.maximumInFlight = maximumInFlight
    }
}

/// Why a connection ended (the caller closes its socket on `.connectionLost`).
public enum MQTTConnectionLoss: Sendable, Equatable, CustomStringConvertible {
    /// The caller said its connection ended or could not be made (`closed(reason:now:)`).
    case transport(String)
    /// No CONNACK within `connackTimeout` (milliseconds).
    case connackTimeout(milliseconds: Int)
    /// No PINGRESP within the ping timeout (milliseconds).
    case pingTimeout(milliseconds: Int)
    /// The broker's bytes are not MQTT 3.1.1.
    case malformed(MQTTDecodeError)
    /// The broker sent a packet it may not send to this client now (its name).
    case unexpectedPacket(String)

    public var description: String {
        switch self {
        case let .transport(reason): return reason
        case let .connackTimeout(ms): return "the broker did not answer CONNECT within \(ms) ms"
        case let .pingTimeout(ms): return "the broker did not answer PINGREQ within \(ms) ms"
        case let .malformed(error): return "the broker sent a malformed packet: \(error.description)"
        case let .unexpectedPacket(name): return "the broker sent \(name), which a broker may not send a client here (MQTT 3.1.1 §3)"
        }
    }
}

/// What happened, as the session's caller needs to know it.
public enum MQTTEvent: Sendable, Equatable {
    /// CONNACK accepted the connection. Subscribe now: with clean session the broker has
    /// forgotten earlier subscriptions. Unacknowledged QoS 1 messages have been queued again.
    case connected(sessionPresent: Bool)
    /// CONNACK refused the connection. Close the socket; a reconnect is scheduled.
    case refused(MQTTConnectReturnCode)
    /// A message on a subscribed topic (a QoS 1 one has been acknowledged).
    case message(topic: String, payload: [UInt8], retain: Bool)
    /// A message over `maximumPacketSize` was dropped unread (a QoS 1 one acknowledged); `bytes`
    /// is its payload's size (what was published), or the packet's when that cannot be told.
    case oversized(topic: String?, bytes: Int)
    /// SUBACK: the broker's answer for each filter of the SUBSCRIBE `packetId`.
    case subscribed(packetId: UInt16, results: [MQTTSubscribeResult])
    /// UNSUBACK for the UNSUBSCRIBE `packetId`.
    case unsubscribed(packetId: UInt16)
    /// PUBACK: the QoS 1 message `packetId` reached the broker and is forgotten.
    case published(packetId: UInt16)
    /// The connection is gone. Close the socket; a reconnect is scheduled (see `reconnectAt`).
    case connectionLost(MQTTConnectionLoss)
    /// The reconnect delay has passed: open a new socket and call `startConnection`.
    case reconnectDue
}

/// Why `publish`, `subscribe` or `unsubscribe` refused.
public enum MQTTSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not connected: QoS 0 messages, subscriptions and unsubscriptions are sent only on a live
    /// connection (QoS 1 messages are kept for the next one).
    case notConnected
    /// The packet breaks a rule of the spec.
    case invalid(MQTTEncodeError)
    /// QoS 2 is not supported.
    case unsupportedQoS
    /// `maximumInFlight` QoS 1 messages already wait for PUBACK.
    case tooManyInFlight(limit: Int)

    public var description: String {
        switch self {
        case .notConnected: return "not connected to the MQTT broker"
        case let .invalid(error): return error.description
        case .unsupportedQoS: return "QoS 2 is not supported; use QoS 0 or 1"
        case let .tooManyInFlight(limit): return "\(limit) QoS 1 messages already wait for the broker's PUBACK; try again when some are acknowledged"
        }
    }
}

/// What `startConnection` started.
public struct MQTTConnectAttempt: Sendable, Equatable {
    /// The CONNECT packet, already queued in the session's output.
    public var bytes: [UInt8]
    /// When the attempt fails if no CONNACK came (`tick` reports it).
    public var connackDeadline: Double
}

/// An MQTT 3.1.1 client connection without I/O: the caller owns the socket and the clock.
///
/// The caller's poll loop:
/// 1. Open a non-blocking TCP socket and start connecting; call `startConnection(now:)` at once
///    (CONNECT waits in the output until the socket is writable).
/// 2. Poll the socket for reading, and for writing while `hasOutput`; time out at `nextDeadline`.
/// 3. Write `output` and report what went with `didSend(_:now:)` (or use `takeOutput(now:)`).
/// 4. Hand what was read to `receive(_:now:)`; call `tick(now:)` after every poll.
/// 5. Act on the events. `.connectionLost` and `.refused`: close the socket. `.reconnectDue`: back
///    to 1. A read of 0 bytes or a socket error: `closed(reason:now:)`, then close the socket.
/// 6. To leave: `disconnect()`, write the output (DISCONNECT last), close, `closed(reason:now:)`.
public struct MQTTSession: Sendable {
    /// Where the session is.
    public enum State: Sendable, Equatable {
        /// No connection and none scheduled (before the first `startConnection`, after `disconnect`).
        case idle
        /// CONNECT queued or sent, no CONNACK yet.
        case connecting
        /// CONNACK accepted us.
        case connected
        /// DISCONNECT queued: write the output, then close.
        case disconnecting
        /// Lost; `.reconnectDue` comes at `reconnectAt`.
        case waitingToReconnect
        /// `.reconnectDue` was reported: the caller is to open a socket and call `startConnection`.
        case reconnectDue
    }

    private struct InFlight: Sendable {
        var message: MQTTPublish
        /// Whether it was queued on some connection (then a resend has DUP set, MQTT-3.3.1-1).
        var sent: Bool
    }

    public let configuration: MQTTSessionConfiguration
    public private(set) var state: State = .idle
    /// The delay the next failure will wait before `.reconnectDue`.
    public private(set) var reconnectDelay: Double
    /// When `.reconnectDue` comes, while `waitingToReconnect`.
    public private(set) var reconnectAt: Double?

    private let connectBytes: [UInt8]
    private var decoder: MQTTDecoder
    private var out: [UInt8] = []
    private var outStart = 0
    private var connackDeadline: Double?
    /// When bytes last went to the socket (§3.1.2.10 counts what the client sends).
    private var lastSent: Double = 0
    /// When PINGRESP is due, while a PINGREQ waits for one.
    private var pingrespDeadline: Double?
    private var inFlight: [InFlight] = []
    private var pendingSubscribes: [UInt16] = []
    private var pendingUnsubscribes: [UInt16] = []
    private var lastPacketId: UInt16 = 0

    /// Checks the CONNECT options once (client id, will topic, user name and password), so
    /// connecting itself cannot fail.
    public init(_ configuration: MQTTSessionConfiguration) throws(MQTTEncodeError) {
        self.configuration = configuration
        connectBytes = try MQTTEncoder.encode(.connect(configuration.connect))
        decoder = MQTTDecoder(maximumPacketSize: configuration.maximumPacketSize)
        reconnectDelay = configuration.reconnectMin
    }

    private var keepAlive: Double { Double(configuration.connect.keepAlive) }
    private var pingTimeout: Double { configuration.pingTimeout ?? keepAlive }

    // MARK: Output

    /// The bytes waiting to be written, oldest first.
    public var output: ArraySlice<UInt8> { out[outStart...] }
    /// Whether bytes wait to be written (poll for POLLOUT).
    public var hasOutput: Bool { outStart < out.count }

    /// The caller wrote the first `count` bytes of `output` at `now`.
    public mutating func didSend(_ count: Int, now: Double) {
        let sent = min(max(count, 0), out.count - outStart)
        guard sent > 0 else { return }
        outStart += sent
        lastSent = now
        if outStart == out.count {
            if out.capacity > 65536 { out = [] } else { out.removeAll(keepingCapacity: true) }
            outStart = 0
        } else if outStart >= 65536 && outStart * 2 >= out.count {
            out.removeFirst(outStart)
            outStart = 0
        }
    }

    /// All of `output`, counted as written at `now`.
    public mutating func takeOutput(now: Double) -> [UInt8] {
        let bytes = Array(output)
        didSend(bytes.count, now: now)
        return bytes
    }

    private mutating func queue(_ bytes: [UInt8]) {
        out.append(contentsOf: bytes)
    }

    // MARK: Connection

    /// Starts a connection on a new socket (any earlier one is forgotten): queues CONNECT and
    /// returns it with the CONNACK deadline.
    @discardableResult
    public mutating func startConnection(now: Double) -> MQTTConnectAttempt {
        resetConnection()
        state = .connecting
        reconnectAt = nil
        lastSent = now
        let deadline = now + configuration.connackTimeout
        connackDeadline = deadline
        queue(connectBytes)
        return MQTTConnectAttempt(bytes: connectBytes, connackDeadline: deadline)
    }

    /// The caller's connection ended (EOF, an error, a TCP connect that failed). Reports
    /// `.connectionLost` and schedules a reconnect, unless the session had already let go of it
    /// (after `disconnect`, or after it reported the loss itself).
    public mutating func closed(reason: String, now: Double) -> [MQTTEvent] {
        switch state {
        case .connecting, .connected:
            return [lose(.transport(reason), now: now)]
        case .disconnecting:
            resetConnection()
            state = .idle
            return []
        case .reconnectDue:
            // The socket opened for the reconnect failed before `startConnection`.
            return [lose(.transport(reason), now: now)]
        case .idle, .waitingToReconnect:
            return []
        }
    }

    /// Leaves cleanly: queues DISCONNECT (after anything already queued) so the broker discards
    /// the will (MQTT-3.1.2-10). Write the output, then close the socket. No reconnect follows.
    public mutating func disconnect() {
        switch state {
        case .connecting, .connected:
            queue(MQTTEncoder.disconnectBytes)
            state = .disconnecting
            connackDeadline = nil
            pingrespDeadline = nil
        case .disconnecting:
            break
        case .idle, .waitingToReconnect, .reconnectDue:
            resetConnection()
            state = .idle
        }
        reconnectAt = nil
    }

    /// The earliest time `tick` has something to do: the CONNACK deadline, the keep-alive
    /// PINGREQ (keepAlive after the last bytes sent), the PINGRESP deadline, or `reconnectAt`.
    public var nextDeadline: Double? {
        switch state {
        case .connecting:
            return connackDeadline
        case .connected:
            if let pingrespDeadline { return pingrespDeadline }
            return keepAlive > 0 ? lastSent + keepAlive : nil
        case .waitingToReconnect:
            return reconnectAt
        case .idle, .disconnecting, .reconnectDue:
            return nil
        }
    }

    /// Runs the timers due at `now`.
    public mutating func tick(now: Double) -> [MQTTEvent] {
        switch state {
        case .connecting:
            if let connackDeadline, now >= connackDeadline {
                return [lose(.connackTimeout(milliseconds: Self.milliseconds(configuration.connackTimeout)), now: now)]
            }
        case .connected:
            if let pingrespDeadline {
                if now >= pingrespDeadline {
                    return [lose(.pingTimeout(milliseconds: Self.milliseconds(pingTimeout)), now: now)]
                }
            } else if keepAlive > 0 && now >= lastSent + keepAlive {
                // §3.1.2.10: nothing sent for the keep-alive interval, so send PINGREQ (MQTT-3.1.2-23).
                queue(MQTTEncoder.pingreqBytes)
                pingrespDeadline = now + pingTimeout
            }
        case .waitingToReconnect:
            if let reconnectAt, now >= reconnectAt {
                self.reconnectAt = nil
                state = .reconnectDue
                return [.reconnectDue]
            }
        case .idle, .disconnecting, .reconnectDue:
            break
        }
        return []
    }

    /// Hands the session bytes read from the socket; returns what they meant.
    public mutating func receive(_ bytes: [UInt8], now: Double) -> [MQTTEvent] {
        receive(bytes[...], now: now)
    }

    /// Hands the session bytes read from the socket; returns what they meant.
    public mutating func receive(_ bytes: ArraySlice<UInt8>, now: Double) -> [MQTTEvent] {
        guard state == .connecting || state == .connected else { return [] }
        decoder.feed(bytes)
        var events: [MQTTEvent] = []
        while state == .connecting || state == .connected {
            let decoded: MQTTDecoded?
            do throws(MQTTDecodeError) {
                decoded = try decoder.next()
            } catch {
                events.append(lose(.malformed(error), now: now))
                break
            }
            guard let decoded else { break }
            switch decoded {
            case let .packet(packet): handle(packet, now: now, into: &events)
            case let .oversized(report): handle(report, now: now, into: &events)
            }
        }
        return events
    }

    private mutating func handle(_ packet: MQTTPacket, now: Double, into events: inout [MQTTEvent]) {
        if state == .connecting {
            // MQTT-3.2.0-1: the broker's first packet is CONNACK.
            guard case let .connack(sessionPresent, code) = packet else {
                events.append(lose(.unexpectedPacket(MQTTPacket.name(ofType: packet.typeCode)), now: now))
                return
            }
            guard code == .accepted else {
                _ = lose(.transport(code.reason), now: now)
                events.append(.refused(code))
                return
            }
            state = .connected
            connackDeadline = nil
            reconnectDelay = configuration.reconnectMin
            events.append(.connected(sessionPresent: sessionPresent))
            // MQTT-4.4.0-1: unacknowledged messages again, in their order, with their ids, DUP
            // on those that went out before (MQTT-3.3.1-1).
            for index in inFlight.indices {
                inFlight[index].message.dup = inFlight[index].sent
                inFlight[index].sent = true
                if let bytes = Self.encoded(inFlight[index].message) { queue(bytes) }
            }
            return
        }
        switch packet {
        case let .publish(message):
            switch message.qos {
            case .atMostOnce:
                break
            case .atLeastOnce:
                // §4.3.2: PUBACK, then the message is ours.
                if let id = message.packetId, let bytes = Self.encoded(.puback(packetId: id)) { queue(bytes) }
            case .exactlyOnce:
                // Never subscribed above QoS 1, so the broker may not send QoS 2 (MQTT-3.8.4-6).
                events.append(lose(.unexpectedPacket("PUBLISH at QoS 2"), now: now))
                return
            }
            events.append(.message(topic: message.topic, payload: message.payload, retain: message.retain))
        case let .puback(id):
            if let index = inFlight.firstIndex(where: { $0.message.packetId == id }) {
                inFlight.remove(at: index)
                events.append(.published(packetId: id))
            }
        case let .suback(id, results):
            if let index = pendingSubscribes.firstIndex(of: id) {
                pendingSubscribes.remove(at: index)
                events.append(.subscribed(packetId: id, results: results))
            }
        case let .unsuback(id):
            if let index = pendingUnsubscribes.firstIndex(of: id) {
                pendingUnsubscribes.remove(at: index)
                events.append(.unsubscribed(packetId: id))
            }
        case .pingresp:
            pingrespDeadline = nil
        case .connect, .connack, .pubrec, .pubrel, .pubcomp, .subscribe, .unsubscribe, .pingreq, .disconnect:
            events.append(lose(.unexpectedPacket(MQTTPacket.name(ofType: packet.typeCode)), now: now))
        }
    }

    private mutating func handle(_ report: MQTTOversizedPacket, now: Double, into events: inout [MQTTEvent]) {
        guard state == .connected, report.type == 3, report.qos != .exactlyOnce else {
            events.append(lose(.unexpectedPacket("an oversized " + MQTTPacket.name(ofType: report.type)), now: now))
            return
        }
        if report.qos == .atLeastOnce, let id = report.packetId, let bytes = Self.encoded(.puback(packetId: id)) { queue(bytes) }
        events.append(.oversized(topic: report.topic, bytes: report.payloadSize ?? report.size))
    }

    /// Gives up on the connection: forgets its bytes and timers, keeps the QoS 1 messages, and
    /// schedules a reconnect after the current delay, doubling it for next time.
    private mutating func lose(_ reason: MQTTConnectionLoss, now: Double) -> MQTTEvent {
        resetConnection()
        state = .waitingToReconnect
        reconnectAt = now + reconnectDelay
        reconnectDelay = min(reconnectDelay * 2, configuration.reconnectMax)
        return .connectionLost(reason)
    }

    private mutating func resetConnection() {
        decoder = MQTTDecoder(maximumPacketSize: configuration.maximumPacketSize)
        out = []
        outStart = 0
        connackDeadline = nil
        pingrespDeadline = nil
        // With clean session the broker forgets them; no SUBACK will come.
        pendingSubscribes = []
        pendingUnsubscribes = []
    }

    // MARK: Publish and subscribe

    /// The QoS 1 messages waiting for PUBACK (including those not yet sent).
    public var inFlightCount: Int { inFlight.count }

    /// Publishes a message. QoS 0 goes out now or not at all (throws `.notConnected`). QoS 1 is
    /// kept until PUBACK, across reconnects: queued now when connected, else on the next CONNACK;
    /// returns its packet identifier.
    @discardableResult
    public mutating func publish(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce,
                                 retain: Bool = false) throws(MQTTSessionError) -> UInt16? {
        switch qos {
        case .atMostOnce:
            guard state == .connected else { throw .notConnected }
            let bytes: [UInt8]
            do throws(MQTTEncodeError) {
                bytes = try MQTTEncoder.encode(.publish(MQTTPublish(topic: topic, payload: payload, retain: retain)))
            } catch { throw .invalid(error) }
            queue(bytes)
            return nil
        case .atLeastOnce:
            guard state != .disconnecting else { throw .notConnected }
            guard inFlight.count < configuration.maximumInFlight else { throw .tooManyInFlight(limit: configuration.maximumInFlight) }
            let before = lastPacketId
            let id = allocatePacketId()
            let message = MQTTPublish(topic: topic, payload: payload, qos: .atLeastOnce, retain: retain, packetId: id)
            let bytes: [UInt8]
            do throws(MQTTEncodeError) { bytes = try MQTTEncoder.encode(.publish(message)) } catch {
                lastPacketId = before  // the id was not used
                throw .invalid(error)
            }
            let live = state == .connected
            inFlight.append(InFlight(message: message, sent: live))
            if live { queue(bytes) }
            return id
        case .exactlyOnce:
            throw .unsupportedQoS
        }
    }

    /// Sends SUBSCRIBE (QoS 0 or 1 per filter); `.subscribed` with its identifier follows.
    @discardableResult
    public mutating func subscribe(_ subscriptions: [MQTTSubscription]) throws(MQTTSessionError) -> UInt16 {
        guard state == .connected else { throw .notConnected }
        guard !subscriptions.contains(where: { $0.qos == .exactlyOnce }) else { throw .unsupportedQoS }
        let before = lastPacketId
        let id = allocatePacketId()
        let bytes: [UInt8]
        do throws(MQTTEncodeError) {
            bytes = try MQTTEncoder.encode(.subscribe(packetId: id, subscriptions: subscriptions))
        } catch {
            lastPacketId = before
            throw .invalid(error)
        }
        pendingSubscribes.append(id)
        queue(bytes)
        return id
    }

    /// Sends UNSUBSCRIBE; `.unsubscribed` with its identifier follows.
    @discardableResult
    public mutating func unsubscribe(_ filters: [String]) throws(MQTTSessionError) -> UInt16 {
        guard state == .connected else { throw .notConnected }
        let before = lastPacketId
        let id = allocatePacketId()
        let bytes: [UInt8]
        do throws(MQTTEncodeError) { bytes = try MQTTEncoder.encode(.unsubscribe(packetId: id, filters: filters)) } catch {
            lastPacketId = before
            throw .invalid(error)
        }
        pendingUnsubscribes.append(id)
        queue(bytes)
        return id
    }

    /// The next identifier 1–65535 not used by a message or (un)subscription in flight.
    private mutating func allocatePacketId() -> UInt16 {
        while true {
            lastPacketId = lastPacketId == UInt16.max ? 1 : lastPacketId + 1
            let id = lastPacketId
            if inFlight.contains(where: { $0.message.packetId == id }) || pendingSubscribes.contains(id) || pendingUnsubscribes.contains(id) {
                continue
            }
            return id
        }
    }

    private static func encoded(_ message: MQTTPublish) -> [UInt8]? { encoded(.publish(message)) }

    /// Packets the session builds from checked parts (a PUBLISH checked when `publish` took it, a
    /// PUBACK for the non-zero id the decoder read), so they encode; were one not to, it is not
    /// sent (the broker sends an unacknowledged message again), never a crash.
    private static func encoded(_ packet: MQTTPacket) -> [UInt8]? {
        do throws(MQTTEncodeError) { return try MQTTEncoder.encode(packet) } catch { return nil }
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}
