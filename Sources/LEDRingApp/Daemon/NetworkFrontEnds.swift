// The one seam between the daemon and the network front ends (LEDRingNet: MQTT and HTTP). The
// daemon and the config reader use only what this file declares. Both front ends are ledring's
// own and run on the daemon's one poll loop in every build, the static Pi binaries' (Embedded
// Swift, tools/embedded-build.sh) and the full build alike: the HTTP server (`HTTPLoopServer`,
// through `LoopHTTP`) and the MQTT bridge (`MQTTLoopBridge`). The full build adds one thing: for a
// broker behind TLS it opens libmosquitto with dlopen and runs its thread (`MQTTBridge`, driving
// the daemon through a `DaemonRemote`); the same rules, `MQTTBridgeCore`, drive both bridges, and
// the broker tests hold them to the same behaviour. An Embedded Swift binary has no dlopen and no
// threads, so it has no TLS, and says so.
import Glibc
import LEDRingControl
import LEDRingNet
import LEDSystem
import RingModel

/// The `mqtt` section of the config (LEDRingNet's settings; the same reader in both builds).
typealias MQTTSettings = LEDRingNet.MQTTSettings

/// The MQTT bridge and HTTP server the config asks for, on the daemon's poll loop: their sockets
/// and timers are more descriptors and deadlines of that loop. Requests queue in `LoopControl`
/// and reach the rings through the daemon's `applyRemoteCommands`; an HTTP answer waits for the
/// picture after its request. Started with the daemon, restarted by a reload that changes their
/// settings, stopped before the final blank frame. Used on the daemon's thread only.
final class NetworkFrontEnds {
    private let control: LoopControl
    private let system: any SystemCalls
    /// The HTTP API.
    let web: LoopHTTP
    /// The MQTT bridge on the loop, when it runs.
    private(set) var mqtt: MQTTLoopBridge?
    #if !hasFeature(Embedded)
    /// What the TLS bridge (libmosquitto's thread) drives.
    let remote: DaemonRemote
    /// The bridge for a broker behind TLS, when it runs.
    private(set) var tlsBridge: MQTTBridge?
    #endif
    /// The config's MQTT sources: each topic filter and its index in `sources`.
    private(set) var mqttSources: [(index: Int, topic: String)] = []
    /// The MQTT sources and settings the running bridge was started with (its messages carry these indices).
    private var bridgeSources: [(index: Int, topic: String)] = []
    private var bridgeSettings: MQTTSettings?

    /// Whether this build has TLS to the broker (the full build, through libmosquitto; one
    /// built without it says so when the bridge starts).
    static var tlsAvailable: Bool {
        #if hasFeature(Embedded)
        false
        #else
        true
        #endif
    }

    /// What starting the front ends would refuse in the files the config names (token, secrets,
    /// password, TLS), with the messages `ledring run` gives: `check-config` lists them.
    static func fileProblems(http: HTTPSettings?, mqtt: MQTTSettings?) -> [String] {
        (http.map { HTTPServing.fileProblems($0) } ?? []) + (mqtt.map { $0.fileProblems(tlsAvailable: tlsAvailable) } ?? [])
    }

    /// The front ends of a daemon with rings `names`, none running yet.
    init(names: [String], system: any SystemCalls) throws(SystemError) {
        control = LoopControl(names: names)
        self.system = system
        web = LoopHTTP(control: control, system: system)
        #if !hasFeature(Embedded)
        remote = try DaemonRemote(names: names, snapshot: RingSnapshot(rings: [], brightness: 1, power: true), system: system)
        #endif
    }

    /// The HTTP server, when it runs.
    var http: HTTPLoopServer? { web.server }

    /// The descriptor that becomes readable when the TLS bridge's thread has queued requests for
    /// the loop (nil in the static build: no thread).
    var wakeDescriptor: Int32? {
        #if hasFeature(Embedded)
        nil
        #else
        remote.readEnd
        #endif
    }
    /// The bridge's descriptors (its name lookup's, the broker's socket) and the server's
    /// (its listener, its connections), for the loop's poll.
    var pollEntries: [pollfd] { (mqtt?.pollRequests ?? []) + web.pollEntries }
    /// When `tick` has something to do (the keep-alive PINGREQ, a reconnect, an HTTP deadline or
    /// event); nil when idle.
    var nextDeadline: Double? { [mqtt?.nextDeadline, web.nextDeadline].compactMap { $0 }.min() }
    /// Whether any front end runs (so snapshots are worth building).
    var isActive: Bool { web.server != nil || bridgeSettings != nil }
    /// `address:port` the HTTP server listens on, when it runs.
    var httpAddress: String? { web.address }
    /// Whether the MQTT bridge is connected, when it runs.
    var mqttConnected: Bool? {
        #if !hasFeature(Embedded)
        if let tlsBridge { return tlsBridge.isConnected }
        #endif
        return mqtt?.isConnected
    }
    /// The retained topics the running bridge has published (a reload's new bridge clears those it no longer publishes).
    private var retainedPublished: [String] {
        #if !hasFeature(Embedded)
        if let tlsBridge { return tlsBridge.retainedTopicsPublished }
        #endif
        return mqtt?.retainedTopicsPublished ?? []
    }

