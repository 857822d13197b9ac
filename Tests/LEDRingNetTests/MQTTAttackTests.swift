import Foundation
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import LEDRingNetTesting
import Testing

/// Issue 14 on MQTT: retained commands, forged log lines, a slow return after an outage. Each
/// test runs its own broker on a loopback port; waits are bounded.
@Suite(.serialized)
struct MQTTAttackTests {
    @Test(arguments: BridgeKind.available) func retainedCommandsAreNotReplayedOnConnect(_ kind: BridgeKind) throws {
        let broker = try MosquittoBroker()
        // Left on the broker by someone (or a mistaken retain flag) before the bridge connects.
        try broker.publish("ledring/test/reset", "", retain: true)
        try broker.publish("ledring/test/power", "OFF", retain: true)
        try broker.publish("ledring/test/move/set", "0.9", retain: true)
        let log = MQTTBridgeTests.Log()
        let (bridge, control) = try MQTTBridgeTests.bridge(kind, broker, log: log)
        defer { bridge.stop() }
        // A live command after them arrives and is applied; the retained ones were dropped.
        try broker.publish("ledring/test/stand/set", "0.3")
        #expect(eventually { control.snapshot().ring(named: "stand")?.target == 0.3 })
        #expect(control.commands == [.set(["stand": 0.3])])
        #expect(log.contains("retained"))
        // State topics stay retained.
        #expect(eventually { (try? broker.retained("ledring/test/stand/state"))?.contains(#""value":0.3"#) == true })
    }

    @Test(arguments: BridgeKind.available) func payloadsCannotForgeLogLines(_ kind: BridgeKind) throws {
        let broker = try MosquittoBroker()
        let log = MQTTBridgeTests.Log()
        let (bridge, control) = try MQTTBridgeTests.bridge(kind, broker, log: log)
        defer { bridge.stop() }
        try broker.publish("ledring/test/spin", "nosuch\nledring: stopping on SIGTERM")
        try broker.publish("ledring/test/move/set", String(repeating: "9", count: 10_000))
        try broker.publish("ledring/test/stand/set", "0.3")
        #expect(eventually { control.snapshot().ring(named: "stand")?.target == 0.3 })
        let lines = log.lines.withLock { $0 }
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { !$0.contains("\n") && $0.count < 400 })
        #expect(lines.contains { $0.contains(#"\nledring: stopping"#) })
    }

    /// Issue 28: a message larger than anything the bridge reads is dropped before it is copied
    /// (a 100 MB publish peaked at 324 MB), said once, and the next command still works.
    @Test(arguments: BridgeKind.available) func anOversizedMessageIsDroppedUncopiedAndSaid(_ kind: BridgeKind) throws {
        let broker = try MosquittoBroker()
        let log = MQTTBridgeTests.Log()
        let (bridge, control) = try MQTTBridgeTests.bridge(kind, broker, log: log)
        defer { bridge.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-big-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "5"), count: 1 << 20).write(to: URL(fileURLWithPath: path))
        try broker.publish("ledring/test/move/set", file: path)
        try broker.publish("ledring/test/stand/set", "0.3")
        #expect(eventually { control.snapshot().ring(named: "stand")?.target == 0.3 })
        #expect(log.contains("a message of 1048576 bytes; at most 65536 are read"), "\(log.lines.withLock { $0 })")
        #expect(control.commands == [.set(["stand": 0.3])])
    }

    @Test(arguments: BridgeKind.available) func jsonErrorsSayWhereNotNSCocoaErrorDomain(_ kind: BridgeKind) throws {
        let broker = try MosquittoBroker()
        let log = MQTTBridgeTests.Log()
        let (bridge, control) = try MQTTBridgeTests.bridge(kind, broker, log: log)
        defer { bridge.stop() }
        try broker.publish("ledring/test/move/set", "{\"value\":\n0.5,,}")
        try broker.publish("ledring/test/move/set", #"{"value":1e309}"#)
        try broker.publish("ledring/test/stand/set", "0.3")
        #expect(eventually { control.snapshot().ring(named: "stand")?.target == 0.3 })
        let lines = log.lines.withLock { $0 }
        #expect(!lines.contains { $0.contains("NSCocoaErrorDomain") || $0.contains("DecodingError") })
        #expect(lines.contains { $0.contains("line 2, column 5") })
        #expect(lines.contains { $0.contains("1e309") })
    }

    @Test(arguments: BridgeKind.available) func aReturningBrokerIsFoundWithinSeconds(_ kind: BridgeKind) throws {
        #expect(MQTTSettings().reconnectMax <= 5)
        let broker = try MosquittoBroker()
        var settings = MQTTBridgeTests.settings(broker)
        settings.reconnectMax = MQTTSettings().reconnectMax
        let control = try RecordingRingControl()
        let bridge = try kind.start(settings: settings, control: control, log: { _ in })
        defer { bridge.stop() }
        #expect(eventually { bridge.isConnected })
        broker.kill()
        #expect(eventually { !bridge.isConnected })
        // An outage long enough for the backoff to reach its ceiling (1+2+4+8 s of waits).
        Thread.sleep(forTimeInterval: 16)
        try broker.start()
        #expect(eventually(within: 8) { bridge.isConnected && bridge.connectionCount == 2 })
    }
}
