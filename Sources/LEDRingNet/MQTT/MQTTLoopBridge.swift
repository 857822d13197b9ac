import Glibc
import LEDDNS
import LEDMQTT
import LEDRingControl
import LEDSystem

/// The MQTT bridge on the daemon's poll loop: ledring's own client (`MQTTLink`, `NameResolver`)
/// instead of libmosquitto's thread, with the same rules (`MQTTBridgeCore`: discovery, state,
/// availability, commands, sources, complaints). The static Embedded binaries run this one; it
/// has no TLS (`MQTTBridge` in the full build has).
///
/// The loop, each turn: poll `pollRequests`, hand the entries to `handle(_:now:)`, call
/// `tick(now:)` (at `nextDeadline` at the latest; nil sleeps until input, so an idle daemon wakes
/// only for the keep-alive PINGREQ); `show(_:now:)` after every change of the picture. Commands
/// go to `control.submit` at once, on the loop's thread; source messages to `onSource`.
///
/// The broker's name is looked up when the bridge starts and before each reconnect (a broker
/// that moved to another address is found again); a lookup that fails is retried with the
/// back-off, and a reconnect keeps the addresses it had.
public final class MQTTLoopBridge {
    /// The rules and what has been published.
    public private(set) var core: MQTTBridgeCore
    /// The rings it drives (submit and the state commands start from; on the loop's thread).
    public let control: any RingControl
    /// How the session connects (from the settings: will, keep-alive, back-off, credentials).
    public let configuration: MQTTSessionConfiguration
    /// The link, once the name has been looked up.
    public private(set) var link: MQTTLink?
    /// Called with every run of bytes written to the broker (a test's wire tap).
    public var onWrite: ((ArraySlice<UInt8>) -> Void)? {
        didSet { link?.onWrite = onWrite }
    }

    /// The settings (a copy of the core's: `publish` runs while the core is being changed).
    private let settings: MQTTSettings
    private let qos: MQTTQoS
    private let system: any SystemCalls
    private let onSource: (Int, [UInt8], Bool) -> Void
    private let log: (String) -> Void
    private let hostsPath: String
    private let resolverPath: String
    private var resolver: NameResolver?
    /// When the name is looked up again after a lookup failed (no link yet).
    private var lookupAt: Double?
    private var lookupDelay: Double
    /// The SUBSCRIBE whose SUBACK says the commands will arrive.
    private var subscribeId: UInt16?
    private var running = false
    private var lookups = 0

    /// A bridge between `control` and the broker in `settings` (`password` read from its file by
    /// the caller); nothing happens until `start(now:)`. Throws for settings MQTT cannot carry
    /// (a client id or topic over 65535 bytes) and for TLS, which this client does not have.
    public init(settings: MQTTSettings, password: String?, control: any RingControl, sourceTopics: [String] = [],
                formerRetained: [String] = [], system: any SystemCalls,
                onSource: @escaping (Int, [UInt8], Bool) -> Void = { _, _, _ in },
                log: @escaping (String) -> Void,
                hostsPath: String = "/etc/hosts", resolverPath: String = "/etc/resolv.conf") throws(MQTTError) {
        if settings.tls != nil { throw .setup(what: "mqtt.tls", reason: MQTTLoopBridge.noTLS) }
        core = MQTTBridgeCore(settings: settings, sourceTopics: sourceTopics, formerRetained: formerRetained)
        let topics = MQTTTopics(settings: settings)
        let connect = MQTTConnectOptions(
            clientId: settings.resolvedClientId, cleanSession: true, keepAlive: UInt16(clamping: settings.keepalive),
            will: MQTTWill(topic: topics.availability, payload: Array("offline".utf8), qos: MQTTLoopBridge.qos(settings), retain: true),
            username: settings.username, password: password.map { Array($0.utf8) })
        // Packets a little over the largest message read, so the topic fits beside it; the
        // payload itself is checked against `maxMessageBytes` when it arrives.
        configuration = MQTTSessionConfiguration(connect: connect, reconnectMin: Double(settings.reconnectMin),
                                                 reconnectMax: Double(settings.reconnectMax),
                                                 maximumPacketSize: MQTTBridgeCore.maxMessageBytes + 1024)
        do throws(MQTTEncodeError) { _ = try MQTTSession(configuration) } catch {
            throw .setup(what: "client id \(settings.resolvedClientId)", reason: error.description)
        }
        self.settings = settings
        self.qos = MQTTLoopBridge.qos(settings)
        self.control = control
        self.system = system
        self.onSource = onSource
        self.log = log
        self.hostsPath = hostsPath
        self.resolverPath = resolverPath
        lookupDelay = Double(settings.reconnectMin)
    }