    /// Acts on what poll reported for `pollEntries` (each front end takes its own descriptors).
    func handle(_ entries: ArraySlice<pollfd>, now: Double) {
        mqtt?.handle(entries, now: now)
        web.handle(entries, now: now)
    }
    /// Runs what is due.
    func tick(now: Double) {
        mqtt?.tick(now: now)
        web.tick(now: now)
    }

    /// Runs `apply` on each request the front ends queued and `source` on each source message
    /// (index in the config's `sources`, payload, whether it was retained), then `publish`, then
    /// releases the callers waiting for them; nothing when none are queued.
    func applyQueued(_ apply: (Request) -> Void, sources source: (Int, [UInt8], Bool) -> Void, then publish: () -> Void) {
        let (requests, messages) = control.take()
        #if hasFeature(Embedded)
        guard !requests.isEmpty || !messages.isEmpty else { return }
        for request in requests { apply(request) }
        for message in messages { source(message.index, message.payload, message.retained) }
        publish()
        #else
        let commands = remote.takeCommands()
        let threadMessages = remote.takeSourceMessages()
        guard !requests.isEmpty || !messages.isEmpty || !commands.isEmpty || !threadMessages.isEmpty else { return }
        for request in requests { apply(request) }
        for pending in commands { apply(pending.request) }
        for message in messages { source(message.index, message.payload, message.retained) }
        for message in threadMessages { source(message.index, message.payload, message.retained) }
        publish()
        for pending in commands { pending.done.signal() }
        #endif
    }

    /// The config's sources: the MQTT ones are subscribed to by the bridge (set before `start`,
    /// and again before `reload`, which restarts the bridge when they changed).
    func setSources(_ sources: [SourceConfig]) {
        mqttSources = sources.enumerated().compactMap { i, source in source.mqtt.map { (index: i, topic: $0) } }
    }

    /// Tells the front ends the picture changed.
    func publish(_ snapshot: RingSnapshot) {
        web.show(snapshot)  // sets control.shown, which the loop bridge reads too
        mqtt?.show(now: MonotonicClock.seconds())
        #if !hasFeature(Embedded)
        remote.publish(snapshot)  // before a TLS bridge starts too: its first connect publishes this layout
        #endif
    }

    /// Tells the front ends the rings' names, ranges and looks (at start and after a reload).
    func updateRings(_ layout: RingLayout) {
        control.update(layout)
        #if !hasFeature(Embedded)
        remote.updateRings(layout)
        #endif
    }

    /// Refuses further requests and releases every waiting caller (the daemon is stopping).
    func closeRemote() {
        control.closed = true
        #if !hasFeature(Embedded)
        remote.close()
        #endif
    }

