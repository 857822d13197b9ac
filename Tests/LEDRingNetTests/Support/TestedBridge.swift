import Foundation
import LEDRingControl
@testable import LEDRingNet
import LEDSystem
import Synchronization
import Testing

/// The two MQTT bridges, so every broker test holds both to the same behaviour: libmosquitto's
/// (`MQTTBridge`, the full build) and ledring's own client on a poll loop (`MQTTLoopBridge`, the
/// static Embedded binaries).
enum BridgeKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case mosquitto
    case loop

    var testDescription: String { rawValue }

    /// The kinds this build can run: the loop bridge always, libmosquitto's when linked.
    static var available: [BridgeKind] { MQTTBridge.isAvailable ? [.mosquitto, .loop] : [.loop] }

    /// A started bridge of this kind.
    func start(settings: MQTTSettings, control: any RingControl, sourceTopics: [String] = [],
               onSource: (@Sendable (Int, [UInt8], Bool) -> Void)? = nil,
               log: @escaping @Sendable (String) -> Void) throws -> any TestedBridge {
        switch self {
        case .mosquitto:
            let bridge = MQTTBridge(settings: settings, control: control, sourceTopics: sourceTopics, onSource: onSource, log: log)
            try bridge.start()
            return bridge
        case .loop:
            return try LoopBridgeRunner(settings: settings, control: control, sourceTopics: sourceTopics,
                                        onSource: onSource ?? { _, _, _ in }, log: log)
        }
    }
}

/// What the broker tests ask of a bridge.
protocol TestedBridge: AnyObject, Sendable {
    var isConnected: Bool { get }
    var connectionCount: Int { get }
    func stop()
    func dropConnectionForTesting()
}

extension MQTTBridge: TestedBridge {}

/// An `MQTTLoopBridge` on a poll loop of its own thread, as the daemon runs it: poll its
/// descriptors until its deadline, handle, tick, and show the picture after each change of
/// `control`. The bridge is touched by that thread only; the test reads what it copies out.
final class LoopBridgeRunner: TestedBridge, @unchecked Sendable {
    private struct Shared {
        var connected = false
        var connects = 0
        var stop = false
        var drop = false
        var changed = true
        var finished = false
    }

    /// The state both threads see.
    private final class SharedBox: Sendable {
        let state = Mutex(Shared())
        func withLock<T>(_ body: (inout Shared) -> T) -> T { state.withLock { body(&$0) } }
    }

    private let shared = SharedBox()
    private let control: any RingControl
    private let observer: ObserverID

    init(settings: MQTTSettings, control: any RingControl, sourceTopics: [String],
         onSource: @escaping @Sendable (Int, [UInt8], Bool) -> Void, log: @escaping @Sendable (String) -> Void) throws {
        self.control = control
        let bridge = try MQTTLoopBridge(settings: settings, password: settings.passwordFile.flatMap { try? SecretFile.firstLine($0, trimming: false) },
                                        control: control, sourceTopics: sourceTopics, system: RetryingSystemCalls(LinuxSystemCalls()),
                                        onSource: onSource, log: log)
        let shared = self.shared
        observer = control.addObserver { _ in shared.withLock { $0.changed = true } }
        let box = Box(bridge)
        let thread = Thread { LoopBridgeRunner.run(box.bridge, shared) }
        thread.start()
    }

    private final class Box: @unchecked Sendable {
        let bridge: MQTTLoopBridge
        init(_ bridge: MQTTLoopBridge) { self.bridge = bridge }
    }

    private static func run(_ bridge: MQTTLoopBridge, _ shared: SharedBox) {
        bridge.start(now: MonotonicClock.seconds())
        while true {
            let (stop, drop, changed) = shared.withLock { s in
                defer { s.drop = false; s.changed = false }
                return (s.stop, s.drop, s.changed)
            }
            let now = MonotonicClock.seconds()
            if stop {
                bridge.stop(now: now)
                break
            }
            if drop { bridge.dropConnectionForTesting(now: now) }
            if changed { bridge.show(now: now) }
            var fds = bridge.pollRequests
            // At most 20 ms, so a change of `control` or a stop is seen soon.
            let wait = bridge.nextDeadline.map { max(0, min(20, Int32((($0 - now) * 1000).rounded(.up)))) } ?? 20
            _ = poll(&fds, nfds_t(fds.count), wait)
            bridge.handle(fds[...], now: MonotonicClock.seconds())
            bridge.tick(now: MonotonicClock.seconds())
            shared.withLock { s in
                s.connected = bridge.isConnected
                s.connects = bridge.connectionCount
            }
        }
        shared.withLock { s in
            s.connected = false
            s.finished = true
        }
    }

    var isConnected: Bool { shared.withLock { $0.connected } }
    var connectionCount: Int { shared.withLock { $0.connects } }

    /// Stops the bridge (offline, DISCONNECT) and waits for its thread.
    func stop() {
        control.removeObserver(observer)
        shared.withLock { $0.stop = true }
        while !shared.withLock({ $0.finished }) { usleep(5_000) }
    }

    func dropConnectionForTesting() { shared.withLock { $0.drop = true } }

    deinit { if !shared.withLock({ $0.finished }) { stop() } }
}