    /// Why `mqtt.tls` is refused by this client (`check-config` says it too).
    public static let noTLS = "this static build of ledring has no TLS (no static TLS library is linked); use a broker "
        + "on the Pi or the local network without TLS (username and passwordFile still work), or the full build"

    /// Whether the broker has accepted the connection and the subscriptions.
    public var isConnected: Bool { core.isConnected }
    /// How many times the broker accepted a connection and its subscriptions.
    public var connectionCount: Int { core.connects }
    /// The retained topics this bridge published (for the bridge a reload makes next).
    public var retainedTopicsPublished: [String] { core.retainedTopicsPublished }

    /// Starts looking the broker up and connecting.
    public func start(now: Double) {
        guard !running else { return }
        running = true
        lookUp(now: now)
    }

    /// The descriptors to poll: the lookup's sockets while it runs, the broker's socket.
    public var pollRequests: [pollfd] {
        (resolver?.pollRequests ?? []) + (link?.pollRequest.map { [$0] } ?? [])
    }

    /// When `tick` next has something to do; nil when nothing is timed.
    public var nextDeadline: Double? {
        [resolver?.nextDeadline, lookupAt, link?.nextDeadline].compactMap { $0 }.min()
    }

    /// Acts on what poll reported for the descriptors of `pollRequests` (others are ignored).
    public func handle(_ entries: ArraySlice<pollfd>, now: Double) {
        for entry in entries where entry.revents != 0 {
            if let link, entry.fd == link.socket {
                act(on: link.handle(entry.revents, now: now), now: now)
                flush(now: now)
            } else if let resolver, resolver.pollRequests.contains(where: { $0.fd == entry.fd }) {
                resolver.handle(entry.fd, revents: entry.revents, now: now)
                lookupEnded(now: now)
            }
        }
    }

    /// Runs what is due: a lookup's timeout or retry, the session's timers, a reconnect.
    public func tick(now: Double) {
        if let at = lookupAt, at <= now {
            lookupAt = nil
            lookUp(now: now)
        }
        if let resolver {
            resolver.tick(now: now)
            lookupEnded(now: now)
        }
        if let link { act(on: link.tick(now: now), now: now) }
        flush(now: now)
    }

    /// The picture changed: publishes what differs from what the broker has.
    public func show(now: Double) {
        write(core.show(control.snapshot(), publish: publish))
        flush(now: now)
    }

    /// Publishes `offline` and leaves with DISCONNECT (what the socket takes now; a stalled
    /// broker is not waited for, and then publishes the will itself).
    public func stop(now: Double) {
        running = false
        resolver = nil
        lookupAt = nil
        guard let link else { return }
        _ = publish(core.goodbye)
        link.stop(now: now)
        _ = core.disconnected(reason: "stopped")  // not a loss to log: nothing reconnects
    }

    /// Cuts the connection without a DISCONNECT, as a pulled cable would (tests: the will, and
    /// the reconnect).
    public func dropConnectionForTesting(now: Double) {
        guard let link else { return }
        act(on: link.dropConnection(now: now), now: now)
    }

    // MARK: Private

    private static func qos(_ settings: MQTTSettings) -> MQTTQoS { settings.qos == 0 ? .atMostOnce : .atLeastOnce }

    private func lookUp(now: Double) {
        lookups += 1
        let seed = UInt16(truncatingIfNeeded: MonotonicClock.nanoseconds() ^ UInt64(UInt32(bitPattern: getpid())) << 16)
        resolver = NameResolver(name: settings.host, port: UInt16(clamping: settings.port), system: system, idSeed: seed,
                                now: now, hostsPath: hostsPath, resolverPath: resolverPath)
        lookupEnded(now: now)
    }