    /// Starts the front ends the config has sections for; on failure nothing is left running.
    func start(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) throws(CommandError) {
        if let httpSettings { try web.start(httpSettings) }
        if let mqttSettings {
            do throws(CommandError) {
                try startMQTT(mqttSettings)
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Applies a reloaded config: a front end whose settings (or, for the bridge, sources)
    /// changed is started again (new rings or looks need no restart: both follow the snapshot);
    /// one that fails to start is logged and left off, and the running config of the others stays.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) {
        #if !hasFeature(Embedded)
        // Stopping the TLS bridge waits for its thread, which may be waiting for the loop (which
        // is running this): its callers are released first, so the reload never waits on them.
        remote.releaseWaiters()
        defer { remote.resumeWaiting() }
        #endif
        web.reload(httpSettings)
        // The bridge maps each message to a source's index: a reload that moves a source (even
        // with the same topics) needs a bridge with the new indices.
        guard bridgeSettings != mqttSettings || mqttSourcesMoved(bridgeSources, mqttSources) else { return }
        let former = retainedPublished
        stopMQTT()
        if let mqttSettings {
            do throws(CommandError) { try startMQTT(mqttSettings, former: former) } catch {
                Log.info("reload: the MQTT bridge stays off: \(error.message)")
            }
        }
    }

    /// Stops both (MQTT publishes `offline` first).
    func stop() {
        stopMQTT()
        web.stop()
    }

    private func stopMQTT() {
        guard bridgeSettings != nil else { return }
        bridgeSettings = nil
        mqtt?.stop(now: MonotonicClock.seconds())
        mqtt = nil
        #if !hasFeature(Embedded)
        tlsBridge?.stop()
        tlsBridge = nil
        #endif
        Log.info("mqtt: stopped")
    }

    /// Starts a bridge: the loop's, or for a broker behind TLS the full build's libmosquitto one
    /// (the static build's loop bridge refuses `mqtt.tls` itself, with `MQTTLoopBridge.noTLS`);
    /// `former` are the retained topics the bridge before it published (a reload's), which it
    /// clears where it no longer publishes them.
    private func startMQTT(_ settings: MQTTSettings, former: [String] = []) throws(CommandError) {
        #if hasFeature(Embedded)
        mqtt = try startLoopBridge(settings, former: former)
        #else
        if settings.tls != nil { tlsBridge = try startTLSBridge(settings, former: former) } else {
            mqtt = try startLoopBridge(settings, former: former)
        }
        #endif
        bridgeSources = mqttSources
        bridgeSettings = settings
        Log.info("mqtt: connecting to \(settings.host):\(settings.port) as \(settings.resolvedClientId), topics \(settings.resolvedBaseTopic)/…\(settings.tls != nil ? " over TLS" : "")")
    }

    private func startLoopBridge(_ settings: MQTTSettings, former: [String]) throws(CommandError) -> MQTTLoopBridge {
        let indices = mqttSources.map { $0.index }
        let bridge: MQTTLoopBridge
        do throws(MQTTError) {
            bridge = try MQTTLoopBridge(settings: settings, password: try settings.password(), control: control,
                                        sourceTopics: mqttSources.map { $0.topic }, formerRetained: former,
                                        system: system,
                                        onSource: { [control] k, payload, retained in control.queueSource(indices[k], payload, retained) },
                                        log: { Log.info("mqtt: " + $0) })
        } catch {
            throw CommandError(error.description, code: .config)
        }
        bridge.start(now: MonotonicClock.seconds())
        return bridge
    }

    #if !hasFeature(Embedded)
    private func startTLSBridge(_ settings: MQTTSettings, former: [String]) throws(CommandError) -> MQTTBridge {
        let indices = mqttSources.map { $0.index }
        let remote = self.remote
        let bridge = MQTTBridge(settings: settings, control: remote, sourceTopics: mqttSources.map { $0.topic },
                                formerRetained: former,
                                onSource: { [remote] k, payload, retained in remote.queueSource(indices[k], payload, retained: retained) },
                                log: { Log.info("mqtt: " + $0) })
        do throws(MQTTError) {
            try bridge.start()
        } catch {
            let code: ExitCode = switch error {
            case .unavailable, .libraryMissing: .unavailable
            case .passwordFile, .setup: .config
            }
            throw CommandError(error.description, code: code)
        }
        return bridge
    }
    #endif
}

/// The `http` section of the config (LEDRingNet's settings, in both builds).
typealias HTTPSettings = LEDRingNet.HTTPSettings

/// The HTTP API on the daemon's poll loop, the same in both builds: `HTTPLoopServer` (ledring's
/// own server; its listener and connections more descriptors and deadlines of the loop) over a
/// `LoopControl`, whose queue the loop applies between its turns, so an answer waits for the
/// picture after its request. Started with the daemon, restarted by a reload that changes its
/// settings. Used on the daemon's thread only.
final class LoopHTTP {
    /// What the server drives.
    let control: LoopControl
    private let system: any SystemCalls
    /// The server, while it runs.
    private(set) var server: HTTPLoopServer?

    init(control: LoopControl, system: any SystemCalls) {
        self.control = control
        self.system = system
    }

    /// The server's descriptors, for the loop's poll.
    var pollEntries: [pollfd] { server?.pollRequests ?? [] }
    /// When the server has something to do; nil when idle.
    var nextDeadline: Double? { server?.nextDeadline }
    /// Acts on what poll reported (the server takes its own descriptors).
    func handle(_ entries: ArraySlice<pollfd>, now: Double) { server?.handle(entries, now: now) }
    /// Runs what is due.
    func tick(now: Double) { server?.tick(now: now) }

    /// The picture changed: held answers go, event streams send it.
    func show(_ snapshot: RingSnapshot) {
        control.shown = snapshot
        server?.show(now: MonotonicClock.seconds())
    }

    /// `address:port` it listens on, when it runs.
    var address: String? {
        guard let server else { return nil }
        let address = server.settings.address.contains(where: { $0 == ":" }) ? "[\(server.settings.address)]" : server.settings.address
        return "\(address):\(server.port)"
    }

    /// Starts listening with `settings`.
    func start(_ settings: HTTPSettings) throws(CommandError) {
        do throws(HTTPServerError) {
            let made = try HTTPLoopServer(settings: settings, control: control, system: system, log: { Log.info("http: " + $0) })
            let control = self.control
            made.submissions = { control.submitted }
            try made.start()
            server = made
        } catch {
            let code: ExitCode = switch error {
            case .cannotListen: .unavailable
            case .tokenFile, .secretFile: .config
            }
            throw CommandError(error.description, code: code)
        }
    }

    /// A reload: started again when the settings changed; one that fails to start is logged
    /// and left off.
    func reload(_ settings: HTTPSettings?) {
        guard server?.settings != settings else { return }
        stop()
        guard let settings else { return }
        do throws(CommandError) { try start(settings) } catch {
            Log.info("reload: the HTTP API stays off: \(error.message)")
        }
    }

    /// Stops listening and closes every connection.
    func stop() {
        guard let running = server else { return }
        server = nil
        running.stop()
        Log.info("http: stopped")
    }
}

/// The daemon as a `RingControl` for the front ends on its loop (the HTTP server in both builds,
/// the static build's MQTT bridge), on the daemon's thread: a request is
/// checked against the rings as the controller checks it (`Request.validate`), so the bridge
/// knows at once what was refused, and queued for the loop to apply right after; the snapshot
/// is the one the loop last published. (Sendable only by the protocol's demand: one thread.)
final class LoopControl: RingControl, @unchecked Sendable {
    var shown = RingSnapshot(rings: [], brightness: 1, power: true)
    var closed = false
    private var names: [String]
    private var ranged: Set<String> = []
    private var looks: [String] = []
    private var queue: [Request] = []
    /// The latest message for each MQTT source, by index: a burst collapses into the newest.
    private var sourceMessages: [Int: (payload: [UInt8], retained: Bool)] = [:]

    init(names: [String]) { self.names = names }

    /// Requests taken so far (the HTTP server holds an answer until the picture after its request).
    private(set) var submitted = 0

    func submit(_ request: Request) throws(RequestError) {
        guard !closed else { throw .unavailable("ledring is stopping; try again once it has restarted") }
        try request.validate(rings: names, ranged: ranged, looks: looks)
        queue.append(request)
        submitted += 1
    }

    func snapshot() -> RingSnapshot { shown }

    /// The loop bridge is shown each snapshot by `publish`; nobody observes.
    func addObserver(_ observer: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID { ObserverID(rawValue: 0) }
    func removeObserver(_ id: ObserverID) {}

    func update(_ layout: RingLayout) {
        names = layout.rings.map { $0.name }
        ranged = Set(layout.rings.filter { $0.range != nil }.map { $0.name })
        looks = layout.looks.map { $0.name }
    }

    func queueSource(_ index: Int, _ payload: [UInt8], _ retained: Bool) {
        guard !closed else { return }
        sourceMessages[index] = (payload, retained)
    }

    /// The requests and source messages queued since the last call, oldest request first.
    func take() -> (requests: [Request], sources: [(index: Int, payload: [UInt8], retained: Bool)]) {
        defer {
            queue.removeAll()
            sourceMessages.removeAll()
        }
        return (queue, sourceMessages.sorted { $0.key < $1.key }.map { (index: $0.key, payload: $0.value.payload, retained: $0.value.retained) })
    }
}
/// Whether a reload moved the MQTT sources (each topic filter and its index in the config's
/// `sources`): the bridge maps each message to a source's index, so even the same topics at other
/// indices need a new bridge. Both builds' front ends ask it.
func mqttSourcesMoved(_ running: [(index: Int, topic: String)], _ next: [(index: Int, topic: String)]) -> Bool {
    running.count != next.count || zip(running, next).contains { $0.index != $1.index || $0.topic != $1.topic }
}
