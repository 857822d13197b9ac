import Foundation
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import Testing
import LEDRingNetTesting

/// Whether the TLS tests run: they need libmosquitto, `mosquitto`, `mosquitto_pub`/`mosquitto_sub`
/// and `openssl`. Without them they are skipped on a developer's machine but fail in CI
/// (CI=true), which installs them all. A build without libmosquitto has no TLS to test, in CI too
/// (CI also builds that variant: tools/bare-build-check.sh).
private let tlsTestsEnabled = MQTTBridge.isAvailable
    && (ProcessInfo.processInfo.environment["CI"] == "true"
        || ((try? MosquittoBroker.program("mosquitto", package: "mosquitto")) != nil
            && (try? MosquittoBroker.program("mosquitto_pub", package: "mosquitto-clients")) != nil
            && (try? ThrowawayCA.openssl()) != nil))

/// The bridge over TLS to a real Mosquitto broker on a free loopback port, with a CA and
/// certificates made for the test by `openssl`.
@Suite(.serialized, .enabled(if: tlsTestsEnabled,
                             "needs libmosquitto (`sudo apt install libmosquitto-dev`, rebuild), `sudo apt install mosquitto mosquitto-clients openssl`"))
struct MQTTTLSTests {
    typealias Log = MQTTBridgeTests.Log

    /// Starts a bridge on `broker` with `tls` (not waiting for it to connect).
    static func bridge(_ broker: MosquittoBroker, tls: MQTTSettings.TLS, log: Log) throws -> (MQTTBridge, RecordingRingControl) {
        var settings = MQTTBridgeTests.settings(broker)
        settings.tls = tls
        let control = try RecordingRingControl()
        let bridge = MQTTBridge(settings: settings, control: control, log: log.add)
        try bridge.start()
        return (bridge, control)
    }

    /// A `set` published by another TLS client reaches the rings, and the state comes back retained.
    static func checkSetRoundTrip(_ broker: MosquittoBroker, _ bridge: MQTTBridge, _ control: RecordingRingControl, log: Log) throws {
        #expect(eventually { bridge.isConnected }, "no TLS connection to port \(broker.port): \(log.lines.withLock { $0 })")
        try broker.publish("ledring/test/move/set", "0.5")
        #expect(eventually { control.snapshot().ring(named: "move")?.target == 0.5 })
        #expect(eventually { (try? broker.retained("ledring/test/move/state"))?.contains(#""percent":50"#) == true })
        #expect(try broker.retained("ledring/test/availability") == "online")
    }

    @Test func setAndStateOverTLS() throws {
        let ca = try ThrowawayCA()
        let broker = try MosquittoBroker(tls: .init(caFile: ca.certificate, server: try ca.server()))
        let log = Log()
        let (bridge, control) = try Self.bridge(broker, tls: .init(caFile: ca.certificate), log: log)
        defer { bridge.stop() }
        try Self.checkSetRoundTrip(broker, bridge, control, log: log)
    }

    @Test func clientCertificateWhenTheBrokerRequiresOne() throws {
        let ca = try ThrowawayCA()
        let broker = try MosquittoBroker(tls: .init(caFile: ca.certificate, server: try ca.server(),
                                                    requireCertificate: true, client: try ca.client("test publisher")))
        let ledring = try ca.client("ledring-test")
        let log = Log()
        let (bridge, control) = try Self.bridge(broker, tls: .init(caFile: ca.certificate, certFile: ledring.certificate,
                                                                   keyFile: ledring.key), log: log)
        defer { bridge.stop() }
        try Self.checkSetRoundTrip(broker, bridge, control, log: log)
    }

    /// Failed attempts logged so far (each says why and that it retries).
    static func failures(_ log: Log) -> [String] {
        log.lines.withLock { $0 }.filter { $0.contains("retrying") }
    }

    @Test func aBrokerSignedByAnotherCAIsNotTrusted() throws {
        let ca = try ThrowawayCA()
        let stranger = try ThrowawayCA(name: "ledring stranger CA")
        let broker = try MosquittoBroker(tls: .init(caFile: ca.certificate, server: try ca.server()))
        // The broker itself is fine: a client trusting the right CA gets through.
        try broker.publish("ledring/test/probe", "hello")
        let log = Log()
        let (bridge, _) = try Self.bridge(broker, tls: .init(caFile: stranger.certificate), log: log)
        defer { bridge.stop() }
        // Two failed attempts (the retry fails too), and never a connection.
        #expect(eventually { Self.failures(log).count >= 2 }, "no failure logged: \(log.lines.withLock { $0 })")
        #expect(!bridge.isConnected && bridge.connectionCount == 0)
        // Each says why (OpenSSL's reason, not only libmosquitto's "A TLS error occurred") and
        // which file to look at.
        let failures = Self.failures(log)
        #expect(failures.allSatisfy { $0.contains("TLS") && $0.contains("certificate verify failed") && $0.contains(stranger.certificate) },
                "\(failures)")
    }

    @Test func withoutAClientCertificateTheBrokerRefusesUs() throws {
        let ca = try ThrowawayCA()
        let broker = try MosquittoBroker(tls: .init(caFile: ca.certificate, server: try ca.server(),
                                                    requireCertificate: true, client: try ca.client()))
        let log = Log()
        let (bridge, _) = try Self.bridge(broker, tls: .init(caFile: ca.certificate), log: log)
        defer { bridge.stop() }
        // The broker's alert, not only libmosquitto's "The connection was lost". Not on every
        // attempt: when the broker hangs up before libmosquitto has sent CONNECT, the failed write
        // leaves only "Protocol error" (EPROTO) and no OpenSSL reason; the next attempt says it.
        #expect(eventually { Self.failures(log).count >= 2 && Self.failures(log).contains { $0.contains("certificate required") } },
                "no failure naming the missing certificate: \(log.lines.withLock { $0 })")
        #expect(!bridge.isConnected && bridge.connectionCount == 0)
    }

    @Test func unreadableTLSFilesStopTheStart() throws {
        var settings = MQTTSettings()
        settings.tls = .init(caFile: "/nonexistent/ledring-ca.pem")
        let bridge = MQTTBridge(settings: settings, control: try RecordingRingControl(), log: { _ in })
        #expect {
            try bridge.start()
        } throws: { error in
            "\(error)".contains("/nonexistent/ledring-ca.pem")
        }
    }
}
