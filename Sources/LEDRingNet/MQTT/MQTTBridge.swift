// Threads and locks: the full build's front ends. The Embedded build has neither; its daemon
// runs the network on its poll loop instead.
#if !hasFeature(Embedded)
import LEDRingControl
import LEDSystem
import Synchronization

/// Rings on MQTT (libmosquitto): commands in, retained state out, availability by last will,
/// a group prefix shared by many devices, and Home Assistant discovery. Reconnects with
/// exponential backoff for ever; on every connect it resubscribes and republishes availability,
/// discovery and every state, so a restarted broker (which may have lost retained messages)
/// ends up knowing what is shown. Bad payloads are logged and ignored.
///
/// Built without libmosquitto, `start()` throws `.unavailable` naming the package to install.
public final class MQTTBridge: Sendable {
    /// Whether this build has libmosquitto (false: `start()` throws `.unavailable`).
    public static var isAvailable: Bool {
        #if LEDRING_MQTT
        return true
        #else
        return false
        #endif
    }

    /// The settings it was made with.
    public let settings: MQTTSettings
    /// The rings it drives.
    public let control: any RingControl
    /// Its topics.
    public let topics: MQTTTopics
    /// Topic filters whose messages are data for the daemon's sources (the config's `sources`
    /// with `mqtt`), not commands: each message goes to `onSource` with the filter's index and
    /// whether it was retained (the state as it was, replayed on subscribing, not news).
    public let sourceTopics: [String]
    let onSource: (@Sendable (Int, [UInt8], Bool) -> Void)?
    let log: @Sendable (String) -> Void

    /// The rules: what to subscribe, publish and submit (shared with `MQTTLoopBridge`).
    private let core: Mutex<MQTTBridgeCore>
    /// Watches the rings while started.
    private let observer = Mutex<ObserverID?>(nil)
    /// libmosquitto's error messages since the connection thread last took them: the reasons
    /// (OpenSSL's "certificate verify failed", an unloadable key) that its return codes lack.
    private let libraryErrors = Mutex<[String]>([])
    #if LEDRING_MQTT
    private let client = Mutex<MosquittoClient?>(nil)
    #endif

    /// A bridge between `control` and the broker in `settings`; nothing happens until `start()`.
    public init(settings: MQTTSettings, control: any RingControl, sourceTopics: [String] = [],
                formerRetained: [String] = [],
                onSource: (@Sendable (Int, [UInt8], Bool) -> Void)? = nil,
                log: @escaping @Sendable (String) -> Void = { StandardError.write("ledring mqtt: " + $0 + "\n") }) {
        self.settings = settings
        self.control = control
        self.topics = MQTTTopics(settings: settings)
        self.sourceTopics = sourceTopics
        self.core = Mutex(MQTTBridgeCore(settings: settings, sourceTopics: sourceTopics, formerRetained: formerRetained))
        self.onSource = onSource
        self.log = log
    }

    /// The retained topics this bridge published on its last connect (and any it still has to
    /// clear for its predecessor), for the bridge a reload makes next.
    public var retainedTopicsPublished: [String] { core.withLock { $0.retainedTopicsPublished } }

    /// Whether the broker has accepted the connection and the subscriptions (and the connection
    /// has not been lost since), so commands published from now on arrive.
    public var isConnected: Bool { core.withLock { $0.isConnected } }
    /// How many times the broker accepted a connection and its subscriptions (reconnects included).
    public var connectionCount: Int { core.withLock { $0.connects } }

    /// Starts connecting in the background (a no-op when running); throws only for settings that
    /// can never work (an unreadable password file, bad TLS files).
    public func start() throws(MQTTError) {
        #if LEDRING_MQTT
        let password = try settings.password()
        try client.withLock { (client: inout MosquittoClient?) throws(MQTTError) in
            guard client == nil else { return }
            let made = try MosquittoClient(settings: settings, password: password, bridge: self)
            client = made
            let id = control.addObserver { [weak self] _ in self?.changed() }
            observer.withLock { $0 = id }
            made.start()
        }
        #else
        throw .unavailable
        #endif
    }

