import Glibc
import LEDMQTT
import LEDRingNetTesting
import Testing

private let inCI = getenv("CI").map { String(cString: $0) } == "true"
private let mosquittoInstalled = (try? MosquittoBroker.program("mosquitto", package: "mosquitto")) != nil
    && (try? MosquittoBroker.program("mosquitto_sub", package: "mosquitto-clients")) != nil

/// LEDMQTT's session against a real Mosquitto broker on a free loopback port, each client on its
/// own non-blocking socket in one poll(2) loop (Support/PollDriver.swift). Skipped without
/// `mosquitto` on a developer's machine; in CI (CI=true, which installs it) they run and fail
/// without it. Serialized: several of them measure keep-alive seconds, which a busy machine
/// running them side by side would blur.
@Suite(.serialized, .enabled(if: mosquittoInstalled || inCI,
                             "needs Mosquitto: `sudo apt install mosquitto mosquitto-clients` (CI=true makes these tests fail without it)"))
struct MQTTBrokerInteropTests {
    /// A client that subscribes to `filters` at QoS 1 on every connect.
    static func subscriber(_ name: String, _ broker: MosquittoBroker, _ filters: [String], maximumPacketSize: Int = 1 << 20) throws -> PollClient {
        let client = try PollClient(name, port: broker.port, PollClient.configuration(name, maximumPacketSize: maximumPacketSize))
        client.onConnected = { client in
            _ = try? client.session.subscribe(filters.map { MQTTSubscription($0, qos: .atLeastOnce) })
        }
        return client
    }

    static func isSubscribed(_ client: PollClient) -> Bool {
        client.count { if case .subscribed = $0 { return true } else { return false } } > 0
    }

    static func connect(_ clients: [PollClient]) {
        for client in clients { client.open() }
        let ok = runLoop(clients, within: 10) {
            clients.allSatisfy { $0.isConnected && ($0.onConnected == nil || isSubscribed($0)) }
        }
        #expect(ok, "not connected and subscribed: \(clients.map { "\($0.name): \($0.events.map { $0.event })" })")
    }

    @Test func qos0AndQoS1ReachASecondSession() throws {
        let broker = try MosquittoBroker()
        let receiver = try Self.subscriber("receiver", broker, ["t/#"])
        let sender = try PollClient("sender", port: broker.port, PollClient.configuration("sender"))
        Self.connect([receiver, sender])
        #expect(receiver.events.contains { $0.event == .subscribed(packetId: 1, results: [.granted(.atLeastOnce)]) })
        _ = try sender.publish("t/zero", utf8("at most once"))
        let id = try sender.publish("t/one", utf8("at least once"), qos: .atLeastOnce)
        #expect(runLoop([receiver, sender], within: 10) { receiver.messages.count == 2 && sender.acknowledged(id) })
        let got = receiver.messages.map { "\($0.topic)=\(String(decoding: $0.payload, as: UTF8.self)) retain \($0.retain)" }
        #expect(got == ["t/zero=at most once retain false", "t/one=at least once retain false"])
        #expect(sender.session.inFlightCount == 0)
        // The receiver acknowledged the QoS 1 delivery it got (the broker would send it again).
        #expect(receiver.written.contains { if case .puback = $0.packet { return true } else { return false } })
    }

    @Test func aRetainedMessageReachesALateSubscriber() throws {
        let broker = try MosquittoBroker()
        let sender = try PollClient("sender", port: broker.port, PollClient.configuration("sender"))
        Self.connect([sender])
        let id = try sender.publish("t/retained", utf8("kept"), qos: .atLeastOnce, retain: true)
        #expect(runLoop([sender], within: 10) { sender.acknowledged(id) })
        sender.disconnect()
        runLoop([sender], within: 5) { sender.session.state == .idle }
        // Mosquitto's own client sees it too (our encoding, their decoding).
        #expect(try broker.retained("t/retained") == "kept")
        let late = try Self.subscriber("late", broker, ["t/#"])
        Self.connect([late])
        #expect(runLoop([late], within: 10) { !late.messages.isEmpty })
        #expect(late.messages.first.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self)) \($0.retain)" } == "t/retained kept true")
    }

