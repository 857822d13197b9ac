import LEDMQTT
import Testing

/// The packets in `bytes` (what a session wrote), decoded as a broker would read them.
func packets(_ bytes: [UInt8]) -> [MQTTPacket] {
    var decoder = MQTTDecoder(maximumPacketSize: Int.max)
    decoder.feed(bytes)
    var found: [MQTTPacket] = []
    while let next = try? decoder.next() {
        if case let .packet(packet) = next { found.append(packet) }
    }
    return found
}

/// The session's rules, on a clock the test moves by hand: keep-alive 30 s, CONNACK within 5 s,
/// PINGRESP within 4 s, reconnects 1 s doubling to 60 s.
@Suite struct MQTTSessionTests {
    static let connack = hex("20 02 00 00")
    static let pingreq = hex("C0 00")
    static let pingresp = hex("D0 00")

    static func session(keepAlive: UInt16 = 30, will: MQTTWill? = nil) throws -> MQTTSession {
        try MQTTSession(MQTTSessionConfiguration(
            connect: MQTTConnectOptions(clientId: "ledring", keepAlive: keepAlive, will: will),
            connackTimeout: 5, pingTimeout: 4, reconnectMin: 1, reconnectMax: 60))
    }

    /// Connects at `now`: CONNECT written at once, CONNACK read at once.
    static func connected(at now: Double = 100, keepAlive: UInt16 = 30) throws -> MQTTSession {
        var session = try session(keepAlive: keepAlive)
        session.startConnection(now: now)
        _ = session.takeOutput(now: now)
        #expect(session.receive(connack, now: now) == [.connected(sessionPresent: false)])
        return session
    }

    @Test func startingQueuesConnectAndSetsTheConnackDeadline() throws {
        var session = try Self.session(will: MQTTWill(topic: "ledring/availability", payload: utf8("offline"), qos: .atLeastOnce, retain: true))
        #expect(session.state == .idle && session.nextDeadline == nil && !session.hasOutput)
        let attempt = session.startConnection(now: 7)
        #expect(attempt.connackDeadline == 12)
        #expect(session.nextDeadline == 12)
        #expect(Array(session.output) == attempt.bytes)
        // Clean session, will QoS 1 retained: 0x02 | 0x04 | 0x08 | 0x20 = 0x2E; keep-alive 30 = 00 1E.
        #expect(Array(attempt.bytes.prefix(12)) == hex("10 32 00 04 4D 51 54 54 04 2E 00 1E"))
        #expect(packets(attempt.bytes) == [.connect(session.configuration.connect)])
        #expect(session.state == .connecting)
    }

    @Test func noConnackInTimeLosesTheConnection() throws {
        var session = try Self.session()
        session.startConnection(now: 100)
        _ = session.takeOutput(now: 100)
        #expect(session.tick(now: 104.999) == [])
        #expect(session.tick(now: 105) == [.connectionLost(.connackTimeout(milliseconds: 5000))])
        #expect(session.state == .waitingToReconnect && session.reconnectAt == 106 && !session.hasOutput)
        // A CONNACK that comes after the loss is not read: the socket is to be closed.
        #expect(session.receive(Self.connack, now: 105.5) == [])
    }

    /// §3.1.2.10: PINGREQ when nothing has been sent for keep-alive seconds, exactly then.
    @Test func thePingIsDueExactlyWhenNothingWasSentForKeepAlive() throws {
        var session = try Self.connected(at: 100)
        #expect(session.nextDeadline == 130)
        #expect(session.tick(now: 129.999) == [] && !session.hasOutput)
        #expect(session.tick(now: 130) == [])
        #expect(session.takeOutput(now: 130) == Self.pingreq)
        // Waiting for PINGRESP: no second PINGREQ, the deadline is the PINGRESP's.
        #expect(session.nextDeadline == 134)
        #expect(session.tick(now: 133) == [] && !session.hasOutput)
        #expect(session.receive(Self.pingresp, now: 131) == [])
        #expect(session.nextDeadline == 160)
    }

    /// What is received does not count: a broker that keeps sending still gets PINGREQs.
    @Test func receivingDoesNotPostponeThePing() throws {
        var session = try Self.connected(at: 100)
        for t in stride(from: 105.0, through: 129.0, by: 6) {
            #expect(session.receive(hex("30 07 00 03 61 2F 62 68 69"), now: t) == [.message(topic: "a/b", payload: utf8("hi"), retain: false)])
            #expect(session.tick(now: t) == [])
        }
        #expect(session.nextDeadline == 130)
        _ = session.tick(now: 130)
        #expect(session.takeOutput(now: 130) == Self.pingreq)
    }

