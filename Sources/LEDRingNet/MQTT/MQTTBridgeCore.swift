import LEDRingControl

/// What the MQTT bridge decides, without a connection, a thread or a clock: which topics to
/// subscribe to, what to publish on a connect and on every change (availability, Home Assistant
/// discovery, the state topics, empty retained payloads for entities that are gone), and what a
/// message that arrives means (a source's data, commands, or a complaint). Both bridges drive it:
/// `MQTTBridge` (libmosquitto's thread, the full build's TLS) under a lock, and `MQTTLoopBridge`
/// (ledring's own client on the daemon's poll loop, every build) directly; so the two cannot
/// drift. Every method returns the lines to log, which the bridges write.
public struct MQTTBridgeCore: Sendable {
    /// The settings it was made with.
    public let settings: MQTTSettings
    /// Its topics.
    public let topics: MQTTTopics
    /// Topic filters whose messages are data for the daemon's sources, by index.
    public let sourceTopics: [String]
    /// The retained topics a bridge before this one published (a reload's): those this one does
    /// not publish get an empty retained payload once connected.
    public let formerRetained: [String]

    /// The broker accepted the connection (CONNACK): state may be published.
    public private(set) var online = false
    /// It also acknowledged the subscriptions (SUBACK): commands will arrive.
    public private(set) var subscribed = false
    /// How many times the broker accepted a connection and its subscriptions.
    public private(set) var connects = 0

    /// What has been published: so unchanged state is not sent again, and discovery only when
    /// the rings or looks change. A connect forgets the payloads and the rings discovery was for,
    /// so everything is republished; the discovery topics on the broker are kept, to clear those
    /// the next discovery no longer has.
    private var payloads: [String: String] = [:]
    /// The rings and looks discovery was last published for (nil: not on this connection).
    private var discoveredFor: (rings: [String], looks: [String])?
    /// The discovery topics then published (what a later change or the next bridge clears).
    private var discoveryTopics: [String] = []
    /// Whether `formerRetained` has been cleared on the broker.
    private var formerCleared = false
    /// Complaints about bad or retained commands, limited so a flood cannot flood the log.
    private var complaints = ComplaintLimiter()
    /// Failed connection attempts, logged a few a minute (with a 5 s backoff an outage would
    /// otherwise log 12 lines a minute for as long as it lasts).
    private var retries = ComplaintLimiter(burst: 5, window: 60)

    /// Where a message goes, as `route` decides.
    public struct Routed: Sendable, Equatable {
        /// The sources (indices into `sourceTopics`) whose filter the topic matches.
        public var sources: [Int] = []
        /// The commands to submit, in order.
        public var requests: [Request] = []
        /// Lines to log (a refused or retained command).
        public var log: [String] = []
    }

    /// The largest message a bridge reads: what a source reads (64 KiB, `SourcePoller.maxBytes`)
    /// and more than any command takes (16 KiB). Mosquitto lets a client publish up to 256 MB; a
    /// 100 MB message was copied, then read, before any check (324 MB at the peak on a Pi that
    /// may have 512 MB).
    public static let maxMessageBytes = 64 * 1024

    /// The rules for `settings`; `formerRetained` as in `retainedTopicsPublished` of the bridge
    /// a reload replaces.
    public init(settings: MQTTSettings, sourceTopics: [String] = [], formerRetained: [String] = []) {
        self.settings = settings
        self.topics = MQTTTopics(settings: settings)
        self.sourceTopics = sourceTopics
        self.formerRetained = formerRetained
    }

    /// Whether the broker has accepted the connection and the subscriptions.
    public var isConnected: Bool { online && subscribed }

    /// The retained topics published on the last connect (and any still to clear for the bridge
    /// before), for the bridge a reload makes next.
    public var retainedTopicsPublished: [String] {
        discoveryTopics + (formerCleared ? [] : formerRetained.filter { !discoveryTopics.contains($0) })
    }

    /// Every filter to subscribe to in one SUBSCRIBE (so one SUBACK says all are in place): the
    /// command topics, then the sources' filters that are not among them.
    public var subscriptions: [String] {
        var filters = topics.subscriptions
        for filter in sourceTopics where !filters.contains(filter) { filters.append(filter) }
        return filters
    }

    /// The availability payload published as the last will and on `stop`.
    public var goodbye: MQTTMessage { MQTTMessage(topic: topics.availability, payload: "offline", retain: true) }

    /// The broker accepted us (subscribe to `subscriptions` first): say we are online and
    /// republish everything for `snapshot` through `publish` (false: not sent).
    public mutating func connected(_ snapshot: RingSnapshot, publish: (MQTTMessage) -> Bool) -> [String] {
        online = true
        subscribed = false
        _ = publish(MQTTMessage(topic: topics.availability, payload: "online", retain: true))
        payloads = [:]
        discoveredFor = nil
        return sync(snapshot, publish: publish)
    }