    /// MQTT-3.1.2-8: the will goes out when the connection ends without DISCONNECT;
    /// MQTT-3.1.2-10: DISCONNECT discards it.
    @Test func theWillIsPublishedOnAnAbruptCloseAndNotAfterDisconnect() throws {
        let broker = try MosquittoBroker()
        let watcher = try Self.subscriber("watcher", broker, ["t/will/#"])
        let crashing = try PollClient("crashing", port: broker.port, PollClient.configuration(
            "crashing", will: MQTTWill(topic: "t/will/crashing", payload: utf8("offline"), qos: .atLeastOnce, retain: true)))
        let leaving = try PollClient("leaving", port: broker.port, PollClient.configuration(
            "leaving", will: MQTTWill(topic: "t/will/leaving", payload: utf8("offline"), qos: .atLeastOnce, retain: true)))
        crashing.reconnects = false
        Self.connect([watcher, crashing, leaving])

        leaving.disconnect()
        #expect(runLoop([watcher, leaving], within: 5) { leaving.session.state == .idle })
        #expect(leaving.written.last?.packet == .disconnect)
        crashing.closeSocket()
        #expect(runLoop([watcher], within: 10) { !watcher.messages.isEmpty }, "no will after the socket was closed")
        // Wait a while longer for a will from the client that left cleanly: none comes.
        runLoop([watcher], within: 1.5)
        #expect(watcher.messages.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" } == ["t/will/crashing offline"])
        #expect(try broker.retainedMessages("t/will/#") == ["t/will/crashing": "offline"])
    }

    /// keepAlive 1 s: the broker drops a client silent for 1.5 s (MQTT-3.1.2-24), so holding the
    /// connection for several intervals takes a PINGREQ each second; while messages go out, none.
    @Test func keepAliveHoldsTheConnectionForSeveralIntervals() throws {
        let broker = try MosquittoBroker()
        let client = try PollClient("pinger", port: broker.port, PollClient.configuration("pinger", keepAlive: 1))
        Self.connect([client])
        let start = monotonicSeconds()
        runLoop([client], within: 4.5)
        #expect(client.losses.isEmpty, "\(client.losses)")
        #expect(client.isConnected && client.connects == 1)
        let pings = client.written.filter { $0.packet == .pingreq && $0.time >= start }.map { $0.time }
        #expect((3...5).contains(pings.count), "PINGREQ at \(pings.map { $0 - start })")
        for (earlier, later) in zip(pings, pings.dropFirst()) {
            #expect(later - earlier >= 0.999 && later - earlier < 1.3, "PINGREQs \(later - earlier) s apart")
        }
        // A message every 0.4 s is traffic enough: no PINGREQ for 2.5 s.
        let busy = monotonicSeconds()
        var next = busy
        runLoop([client], within: 2.5) {
            if monotonicSeconds() >= next {
                _ = try? client.publish("t/busy", utf8("x"))
                next += 0.4
            }
            return false
        }
        #expect(!client.written.contains { $0.packet == .pingreq && $0.time > busy + 0.01 })
        #expect(client.isConnected && client.losses.isEmpty)
    }

    /// A broker killed (SIGKILL) and started again on its port: the session reports the loss,
    /// retries with growing delays while nothing listens, reconnects, and sends the QoS 1
    /// message the dead broker never acknowledged again, with DUP and its packet id.
    @Test func aRestartedBrokerGetsTheUnacknowledgedMessageAgain() throws {
        let broker = try MosquittoBroker()
        let client = try PollClient("restarting", port: broker.port, PollClient.configuration("restarting", reconnectMin: 0.2, reconnectMax: 1.6))
        Self.connect([client])
        // A stopped broker takes the bytes into its socket but never answers: no PUBACK.
        broker.send(SIGSTOP)
        let id = try client.publish("t/restart", utf8("resent"), qos: .atLeastOnce, retain: true)
        let sent = MQTTPacket.publish(MQTTPublish(topic: "t/restart", payload: utf8("resent"), qos: .atLeastOnce, retain: true, packetId: id))
        #expect(runLoop([client], within: 5) { client.written.contains { $0.packet == sent } })
        broker.kill()
        #expect(runLoop([client], within: 5) { !client.losses.isEmpty })
        let lostAt = monotonicSeconds()
        // Nothing listens for a while: each attempt is refused, the delay doubles.
        runLoop([client], within: 2)
        try broker.start()
        #expect(runLoop([client], within: 10) { client.connects == 2 && client.acknowledged(id) })
        let resent = MQTTPacket.publish(MQTTPublish(topic: "t/restart", payload: utf8("resent"), qos: .atLeastOnce, retain: true, dup: true, packetId: id))
        #expect(client.written.contains { $0.packet == resent }, "\(client.written.map { $0.packet })")
        #expect(client.session.inFlightCount == 0 && client.session.reconnectDelay == 0.2)
        let attempts = client.socketOpened.filter { $0 > lostAt - 0.1 }
        let gaps = zip(attempts, attempts.dropFirst()).map { $1 - $0 }
        #expect(attempts.count >= 3, "attempts after the loss: \(attempts.map { $0 - lostAt })")
        // Each wait at least the doubled delay (0.2, 0.4, 0.8 s …): lower bounds only, which a
        // loaded machine cannot break (it can only make a wait longer).
        for (index, gap) in gaps.enumerated() {
            #expect(gap >= min(0.2 * Double(1 << index), 1.6) - 0.02, "gaps \(gaps)")
        }
        #expect(try broker.retained("t/restart") == "resent")
    }