    /// Whatever is written restarts the interval: a publish postpones the ping; a packet queued but
    /// not yet written does not.
    @Test func aPublishPostponesThePing() throws {
        var session = try Self.connected(at: 100)
        try session.publish(topic: "a/b", payload: utf8("hi"))
        _ = session.takeOutput(now: 110)
        #expect(session.nextDeadline == 140)
        #expect(session.tick(now: 130) == [] && !session.hasOutput)
        try session.publish(topic: "a/b", payload: utf8("hi"), qos: .atLeastOnce)
        #expect(session.nextDeadline == 140)  // queued at 120, not yet written
        session.didSend(3, now: 125)  // part of it went out at 125
        #expect(session.nextDeadline == 155)
        session.didSend(100, now: 126)
        #expect(session.nextDeadline == 156 && !session.hasOutput)
        #expect(session.tick(now: 155.5) == [] && !session.hasOutput)
        _ = session.tick(now: 156)
        #expect(session.takeOutput(now: 156) == Self.pingreq)
    }

    @Test func aLatePingrespLosesTheConnection() throws {
        var session = try Self.connected(at: 100)
        _ = session.tick(now: 130)
        _ = session.takeOutput(now: 130)
        #expect(session.tick(now: 133.999) == [])
        #expect(session.tick(now: 134) == [.connectionLost(.pingTimeout(milliseconds: 4000))])
        #expect(session.state == .waitingToReconnect && session.reconnectAt == 135)
        // A PINGRESP in time keeps it, however many intervals.
        session = try Self.connected(at: 100)
        var t = 100.0
        for _ in 0..<5 {
            t += 30
            #expect(session.nextDeadline == t)
            _ = session.tick(now: t)
            #expect(session.takeOutput(now: t) == Self.pingreq)
            #expect(session.tick(now: t + 3.9) == [])
            _ = session.receive(Self.pingresp, now: t + 3.9)
        }
        #expect(session.state == .connected)
    }

    @Test func noKeepAliveMeansNoPing() throws {
        var session = try Self.connected(at: 100, keepAlive: 0)
        #expect(session.nextDeadline == nil)
        #expect(session.tick(now: 1_000_000) == [] && !session.hasOutput)
    }