    /// Publishes `offline`, disconnects and waits (a few seconds at most) for the connection
    /// thread to end.
    public func stop() {
        if let id = observer.withLock({ o -> ObserverID? in defer { o = nil }; return o }) {
            control.removeObserver(id)
        }
        #if LEDRING_MQTT
        let running = client.withLock { c -> MosquittoClient? in defer { c = nil }; return c }
        running?.stop(goodbye: core.withLock { $0.goodbye })
        #endif
        _ = core.withLock { $0.disconnected(reason: "stopped") }
    }

    deinit { stop() }

    /// Cuts the connection without a DISCONNECT, as a crash or a pulled cable would (tests use it
    /// to see the broker publish the last will, and the bridge reconnect).
    func dropConnectionForTesting() {
        #if LEDRING_MQTT
        client.withLock { $0 }?.dropConnection()
        #endif
    }

    // MARK: What the connection thread calls

    /// The broker accepted us: subscribe, then say we are online and republish everything.
    func connected(subscribe: ([String]) -> Void, publish: (MQTTMessage) -> Bool) {
        subscribe(core.withLock { $0.subscriptions })
        // The snapshot is taken under the lock, as `changed` takes it: whichever runs last
        // publishes the newest.
        write(core.withLock { $0.connected(control.snapshot(), publish: publish) })
    }

    /// The broker acknowledged the subscriptions: from now on commands arrive.
    func subscribed() {
        write(core.withLock { $0.didSubscribe() })
    }

    /// libmosquitto reported an error (kept, a few at most, until the next failure is logged).
    func libraryError(_ message: String) {
        libraryErrors.withLock { errors in
            if errors.count < 8 && !errors.contains(message) { errors.append(message) }
        }
    }

    /// The errors libmosquitto reported since the last call.
    func takeLibraryErrors() -> [String] {
        libraryErrors.withLock { errors in
            defer { errors.removeAll() }
            return errors
        }
    }

    /// The connection is gone (the thread reconnects).
    func disconnected(reason: String) {
        write(core.withLock { $0.disconnected(reason: reason) })
    }

    /// A message arrived: apply it, or log why not and carry on (`MQTTBridgeCore.route`). The
    /// commands are submitted outside the lock: the daemon's remote waits for its loop.
    func received(topic: String, payload: [UInt8], retained: Bool = false) {
        let now = MonotonicClock.seconds()
        let routed = core.withLock { $0.route(topic: topic, payload: payload, retained: retained, at: now, current: { control.snapshot() }) }
        if let onSource { for index in routed.sources { onSource(index, payload, retained) } }
        write(routed.log)
        for request in routed.requests {
            do throws(RequestError) {
                try control.submit(request)
            } catch {
                write(core.withLock { $0.refused(error, topic: topic, at: MonotonicClock.seconds()) })
                return
            }
        }
    }

    /// The largest message the bridge copies out of libmosquitto (`MQTTBridgeCore.maxMessageBytes`).
    public static let maxMessageBytes = MQTTBridgeCore.maxMessageBytes

    /// A message over `maxMessageBytes` arrived: logged (limited like complaints) and dropped
    /// without a copy.
    func receivedOversized(topic: String, bytes: Int) {
        write(core.withLock { $0.oversized(topic: topic, bytes: bytes, at: MonotonicClock.seconds()) })
    }

    /// Logs a failed connection attempt, limited like complaints.
    func logRetry(_ text: String) {
        write(core.withLock { $0.retry(text, at: MonotonicClock.seconds()) })
    }

    private func write(_ lines: [String]) {
        for line in lines { log(line) }
    }

    /// State changed: publish the state topics whose payload differs from the last one sent.
    /// The snapshot handed to observers may already be stale when this runs (observers race), so
    /// the current one is taken under the lock instead; the last to run publishes the newest.
    private func changed() {
        #if LEDRING_MQTT
        guard let client = client.withLock({ $0 }) else { return }
        write(core.withLock { $0.show(control.snapshot(), publish: client.publish) })
        #endif
    }
}
#endif