    @Test func a256KiBMessageGoesThroughAndAnOversizedOneIsSkipped() throws {
        let broker = try MosquittoBroker()
        let large = try Self.subscriber("large", broker, ["t/big", "t/after"], maximumPacketSize: 512 * 1024)
        let small = try Self.subscriber("small", broker, ["t/big", "t/after"], maximumPacketSize: 64 * 1024)
        let sender = try PollClient("sender", port: broker.port, PollClient.configuration("sender"))
        Self.connect([large, small, sender])
        let payload = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let id = try sender.publish("t/big", payload, qos: .atLeastOnce)
        _ = try sender.publish("t/after", utf8("after"), qos: .atLeastOnce)
        let all = [large, small, sender]
        #expect(runLoop(all, within: 15) { large.messages.count == 2 && small.messages.count == 1 && sender.session.inFlightCount == 0 })
        #expect(large.messages.first?.topic == "t/big" && large.messages.first?.payload == payload)
        #expect(sender.acknowledged(id))
        // The payload's size, not the packet's 262,157 (1 + 3 of remaining length + 2 + 5 of
        // topic + 2 of packet id + 262,144).
        #expect(small.events.filter { if case .oversized = $0.event { return true } else { return false } }.map { $0.event }
                == [.oversized(topic: "t/big", bytes: 262_144)])
        #expect(small.messages.map { $0.topic } == ["t/after"])
        // It acknowledged the message it dropped, so the broker does not send it again.
        #expect(small.written.filter { if case .puback = $0.packet { return true } else { return false } }.count == 2)
        runLoop(all, within: 0.5)
        #expect(small.messages.count == 1 && large.messages.count == 2 && small.losses.isEmpty)
    }

    /// A broker that stops answering (SIGSTOP) keeps the TCP connection open: only the missing
    /// PINGRESP tells. keepAlive 1 s, PINGRESP within 1 s: lost about 2 s after it stalled.
    @Test func aStalledBrokerIsNoticedByTheMissingPingresp() throws {
        let broker = try MosquittoBroker()
        let client = try PollClient("stalled", port: broker.port, PollClient.configuration("stalled", keepAlive: 1, connackTimeout: 1, pingTimeout: 1))
        Self.connect([client])
        broker.send(SIGSTOP)
        var resumed = false
        defer { if !resumed { broker.send(SIGCONT) } }
        let stalled = monotonicSeconds()
        #expect(runLoop([client], within: 6) { !client.losses.isEmpty })
        let loss = try #require(client.losses.first)
        #expect(loss.reason == .pingTimeout(milliseconds: 1000))
        // At most keepAlive until the PINGREQ, then the ping timeout (plus slack for a loaded machine;
        // a TCP timeout would take minutes).
        #expect(loss.time - stalled > 0.99 && loss.time - stalled < 4, "lost \(loss.time - stalled) s after the stall")
        let ping = client.written.last { $0.packet == .pingreq }
        #expect(ping.map { loss.time - $0.time } ?? 0 >= 0.999)
        broker.send(SIGCONT)
        resumed = true
        #expect(runLoop([client], within: 10) { client.connects == 2 }, "\(client.events.map { $0.event })")
    }
}