    /// 1 s after the first failure, doubling to 60 s, and back to 1 s after a CONNACK.
    @Test func reconnectsBackOffAndCONNACKResetsTheDelay() throws {
        var session = try Self.connected(at: 100)
        #expect(session.closed(reason: "connection reset by peer", now: 110) == [.connectionLost(.transport("connection reset by peer"))])
        var failedAt = 110.0
        var waits: [Double] = []
        for attempt in 0..<9 {
            let due = try #require(session.reconnectAt)
            waits.append(due - failedAt)
            #expect(session.nextDeadline == due)
            #expect(session.tick(now: due - 0.001) == [])
            #expect(session.tick(now: due) == [.reconnectDue])
            #expect(session.state == .reconnectDue && session.nextDeadline == nil)
            // Alternately a TCP connect that fails and a CONNACK that never comes.
            if attempt % 2 == 0 {
                failedAt = due + 0.25
                #expect(session.closed(reason: "connection refused", now: failedAt) == [.connectionLost(.transport("connection refused"))])
            } else {
                session.startConnection(now: due)
                failedAt = due + 5
                #expect(session.tick(now: failedAt).count == 1)
            }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        session.startConnection(now: 1000)
        #expect(session.receive(Self.connack, now: 1000) == [.connected(sessionPresent: false)])
        #expect(session.reconnectDelay == 1)
        _ = session.closed(reason: "gone", now: 1010)
        #expect(session.reconnectAt == 1011)
    }

    @Test func aRefusedConnectionIsReportedAndRetried() throws {
        var session = try Self.session()
        session.startConnection(now: 100)
        #expect(session.receive(hex("20 02 00 05"), now: 100.5) == [.refused(.notAuthorized)])
        #expect(session.state == .waitingToReconnect && session.reconnectAt == 101.5 && !session.hasOutput)
        #expect(session.reconnectDelay == 2)
    }

    /// MQTT-4.4.0-1 and MQTT-3.3.1-1: an unacknowledged QoS 1 message goes again after a
    /// reconnect, with its packet identifier and DUP set; one never sent goes without DUP.
    @Test func qos1MessagesAreResentWithDUPAfterAReconnect() throws {
        var session = try Self.connected(at: 100)
        let first = try session.publish(topic: "a/b", payload: utf8("hi"), qos: .atLeastOnce, retain: true)
        #expect(first == 1)
        // §3.3.1: QoS 1 retained = 0x33; 2 + 3 + 2 + 2 = 9.
        #expect(session.takeOutput(now: 101) == hex("33 09 00 03 61 2F 62 00 01 68 69"))
        #expect(session.closed(reason: "reset", now: 102).count == 1)
        let second = try session.publish(topic: "c", payload: [], qos: .atLeastOnce)
        #expect(second == 2 && session.inFlightCount == 2 && !session.hasOutput)
        #expect(session.tick(now: 103) == [.reconnectDue])
        let attempt = session.startConnection(now: 103)
        #expect(session.takeOutput(now: 103) == attempt.bytes)
        #expect(session.receive(Self.connack, now: 103.1) == [.connected(sessionPresent: false)])
        // The same bytes with DUP (0x08) set: 0x3B. The unsent one has no DUP: 0x32.
        #expect(session.takeOutput(now: 103.1) == hex("3B 09 00 03 61 2F 62 00 01 68 69") + hex("32 05 00 01 63 00 02"))
        #expect(session.receive(hex("40 02 00 01"), now: 103.2) == [.published(packetId: 1)])
        #expect(session.inFlightCount == 1)
        // A PUBACK for an id not in flight is ignored.
        #expect(session.receive(hex("40 02 00 01"), now: 103.3) == [])
        // Lost again: the second one was sent this time, so it goes with DUP.
        _ = session.closed(reason: "reset", now: 104)
        _ = session.tick(now: 106)
        session.startConnection(now: 106)
        _ = session.takeOutput(now: 106)
        _ = session.receive(Self.connack, now: 106)
        #expect(packets(session.takeOutput(now: 106)) == [.publish(MQTTPublish(topic: "c", payload: [], qos: .atLeastOnce, dup: true, packetId: 2))])
        #expect(session.receive(hex("40 02 00 02"), now: 106.1) == [.published(packetId: 2)])
        #expect(session.inFlightCount == 0)
    }

    @Test func incomingQoS1IsAcknowledged() throws {
        var session = try Self.connected()
        let events = session.receive(hex("33 09 00 03 61 2F 62 12 34 68 69"), now: 101)
        #expect(events == [.message(topic: "a/b", payload: utf8("hi"), retain: true)])
        #expect(session.takeOutput(now: 101) == hex("40 02 12 34"))
        // QoS 2 was never asked for (MQTT-3.8.4-6): a broker that sends it is broken.
        #expect(session.receive(hex("34 07 00 03 61 2F 62 00 05"), now: 102) == [.connectionLost(.unexpectedPacket("PUBLISH at QoS 2"))])
    }

    @Test func anOversizedMessageIsDroppedAndStillAcknowledged() throws {
        var session = try MQTTSession(MQTTSessionConfiguration(connect: MQTTConnectOptions(clientId: "c"), maximumPacketSize: 64))
        session.startConnection(now: 0)
        _ = session.takeOutput(now: 0)
        _ = session.receive(Self.connack, now: 0)
        let big = hex("32 CF 01 00 03 62 69 67 00 07") + [UInt8](repeating: 0x42, count: 200)
        var events: [MQTTEvent] = []
        for start in stride(from: 0, to: big.count, by: 50) { events += session.receive(big[start..<min(start + 50, big.count)], now: 1) }
        events += session.receive(hex("30 03 00 01 74"), now: 1)
        // 210 bytes of packet: 3 of fixed header, 5 of topic, 2 of packet id, 200 of payload.
        #expect(events == [.oversized(topic: "big", bytes: 200), .message(topic: "t", payload: [], retain: false)])
        #expect(session.takeOutput(now: 1) == hex("40 02 00 07"))
    }

    @Test func subscribeAndUnsubscribe() throws {
        var session = try Self.connected()
        let id = try session.subscribe([MQTTSubscription("a/b", qos: .atLeastOnce), MQTTSubscription("c/#")])
        #expect(session.takeOutput(now: 101) == hex("82 0E 00 01 00 03 61 2F 62 01 00 03 63 2F 23 00"))
        #expect(id == 1)
        #expect(session.receive(hex("90 04 00 01 01 80"), now: 101) == [.subscribed(packetId: 1, results: [.granted(.atLeastOnce), .failure])])
        let gone = try session.unsubscribe(["c/#"])
        #expect(session.takeOutput(now: 102) == hex("A2 07 00 02 00 03 63 2F 23"))
        #expect(session.receive(hex("B0 02 00 02"), now: 102) == [.unsubscribed(packetId: gone)])
        #expect(throws: MQTTSessionError.unsupportedQoS) { try session.subscribe([MQTTSubscription("x", qos: .exactlyOnce)]) }
        #expect(throws: MQTTSessionError.invalid(.invalidFilter("a#"))) { try session.subscribe([MQTTSubscription("a#")]) }
    }

    @Test func whatIsRefusedWhenNotConnected() throws {
        var session = try Self.session()
        #expect(throws: MQTTSessionError.notConnected) { try session.publish(topic: "a", payload: []) }
        #expect(throws: MQTTSessionError.notConnected) { try session.subscribe([MQTTSubscription("a")]) }
        #expect(throws: MQTTSessionError.unsupportedQoS) { try session.publish(topic: "a", payload: [], qos: .exactlyOnce) }
        #expect(throws: MQTTSessionError.invalid(.wildcardInTopic(field: "PUBLISH topic", topic: "a/+"))) {
            try session.publish(topic: "a/+", payload: [], qos: .atLeastOnce)
        }
        // QoS 1 is kept for the connection to come.
        #expect(try session.publish(topic: "a", payload: [], qos: .atLeastOnce) == 1)
        #expect(!session.hasOutput && session.inFlightCount == 1)
        session.startConnection(now: 0)
        _ = session.takeOutput(now: 0)
        _ = session.receive(Self.connack, now: 0)
        #expect(session.takeOutput(now: 0) == hex("32 05 00 01 61 00 01"))
    }

