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

    private struct Status: Sendable {
        /// The broker accepted the connection (CONNACK): state may be published.
        var online = false
        /// It also acknowledged the subscriptions (SUBACK): commands will arrive.
        var subscribed = false
        var connects = 0
        var observer: ObserverID?
    }

    private let status = Mutex(Status())
    /// What this bridge has published: so unchanged state is not sent again, and discovery only
    /// when the rings or looks change. A connect forgets the payloads and the rings discovery was
    /// for, so everything is republished; the discovery topics on the broker are kept, to clear
    /// those the next discovery no longer has.
    private struct Published {
        /// The payload last published on each state topic.
        var payloads: [String: String] = [:]
        /// The rings and looks discovery was last published for (nil: not on this connection).
        var discoveredFor: (rings: [String], looks: [String])?
        /// The discovery topics then published (what a later change or the next bridge clears).
        var discoveryTopics: [String] = []
        /// Whether `formerRetained` has been cleared on the broker.
        var formerCleared = false
    }

    private let published = Mutex(Published())
    /// libmosquitto's error messages since the connection thread last took them: the reasons
    /// (OpenSSL's "certificate verify failed", an unloadable key) that its return codes lack.
    private let libraryErrors = Mutex<[String]>([])
    /// Complaints about bad or retained commands, limited so a flood cannot flood the log.
    private let complaints = Mutex(ComplaintLimiter())
    /// Failed connection attempts, logged a few a minute (with a 5 s backoff an outage would
    /// otherwise log 12 lines a minute for as long as it lasts).
    private let retries = Mutex(ComplaintLimiter(burst: 5, window: 60))
    #if LEDRING_MQTT
    private let client = Mutex<MosquittoClient?>(nil)
    #endif

    /// The retained topics a bridge before this one published (a reload's): on connect, those
    /// this one does not publish get an empty retained payload, which removes the entity from
    /// Home Assistant (a ring taken out of the config, a select once the looks are gone).
    let formerRetained: [String]

    /// A bridge between `control` and the broker in `settings`; nothing happens until `start()`.
    public init(settings: MQTTSettings, control: any RingControl, sourceTopics: [String] = [],
                formerRetained: [String] = [],
                onSource: (@Sendable (Int, [UInt8], Bool) -> Void)? = nil,
                log: @escaping @Sendable (String) -> Void = { StandardError.write("ledring mqtt: " + $0 + "\n") }) {
        self.settings = settings
        self.control = control
        self.topics = MQTTTopics(settings: settings)
        self.sourceTopics = sourceTopics
        self.formerRetained = formerRetained
        self.onSource = onSource
        self.log = log
    }

    /// The retained topics this bridge published on its last connect (and any it still has to
    /// clear for its predecessor), for the bridge a reload makes next.
    public var retainedTopicsPublished: [String] {
        published.withLock { shown in
            shown.discoveryTopics + (shown.formerCleared ? [] : formerRetained.filter { !shown.discoveryTopics.contains($0) })
        }
    }

    /// Whether the broker has accepted the connection and the subscriptions (and the connection
    /// has not been lost since), so commands published from now on arrive.
    public var isConnected: Bool { status.withLock { $0.online && $0.subscribed } }
    /// How many times the broker accepted a connection and its subscriptions (reconnects included).
    public var connectionCount: Int { status.withLock { $0.connects } }

    /// What starting a bridge with `settings` would refuse in the files it names, with the
    /// messages `start` gives: the password file, and the TLS files libmosquitto would open.
    public static func fileProblems(_ settings: MQTTSettings) -> [String] {
        var found: [String] = []
        if let path = settings.passwordFile {
            do throws(SecretFile.Problem) { _ = try SecretFile.firstLine(path, trimming: false) } catch {
                found.append(MQTTError.passwordFile(path: path, reason: error.reason).description)
            }
        }
        if let tls = settings.tls {
            for (key, path) in [("caFile", tls.caFile), ("certFile", tls.certFile), ("keyFile", tls.keyFile)] {
                guard let path else { continue }
                // Read as libmosquitto will (a PEM file is a few kilobytes; 1 MiB is generous).
                do throws(BoundedFile.Problem) { _ = try BoundedFile.read(path, limit: 1 << 20) } catch {
                    let reason: String
                    switch error {
                    case .cannotOpen(let errno), .readFailed(let errno): reason = "cannot be read (\(errno))"
                    case .notRegular(let kind): reason = "is \(kind), not a file"
                    case .tooLarge: reason = "is over 1 MiB, not a PEM file"
                    }
                    found.append(MQTTError.setup(what: "mqtt.tls.\(key) \(path)",
                                                 reason: reason + "; give a readable PEM file").description)
                }
            }
        }
        return found
    }

    /// Starts connecting in the background (a no-op when running); throws only for settings that
    /// can never work (an unreadable password file, bad TLS files).
    public func start() throws(MQTTError) {
        #if LEDRING_MQTT
        var password: String?
        if let path = settings.passwordFile {
            do throws(SecretFile.Problem) { password = try SecretFile.firstLine(path, trimming: false) } catch {
                throw .passwordFile(path: path, reason: error.reason)
            }
        }
        try client.withLock { (client: inout MosquittoClient?) throws(MQTTError) in
            guard client == nil else { return }
            let made = try MosquittoClient(settings: settings, password: password, bridge: self)
            client = made
            let observer = control.addObserver { [weak self] _ in self?.changed() }
            status.withLock { $0.observer = observer }
            made.start()
        }
        #else
        throw .unavailable
        #endif
    }

    /// Publishes `offline`, disconnects and waits (a few seconds at most) for the connection
    /// thread to end.
    public func stop() {
        if let observer = status.withLock({ s -> ObserverID? in defer { s.observer = nil }; return s.observer }) {
            control.removeObserver(observer)
        }
        #if LEDRING_MQTT
        let running = client.withLock { c -> MosquittoClient? in defer { c = nil }; return c }
        running?.stop(goodbye: MQTTMessage(topic: topics.availability, payload: "offline", retain: true))
        #endif
        status.withLock {
            $0.online = false
            $0.subscribed = false
        }
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
        status.withLock {
            $0.online = true
            $0.subscribed = false
        }
        var filters = topics.subscriptions
        for filter in sourceTopics where !filters.contains(filter) { filters.append(filter) }
        subscribe(filters)
        _ = publish(MQTTMessage(topic: topics.availability, payload: "online", retain: true))
        published.withLock { shown in
            shown.payloads = [:]
            shown.discoveredFor = nil
            sync(control.snapshot(), into: &shown, publish: publish)
        }
    }

    /// The broker acknowledged the subscriptions: from now on commands arrive.
    func subscribed() {
        let count = status.withLock { s -> Int in
            s.subscribed = true
            s.connects += 1
            return s.connects
        }
        log(count == 1 ? "connected to \(settings.host):\(settings.port)" : "reconnected to \(settings.host):\(settings.port)")
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
        let was = status.withLock { s -> Bool in
            defer {
                s.online = false
                s.subscribed = false
            }
            return s.online
        }
        if was { log("lost the connection to \(settings.host):\(settings.port) (\(reason)); reconnecting") }
    }

    /// A message arrived: apply it, or log why not and carry on. Retained messages are ignored:
    /// every topic the bridge subscribes to is a command, and a retained command would be
    /// replayed on every connect (a retained `reset` wiping the restored state after each restart).
    func received(topic: String, payload: [UInt8], retained: Bool = false) {
        // Data for sources comes first, retained or not (a retained value is the latest one);
        // a topic that is also a command topic of ours then goes on as a command.
        if let onSource {
            var taken = false
            for (index, filter) in sourceTopics.enumerated() where MQTTTopics.matches(filter: filter, topic: topic) {
                onSource(index, payload, retained)
                taken = true
            }
            if taken && !topics.subscriptions.contains(where: { MQTTTopics.matches(filter: $0, topic: topic) }) { return }
        }
        if retained {
            complain("ignored a retained message on \(LogText.escaped(topic)): commands act only when sent live; "
                     + "publish them without retain, and clear this one with an empty retained message")
            return
        }
        let requests: [Request]?
        do throws(RequestError) {
            requests = try topics.requests(topic: topic, payload: payload, current: { [control] in control.snapshot() })
        } catch {
            complain("ignored \(LogText.escaped(topic)): \(LogText.escaped(error.message, limit: 200))")
            return
        }
        for request in requests ?? [] {
            do throws(RequestError) {
                try control.submit(request)
            } catch {
                // A group message may name a ring only other devices have: not an error here.
                if error.kind == .unknownRing, topics.isGroup(topic) { return }
                complain("ignored \(LogText.escaped(topic)): \(LogText.escaped(error.message, limit: 200))")
                return
            }
        }
    }

    /// The largest message the bridge copies out of libmosquitto: what a source reads (64 KiB,
    /// `SourcePoller.maxBytes`) and more than any command takes (16 KiB). Mosquitto lets a
    /// client publish up to 256 MB; a 100 MB message was copied, then read, before any check
    /// (324 MB at the peak on a Pi that may have 512 MB).
    public static let maxMessageBytes = 64 * 1024

    /// A message over `maxMessageBytes` arrived: logged (limited like complaints) and dropped
    /// without a copy.
    func receivedOversized(topic: String, bytes: Int) {
        complain("ignored \(LogText.escaped(topic)): a message of \(bytes) bytes; at most \(MQTTBridge.maxMessageBytes) are read")
    }

    /// Logs a failed connection attempt, limited like complaints.
    func logRetry(_ text: String) {
        let now = MonotonicClock.seconds()
        for line in retries.withLock({ $0.admit(text, at: now) }) { log(line) }
    }

    private func complain(_ text: String) {
        let now = MonotonicClock.seconds()
        for line in complaints.withLock({ $0.admit(text, at: now) }) { log(line) }
    }

    /// State changed: publish the state topics whose payload differs from the last one sent.
    /// The snapshot handed to observers may already be stale when this runs (observers race), so
    /// the current one is taken under the lock instead; the last to run publishes the newest.
    private func changed() {
        #if LEDRING_MQTT
        guard status.withLock({ $0.online }), let client = client.withLock({ $0 }) else { return }
        published.withLock { shown in sync(control.snapshot(), into: &shown, publish: client.publish) }
        #endif
    }

    /// Brings the broker to `snapshot`: discovery when the rings or looks differ from those it was
    /// last published for (on connect, always), each state whose payload differs from the one
    /// last published, and an empty retained payload on every discovery topic published before
    /// (by this bridge, or by the bridge before a reload) that is no longer published, which
    /// removes the entity from Home Assistant. Runs under the `published` lock, so whichever of a
    /// connect and a change runs last publishes the newest snapshot.
    ///
    /// Following the snapshot, not the config the bridge started with, is what keeps discovery
    /// right when the bridge connects before the daemon's first snapshot (which had no rings).
    private func sync(_ snapshot: RingSnapshot, into shown: inout Published, publish: (MQTTMessage) -> Bool) {
        let rings = snapshot.rings.map(\.name)
        let before = shown.discoveryTopics
        if settings.discovery, shown.discoveredFor?.rings != rings || shown.discoveredFor?.looks != snapshot.looks {
            shown.discoveryTopics = []
            for message in MQTTDiscovery.messages(settings: settings, rings: rings, looks: snapshot.looks) where publish(message) {
                shown.discoveryTopics.append(message.topic)
            }
            shown.discoveredFor = (rings, snapshot.looks)
        }
        for message in topics.stateMessages(snapshot, retain: settings.retain)
        where shown.payloads[message.topic] != message.payload && publish(message) {
            shown.payloads[message.topic] = message.payload
        }
        // Only discovery is cleared: an empty payload on a state topic reaches the entity before
        // Home Assistant has finished removing it, and its templates log errors (five lines a
        // ring, seen with a real HA core); a removed ring's last state is left, read by nobody.
        let formerly = before + (shown.formerCleared ? [] : formerRetained)
        var removed = 0
        for topic in formerly where !shown.discoveryTopics.contains(topic) && topic.hasPrefix(settings.discoveryPrefix + "/") {
            if publish(MQTTMessage(topic: topic, payload: "", retain: true)) { removed += 1 }
        }
        if removed > 0 { log("removed \(removed) Home Assistant entities the reloaded config no longer has") }
        shown.formerCleared = true
    }
}
