import Glibc
import LEDMQTT
import LEDRingTesting
import LEDSystem
import Testing

/// `MQTTLink` against the fake kernel's TCP, whose connect, poll and SO_ERROR answer as Linux's
/// do (TCPSemanticsTests holds them to the real kernel); the test plays the broker on the
/// accepted end. What the real broker does with it is MQTTBrokerInteropTests' part.
struct MQTTLinkTests {
    static let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]

    final class Rig {
        let fake = FakeSystemCalls()
        let listener: Int32
        let port: UInt16
        let link: MQTTLink
        var events: [MQTTEvent] = []
        var now = 100.0

        init(listening: Bool = true, brokers: [IPEndpoint]? = nil, keepAlive: UInt16 = 30) throws {
            listener = fake.addListeningIPSocket(.loopback(port: 0))
            port = fake.boundEndpoint(listener)!.port
            if !listening { fake.clientClose(listener) }
            let configuration = MQTTSessionConfiguration(
                connect: MQTTConnectOptions(clientId: "ring", keepAlive: keepAlive),
                connackTimeout: 5, reconnectMin: 1, reconnectMax: 8)
            link = try MQTTLink(brokers: brokers ?? [.loopback(port: port)], configuration: configuration, system: fake)
        }

        /// One turn of the daemon's loop: poll what the link asks for, hand it the answer, tick.
        func turn() throws {
            var fds = link.pollRequest.map { [$0] } ?? []
            if !fds.isEmpty, try fake.poll(&fds, timeout: 0) > 0 {
                events += link.handle(fds[0].revents, now: now)
            }
            events += link.tick(now: now)
        }

        /// The broker's end of the link's connection, accepted.
        func accept() throws -> Int32 {
            try #require(fake.acceptClient(listener))
        }

        func connected(opened: Bool = false) throws -> Int32 {
            if !opened { events += link.open(now: now) }
            let broker = try accept()
            try turn()  // the handshake ends: CONNECT goes out
            let connect = fake.clientReceiveBytes(broker)
            #expect(connect.first == 0x10, "CONNECT first: \(connect)")
            fake.clientSend(broker, bytes: MQTTLinkTests.connack)
            try turn()
            #expect(link.isConnected)
            return broker
        }

        var losses: [String] {
            events.compactMap { if case let .connectionLost(loss) = $0 { return loss.description } else { return nil } }
        }
    }

    @Test func connectsWritesConnectOnceTheHandshakeEndsAndSetsNoDelay() throws {
        let rig = try Rig()
        rig.events += rig.link.open(now: rig.now)
        // Non-blocking connect: EINPROGRESS, so the link waits for POLLOUT before CONNECT.
        let request = try #require(rig.link.pollRequest)
        #expect(request.events & Int16(POLLOUT) != 0)
        #expect(!rig.fake.calls.contains { if case .send = $0 { return true } else { return false } })
        let socket = try #require(rig.link.socket)
        #expect(rig.fake.calls.contains { $0 == .setSocketOption(fd: socket, option: .noDelay, on: true) })
        let broker = try rig.connected(opened: true)
        #expect(rig.events == [.connected(sessionPresent: false)])
        #expect(rig.fake.calls.contains { $0 == .socketError(fd: socket) }, "the handshake's outcome is read from SO_ERROR")
        // Connected and quiet: only reading is asked for, and the next wake is the keep-alive.
        #expect(rig.link.pollRequest?.events == Int16(POLLIN))
        #expect(rig.link.nextDeadline == rig.now + 30)
        _ = broker
    }

    @Test func aRefusedConnectIsALossWithItsErrnoAndTheSocketIsClosed() throws {
        let rig = try Rig(listening: false)
        rig.events += rig.link.open(now: rig.now)
        let socket = try #require(rig.link.socket)
        try rig.turn()
        #expect(rig.losses.count == 1)
        #expect(rig.losses.first?.contains("cannot connect to 127.0.0.1:\(rig.port)") == true, "\(rig.losses)")
        #expect(rig.losses.first?.contains("\(Errno(rawValue: ECONNREFUSED))") == true, "\(rig.losses)")
        #expect(rig.link.socket == nil && !rig.fake.openEndpoints.contains(socket))
        // The back-off is a deadline: nothing to poll, one wake at reconnectMin.
        #expect(rig.link.pollRequest == nil)
        #expect(rig.link.nextDeadline == rig.now + 1)
        rig.now += 1
        try rig.turn()
        #expect(rig.events.last == .reconnectDue && rig.link.attempts == 2 && rig.link.socket != nil)
    }

    @Test func aSocketThatCannotBeMadeIsRetriedAfterTheBackOff() throws {
        let rig = try Rig()
        rig.fake.fail(.ipSocket, with: Errno(rawValue: EMFILE))
        rig.events += rig.link.open(now: rig.now)
        #expect(rig.link.socket == nil)
        #expect(rig.losses == ["cannot open a socket for 127.0.0.1:\(rig.port): \(Errno(rawValue: EMFILE))"])
        rig.now += 1
        try rig.turn()
        let broker = try rig.accept()
        try rig.turn()
        rig.fake.clientSend(broker, bytes: MQTTLinkTests.connack)
        try rig.turn()
        #expect(rig.link.isConnected)
    }

    /// A name with two addresses (or two brokers): a refused first address gives way to the
    /// second on the next attempt.
    @Test func eachAttemptTakesTheNextAddress() throws {
        let fake = FakeSystemCalls()
        let listener = fake.addListeningIPSocket(.loopback(port: 0))
        let port = try #require(fake.boundEndpoint(listener)).port
        let nobody = IPEndpoint(numeric: "127.0.0.2", port: port)!
        let link = try MQTTLink(brokers: [nobody, .loopback(port: port)], configuration: MQTTSessionConfiguration(
            connect: MQTTConnectOptions(clientId: "ring"), reconnectMin: 1, reconnectMax: 8), system: fake)
        var events = link.open(now: 0)
        var fds = [try #require(link.pollRequest)]
        _ = try fake.poll(&fds, timeout: 0)
        events += link.handle(fds[0].revents, now: 0)
        #expect(link.broker == nobody && link.socket == nil)
        events += link.tick(now: 1)
        #expect(link.broker == .loopback(port: port) && link.attempts == 2)
        #expect(fake.acceptClient(listener) != nil)
        #expect(events.count == 2, "\(events)")
    }

    @Test func aResetByTheBrokerClosesTheSocketAndReconnects() throws {
        let rig = try Rig()
        let broker = try rig.connected()
        let socket = try #require(rig.link.socket)
        rig.fake.clientReset(broker)
        try rig.turn()
        #expect(rig.losses == ["cannot read from 127.0.0.1:\(rig.port): \(Errno(rawValue: ECONNRESET))"])
        #expect(!rig.fake.openEndpoints.contains(socket))
        rig.now += 1
        try rig.turn()
        let second = try rig.accept()
        try rig.turn()
        #expect(rig.fake.clientReceiveBytes(second).first == 0x10)
    }

    @Test func aWriteTheKernelRefusesIsALoss() throws {
        let rig = try Rig()
        _ = try rig.connected()
        let sends = rig.fake.calls.filter { $0.syscall == .send }.count
        rig.fake.fail(.send, with: Errno(rawValue: EPIPE), onCall: sends + 1)
        _ = try rig.link.session.publish(topic: "ledring/state", payload: Array("on".utf8))
        try rig.turn()
        #expect(rig.losses == ["cannot write to 127.0.0.1:\(rig.port): \(Errno(rawValue: EPIPE))"])
        #expect(rig.link.socket == nil)
    }

    @Test func theKeepAlivePingIsWrittenAtItsDeadlineAndNotBefore() throws {
        let rig = try Rig(keepAlive: 10)
        let broker = try rig.connected()
        rig.now += 9.9
        try rig.turn()
        #expect(rig.fake.clientReceiveBytes(broker).isEmpty)
        rig.now += 0.1
        try rig.turn()
        #expect(rig.fake.clientReceiveBytes(broker) == [0xC0, 0x00])
        #expect(rig.link.nextDeadline == rig.now + 10, "the PINGRESP deadline (the keep-alive)")
        rig.fake.clientSend(broker, bytes: [0xD0, 0x00])
        try rig.turn()
        #expect(rig.link.nextDeadline == rig.now + 10)
        #expect(rig.losses.isEmpty)
    }

    @Test func stopWritesDisconnectAndClosesWithoutReconnecting() throws {
        let rig = try Rig()
        let broker = try rig.connected()
        let socket = try #require(rig.link.socket)
        rig.link.stop(now: rig.now)
        #expect(rig.fake.clientReceiveBytes(broker) == [0xE0, 0x00])
        #expect(rig.link.socket == nil && !rig.fake.openEndpoints.contains(socket))
        #expect(rig.link.nextDeadline == nil && rig.link.session.state == .idle)
    }

    @Test func aMessageLargerThanOneReadArrivesWhole() throws {
        let rig = try Rig()
        let broker = try rig.connected()
        _ = try rig.link.session.subscribe([MQTTSubscription("t/#")])
        try rig.turn()
        _ = rig.fake.clientReceiveBytes(broker)
        let payload = [UInt8](repeating: 0x5A, count: 200_000)
        let packet = try MQTTEncoder.encode(.publish(MQTTPublish(topic: "t/big", payload: payload)))
        rig.fake.clientSend(broker, bytes: packet)
        for _ in 0..<4 { try rig.turn() }
        #expect(rig.events.contains(.message(topic: "t/big", payload: payload, retain: false)))
    }
}