    @Test func theInFlightLimitHolds() throws {
        var session = try MQTTSession(MQTTSessionConfiguration(connect: MQTTConnectOptions(clientId: "c"), maximumInFlight: 2))
        try session.publish(topic: "a", payload: [], qos: .atLeastOnce)
        try session.publish(topic: "a", payload: [], qos: .atLeastOnce)
        #expect(throws: MQTTSessionError.tooManyInFlight(limit: 2)) { try session.publish(topic: "a", payload: [], qos: .atLeastOnce) }
    }

    /// DISCONNECT goes after what was queued, then nothing: no reconnect, no timers.
    @Test func disconnectSendsDisconnectLastAndStays() throws {
        var session = try Self.connected()
        try session.publish(topic: "a", payload: utf8("offline"), retain: true)
        session.disconnect()
        #expect(session.takeOutput(now: 101) == hex("31 0A 00 01 61 6F 66 66 6C 69 6E 65") + hex("E0 00"))
        #expect(session.state == .disconnecting && session.nextDeadline == nil)
        #expect(throws: MQTTSessionError.notConnected) { try session.publish(topic: "a", payload: []) }
        #expect(session.closed(reason: "closed", now: 101) == [])
        #expect(session.state == .idle && session.reconnectAt == nil && session.tick(now: 10_000) == [])
    }

    @Test func aBrokerBreakingTheProtocolLosesTheConnection() throws {
        var session = try Self.session()
        session.startConnection(now: 0)
        // MQTT-3.2.0-1: CONNACK first.
        #expect(session.receive(Self.pingresp, now: 0) == [.connectionLost(.unexpectedPacket("PINGRESP"))])
        session = try Self.connected()
        #expect(session.receive(hex("20 02 00 00"), now: 101) == [.connectionLost(.unexpectedPacket("CONNACK"))])
        session = try Self.connected()
        #expect(session.receive(hex("30 FF FF FF FF 01"), now: 101) == [.connectionLost(.malformed(.malformedRemainingLength))])
        // Packets before the bad one in the same chunk still count.
        session = try Self.connected()
        let events = session.receive(hex("30 03 00 01 74") + hex("41 02 00 01"), now: 101)
        #expect(events == [.message(topic: "t", payload: [], retain: false), .connectionLost(.malformed(.invalidFlags(packet: "PUBACK", flags: 1)))])
    }

    /// CONNACK and what follows it in the same chunk are all read.
    @Test func connackAndMessagesInOneChunk() throws {
        var session = try Self.session()
        session.startConnection(now: 0)
        let events = session.receive(Self.connack + hex("30 03 00 01 74") + Self.pingresp, now: 0)
        #expect(events == [.connected(sessionPresent: false), .message(topic: "t", payload: [], retain: false)])
    }
}