    /// The broker acknowledged the subscriptions: from now on commands arrive.
    public mutating func didSubscribe() -> [String] {
        subscribed = true
        connects += 1
        return [(connects == 1 ? "connected to " : "reconnected to ") + "\(settings.host):\(settings.port)"]
    }

    /// The connection is gone (a reconnect follows).
    public mutating func disconnected(reason: String) -> [String] {
        defer {
            online = false
            subscribed = false
        }
        return online ? ["lost the connection to \(settings.host):\(settings.port) (\(reason)); reconnecting"] : []
    }

    /// A failed connection attempt, limited like complaints.
    public mutating func retry(_ text: String, at now: Double) -> [String] {
        retries.admit(text, at: now)
    }

    /// What a message means. Data for sources comes first, retained or not (a retained value is
    /// the latest one); a topic that is also a command topic then goes on as a command. Retained
    /// commands are refused: a retained command would be replayed on every connect (a retained
    /// `reset` wiping the restored state after each restart). `current` is the state the
    /// commands start from (a relative change, a toggle).
    public mutating func route(topic: String, payload: [UInt8], retained: Bool, at now: Double,
                               current: () -> RingSnapshot) -> Routed {
        var routed = Routed()
        for (index, filter) in sourceTopics.enumerated() where MQTTTopics.matches(filter: filter, topic: topic) {
            routed.sources.append(index)
        }
        if !routed.sources.isEmpty && !topics.subscriptions.contains(where: { MQTTTopics.matches(filter: $0, topic: topic) }) {
            return routed
        }
        if retained {
            routed.log = complain("ignored a retained message on \(LogText.escaped(topic)): commands act only when sent live; "
                                  + "publish them without retain, and clear this one with an empty retained message", at: now)
            return routed
        }
        do throws(RequestError) {
            routed.requests = try topics.requests(topic: topic, payload: payload, current: current) ?? []
        } catch {
            routed.log = complain("ignored \(LogText.escaped(topic)): \(LogText.escaped(error.message, limit: 200))", at: now)
        }
        return routed
    }

    /// A command from `topic` was refused: what to log (nothing when a group message names a
    /// ring only other devices have). The commands after it are not submitted.
    public mutating func refused(_ error: RequestError, topic: String, at now: Double) -> [String] {
        if error.kind == .unknownRing, topics.isGroup(topic) { return [] }
        return complain("ignored \(LogText.escaped(topic)): \(LogText.escaped(error.message, limit: 200))", at: now)
    }

    /// A message over `maxMessageBytes` arrived and was dropped unread.
    public mutating func oversized(topic: String, bytes: Int, at now: Double) -> [String] {
        complain("ignored \(LogText.escaped(topic)): a message of \(bytes) bytes; at most \(MQTTBridgeCore.maxMessageBytes) are read", at: now)
    }

    /// State changed: while online, publishes what differs from what the broker has (see `sync`).
    public mutating func show(_ snapshot: RingSnapshot, publish: (MQTTMessage) -> Bool) -> [String] {
        online ? sync(snapshot, publish: publish) : []
    }

    private mutating func complain(_ text: String, at now: Double) -> [String] {
        complaints.admit(text, at: now)
    }

    /// Brings the broker to `snapshot`: discovery when the rings or looks differ from those it was
    /// last published for (on connect, always), each state whose payload differs from the one
    /// last published, and an empty retained payload on every discovery topic published before
    /// (by this bridge, or by the bridge before a reload) that is no longer published, which
    /// removes the entity from Home Assistant.
    ///
    /// Following the snapshot, not the config the bridge started with, is what keeps discovery
    /// right when the bridge connects before the daemon's first snapshot (which had no rings).
    private mutating func sync(_ snapshot: RingSnapshot, publish: (MQTTMessage) -> Bool) -> [String] {
        let rings = snapshot.rings.map { $0.name }
        let before = discoveryTopics
        if settings.discovery, discoveredFor?.rings != rings || discoveredFor?.looks != snapshot.looks {
            discoveryTopics = []
            for message in MQTTDiscovery.messages(settings: settings, rings: rings, looks: snapshot.looks) where publish(message) {
                discoveryTopics.append(message.topic)
            }
            discoveredFor = (rings, snapshot.looks)
        }
        for message in topics.stateMessages(snapshot, retain: settings.retain)
        where payloads[message.topic] != message.payload && publish(message) {
            payloads[message.topic] = message.payload
        }
        // Only discovery is cleared: an empty payload on a state topic reaches the entity before
        // Home Assistant has finished removing it, and its templates log errors (five lines a
        // ring, seen with a real HA core); a removed ring's last state is left, read by nobody.
        let formerly = before + (formerCleared ? [] : formerRetained)
        var removed = 0
        for topic in formerly where !discoveryTopics.contains(topic) && topic.hasPrefix(settings.discoveryPrefix + "/") {
            if publish(MQTTMessage(topic: topic, payload: "", retain: true)) { removed += 1 }
        }
        formerCleared = true
        return removed > 0 ? ["removed \(removed) Home Assistant entities the reloaded config no longer has"] : []
    }
}