    /// Takes the lookup's outcome, when it has one: a link to the addresses found (the one
    /// there is when they are the same), or a retry after the back-off.
    private func lookupEnded(now: Double) {
        guard let outcome = resolver?.outcome else { return }
        resolver = nil
        switch outcome {
        case .found(let brokers):
            lookupDelay = Double(settings.reconnectMin)
            if let link, link.brokers == brokers {
                act(on: link.open(now: now), now: now)
                return
            }
            let made: MQTTLink
            do throws(MQTTEncodeError) {
                made = try MQTTLink(brokers: brokers, configuration: configuration, system: system)
            } catch {
                write([error.description])  // checked in init: cannot happen
                return
            }
            // The lookup comes before each reconnect, so the link does not reconnect itself.
            made.reconnects = false
            made.onWrite = onWrite
            link = made
            act(on: made.open(now: now), now: now)
        case .failed(let why):
            if let link {
                // The addresses it had are the best guess while the name server is away.
                act(on: link.open(now: now), now: now)
                return
            }
            write(core.retry("cannot look up \(settings.host): \(why); retrying in \(Int(lookupDelay)) s", at: now))
            lookupAt = now + lookupDelay
            lookupDelay = min(lookupDelay * 2, Double(settings.reconnectMax))
        }
    }

    private func act(on events: [MQTTEvent], now: Double) {
        guard let link else { return }
        for event in events {
            switch event {
            case .connected:
                do throws(MQTTSessionError) {
                    subscribeId = try link.session.subscribe(core.subscriptions.map { MQTTSubscription($0, qos: qos) })
                } catch {
                    write(["cannot subscribe: \(error.description)"])
                }
                write(core.connected(control.snapshot(), publish: publish))
            case .subscribed(let packetId, let results):
                guard packetId == subscribeId else { break }
                let filters = core.subscriptions
                for (filter, result) in zip(filters, results) where result == .failure {
                    write(["the broker refused the subscription to \(LogText.escaped(filter)); check its ACLs"])
                }
                write(core.didSubscribe())
            case .message(let topic, let payload, let retained):
                received(topic: topic, payload: payload, retained: retained, now: now)
            case .oversized(let topic, let bytes):
                write(core.oversized(topic: topic ?? "a topic", bytes: bytes, at: now))
            case .refused(let code):
                write(core.retry("the broker refused the connection: \(code.reason); retrying in \(retryDelay(now)) s", at: now))
            case .connectionLost(let loss):
                let lost = core.disconnected(reason: loss.description)
                write(lost.isEmpty ? core.retry("cannot connect to \(settings.host):\(settings.port): \(loss.description); "
                                                + "retrying in \(retryDelay(now)) s", at: now) : lost)
            case .reconnectDue:
                if running { lookUp(now: now) }
            case .published, .unsubscribed:
                break
            }
        }
    }

    /// Seconds until the scheduled reconnect, for the log.
    private func retryDelay(_ now: Double) -> Int {
        guard let at = link?.session.reconnectAt else { return 0 }
        return max(0, Int((at - now).rounded()))
    }

    /// A message on a subscribed topic: to the sources, and as commands to `control`.
    private func received(topic: String, payload: [UInt8], retained: Bool, now: Double) {
        guard payload.count <= MQTTBridgeCore.maxMessageBytes else {
            write(core.oversized(topic: topic, bytes: payload.count, at: now))
            return
        }
        let routed = core.route(topic: topic, payload: payload, retained: retained, at: now, current: { control.snapshot() })
        for index in routed.sources { onSource(index, payload, retained) }
        write(routed.log)
        for request in routed.requests {
            do throws(RequestError) {
                try control.submit(request)
            } catch {
                write(core.refused(error, topic: topic, at: now))
                return
            }
        }
    }

    /// Queues `message` with the configured QoS; false when not connected (everything is
    /// republished on the next connect).
    private func publish(_ message: MQTTMessage) -> Bool {
        guard let link, link.isConnected else { return false }
        do throws(MQTTSessionError) {
            try link.session.publish(topic: message.topic, payload: Array(message.payload.utf8),
                                     qos: qos, retain: message.retain)
            return true
        } catch {
            return false
        }
    }

    private func flush(now: Double) {
        if let link { act(on: link.flush(now: now), now: now) }
    }

    private func write(_ lines: [String]) {
        for line in lines { log(line) }
    }
}
