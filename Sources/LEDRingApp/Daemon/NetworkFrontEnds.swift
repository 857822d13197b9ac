// The one seam between the daemon and the network front ends (LEDRingNet: MQTT and HTTP). The
// daemon and the config reader use only what this file declares, so the Embedded Swift build (the
// static Pi binaries, tools/embedded-build.sh) swaps the MQTT half of this file and nothing else.
// HTTP is the same in both builds: ledring's own server (`HTTPLoopServer`) on the daemon's poll
// loop (`LoopHTTP`, below). MQTT differs: the full build opens libmosquitto with dlopen and runs
// its thread (for TLS); an Embedded Swift static binary can do neither, so there MQTT runs on the
// poll loop too (MQTTLoopBridge, the same rules as MQTTBridge through MQTTBridgeCore).
#if !hasFeature(Embedded)
import Glibc
import LEDRingControl
import LEDRingNet
import LEDSystem
import RingRender

/// The `mqtt` section of the config (LEDRingNet's settings).
typealias MQTTSettings = LEDRingNet.MQTTSettings

/// The MQTT bridge and HTTP server the config asks for: the bridge on libmosquitto's thread,
/// driving the daemon through its `DaemonRemote`; the server on the daemon's loop (`LoopHTTP`).
/// Started with the daemon, restarted by a reload that changes their settings, stopped before
/// the final blank frame. Used on the daemon's thread only.
final class NetworkFrontEnds {
    /// What the MQTT bridge drives.
    let remote: DaemonRemote
    /// The HTTP API, on the loop.
    let web: LoopHTTP
    private(set) var mqtt: MQTTBridge?
    /// The config's MQTT sources: each topic filter and its index in `sources`.
    private(set) var mqttSources: [(index: Int, topic: String)] = []
    /// The MQTT sources the running bridge was started with (its messages carry these indices).
    private var bridgeSources: [(index: Int, topic: String)] = []

    /// What starting the front ends would refuse in the files the config names (token, secrets,
    /// password, TLS), with the messages `ledring run` gives: `check-config` lists them.
    static func fileProblems(http: HTTPSettings?, mqtt: MQTTSettings?) -> [String] {
        (http.map { HTTPServing.fileProblems($0) } ?? []) + (mqtt.map { $0.fileProblems() } ?? [])
    }

    /// Nothing running yet.
    init(remote: DaemonRemote, names: [String], system: any SystemCalls) {
        self.remote = remote
        web = LoopHTTP(control: LoopControl(names: names), system: system)
    }

    /// The front ends of a daemon with rings `names`, none running yet.
    convenience init(names: [String], system: any SystemCalls) throws(SystemError) {
        self.init(remote: try DaemonRemote(names: names, snapshot: RingSnapshot(rings: [], brightness: 1, power: true),
                                           system: system), names: names, system: system)
    }

    /// The HTTP server, when it runs.
    var http: HTTPLoopServer? { web.server }
    /// The descriptor that becomes readable when the MQTT bridge has queued requests for the loop.
    var wakeDescriptor: Int32? { remote.readEnd }
    /// The HTTP server's descriptors (its listener, its connections), for the loop's poll.
    var pollEntries: [pollfd] { web.pollEntries }
    /// When the HTTP server has something to do; nil when idle.
    var nextDeadline: Double? { web.nextDeadline }
    /// Acts on what poll reported for `pollEntries`.
    func handle(_ entries: ArraySlice<pollfd>, now: Double) { web.handle(entries, now: now) }
    /// Runs what is due.
    func tick(now: Double) { web.tick(now: now) }

    /// Runs `apply` on each request the front ends queued and `source` on each source message
    /// (index in the config's `sources`, payload, whether it was retained), then `publish`, then
    /// releases the callers waiting for them; nothing when none are queued.
    func applyQueued(_ apply: (Request) -> Void, sources source: (Int, [UInt8], Bool) -> Void, then publish: () -> Void) {
        let commands = remote.takeCommands()
        let messages = remote.takeSourceMessages()
        let (requests, _) = web.control.take()
        guard !commands.isEmpty || !messages.isEmpty || !requests.isEmpty else { return }
        for request in requests { apply(request) }
        for pending in commands { apply(pending.request) }
        for message in messages { source(message.index, message.payload, message.retained) }
        publish()
        for pending in commands { pending.done.signal() }
    }

    /// The config's sources: the MQTT ones are subscribed to by the bridge (set before `start`,
    /// and again before `reload`, which restarts the bridge when they changed).
    func setSources(_ sources: [SourceConfig]) {
        mqttSources = sources.enumerated().compactMap { i, source in source.mqtt.map { (index: i, topic: $0) } }
    }

    /// Tells the front ends the picture changed.
    func publish(_ snapshot: RingSnapshot) {
        remote.publish(snapshot)
        web.show(snapshot)
    }

    /// Tells the front ends the rings' names after a reload.
    func updateRings(_ layout: RingLayout) {
        remote.updateRings(layout)
        web.control.update(layout)
    }

    /// Refuses further requests and releases every waiting caller (the daemon is stopping).
    func closeRemote() {
        remote.close()
        web.control.closed = true
    }

    /// Whether any front end runs (so snapshots are worth building).
    var isActive: Bool { web.server != nil || mqtt != nil }

    /// `address:port` the HTTP server listens on, when it runs.
    var httpAddress: String? { web.address }

    /// Whether the MQTT bridge is connected, when it runs.
    var mqttConnected: Bool? { mqtt?.isConnected }

    /// Starts the front ends `config` has sections for; on failure nothing is left running.
    func start(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) throws(CommandError) {
        if let httpSettings { try web.start(httpSettings) }
        if let mqttSettings {
            do throws(CommandError) {
                mqtt = try startMQTT(mqttSettings)
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Applies a reloaded config: a front end whose settings changed is stopped and started again
    /// (new rings or looks need no restart: both follow the snapshot); one that fails to start is
    /// logged and left off, and the running config of the others stays.
    ///
    /// Stopping the bridge waits for its thread, which may be waiting for the loop (which is
    /// running this): callers are released first, so the reload never waits on them.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) {
        remote.releaseWaiters()
        defer { remote.resumeWaiting() }
        web.reload(httpSettings)
        // The bridge maps each message to a source's index: a reload that moves a source (even
        // with the same topics) needs a bridge with the new indices.
        let sourcesMoved = mqttSourcesMoved(bridgeSources, mqttSources)
        if mqtt?.settings != mqttSettings || sourcesMoved {
            let former = mqtt?.retainedTopicsPublished ?? []
            stopMQTT()
            if let mqttSettings {
                do throws(CommandError) { mqtt = try startMQTT(mqttSettings, former: former) } catch {
                    Log.info("reload: the MQTT bridge stays off: \(error.message)")
                }
            }
        }
    }

    /// Stops both (MQTT publishes `offline` first).
    func stop() {
        stopMQTT()
        web.stop()
    }

    /// Starts a bridge; `former` are the retained topics the bridge before it published (a
    /// reload's), which it clears where it no longer publishes them.
    private func startMQTT(_ settings: MQTTSettings, former: [String] = []) throws(CommandError) -> MQTTBridge {
        let indices = mqttSources.map { $0.index }
        bridgeSources = mqttSources
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
        Log.info("mqtt: connecting to \(settings.host):\(settings.port) as \(settings.resolvedClientId), topics \(settings.resolvedBaseTopic)/…")
        return bridge
    }

    private func stopMQTT() {
        guard let bridge = mqtt else { return }
        mqtt = nil
        bridge.stop()
        Log.info("mqtt: stopped")
    }
}
#else
import Glibc
import LEDJSON
import LEDRingControl
import LEDRingNet
import LEDSystem
import RingRender

/// The `mqtt` section of the config (LEDRingNet's settings; the same reader as the full build).
typealias MQTTSettings = LEDRingNet.MQTTSettings


/// The static build's front ends on the daemon's own poll loop, no thread, no libmosquitto or
/// libmicrohttpd: the MQTT bridge (`MQTTLoopBridge`, ledring's own client) and the HTTP API with
/// the live page and the webhooks (`HTTPLoopServer`, ledring's own server), their sockets and
/// timers more descriptors and deadlines of that loop. Requests queue in `LoopControl` and reach
/// the rings through the daemon's `applyRemoteCommands`, as the full build's do; an HTTP answer
/// waits for the picture after its request. Used on the daemon's thread only.
final class NetworkFrontEnds {
    private let control: LoopControl
    private let system: any SystemCalls
    private(set) var mqtt: MQTTLoopBridge?
    /// The HTTP API (the same as the full build's).
    let web: LoopHTTP
    /// The config's MQTT sources: each topic filter and its index in `sources`.
    private(set) var mqttSources: [(index: Int, topic: String)] = []
    /// The MQTT sources and settings the running bridge was started with.
    private var bridgeSources: [(index: Int, topic: String)] = []
    private var bridgeSettings: MQTTSettings?

    /// What starting the front ends would refuse in the files the config names, with the
    /// messages `ledring run` gives (TLS among them: this build has none).
    static func fileProblems(http: HTTPSettings?, mqtt: MQTTSettings?) -> [String] {
        (http.map { HTTPServing.fileProblems($0) } ?? []) + (mqtt.map { $0.fileProblems(tlsAvailable: false) } ?? [])
    }

    /// The front ends of a daemon with rings `names`, none running yet.
    init(names: [String], system: any SystemCalls) throws(SystemError) {
        control = LoopControl(names: names)
        self.system = system
        web = LoopHTTP(control: control, system: system)
    }

    /// The HTTP server, when it runs.
    var http: HTTPLoopServer? { web.server }

    /// Nothing wakes the loop from another thread: there is none.
    var wakeDescriptor: Int32? { nil }
    /// The bridge's descriptors (its name lookup's, the broker's socket) and the server's
    /// (its listener, its connections), for the loop's poll.
    var pollEntries: [pollfd] { (mqtt?.pollRequests ?? []) + web.pollEntries }
    /// When `tick` has something to do (the keep-alive PINGREQ, a reconnect, an HTTP deadline or
    /// event); nil when idle.
    var nextDeadline: Double? { [mqtt?.nextDeadline, web.nextDeadline].compactMap { $0 }.min() }
    /// Whether any front end runs (so snapshots are worth building).
    var isActive: Bool { mqtt != nil || web.server != nil }
    /// `address:port` the HTTP server listens on, when it runs.
    var httpAddress: String? { web.address }
    /// Whether the MQTT bridge is connected, when it runs.
    var mqttConnected: Bool? { mqtt?.isConnected }

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

    /// Runs `apply` on each request the front ends queued and `source` on each source message,
    /// then `publish`; nothing when none are queued.
    func applyQueued(_ apply: (Request) -> Void, sources source: (Int, [UInt8], Bool) -> Void, then publish: () -> Void) {
        let (requests, messages) = control.take()
        guard !requests.isEmpty || !messages.isEmpty else { return }
        for request in requests { apply(request) }
        for message in messages { source(message.index, message.payload, message.retained) }
        publish()
    }

    /// The config's sources: the MQTT ones are subscribed to by the bridge.
    func setSources(_ sources: [SourceConfig]) {
        mqttSources = sources.enumerated().compactMap { i, source in source.mqtt.map { (index: i, topic: $0) } }
    }

    /// Tells the front ends the picture changed.
    func publish(_ snapshot: RingSnapshot) {
        web.show(snapshot)  // sets control.shown, which the bridge reads too
        mqtt?.show(now: MonotonicClock.seconds())
    }

    /// Tells the front ends the rings' names, ranges and looks (at start and after a reload).
    func updateRings(_ layout: RingLayout) { control.update(layout) }

    /// Refuses further requests (the daemon is stopping).
    func closeRemote() { control.closed = true }

    /// Starts the front ends the config has sections for; on failure nothing is left running.
    func start(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) throws(CommandError) {
        if let httpSettings { try web.start(httpSettings) }
        if let mqttSettings {
            do throws(CommandError) {
                mqtt = try startMQTT(mqttSettings)
            } catch {
                stop()
                throw error
            }
        }
    }

    /// Applies a reloaded config: a front end whose settings (or, for the bridge, sources)
    /// changed is started again (new rings or looks need no restart: both follow the snapshot);
    /// one that fails to start is logged and left off.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) {
        web.reload(httpSettings)
        let sourcesMoved = mqttSourcesMoved(bridgeSources, mqttSources)
        guard bridgeSettings != mqttSettings || sourcesMoved else { return }
        let former = mqtt?.retainedTopicsPublished ?? []
        stopMQTT()
        if let mqttSettings {
            do throws(CommandError) { mqtt = try startMQTT(mqttSettings, former: former) } catch {
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
        guard let bridge = mqtt else { return }
        mqtt = nil
        bridgeSettings = nil
        bridge.stop(now: MonotonicClock.seconds())
        Log.info("mqtt: stopped")
    }

    private func startMQTT(_ settings: MQTTSettings, former: [String] = []) throws(CommandError) -> MQTTLoopBridge {
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
        bridgeSources = mqttSources
        bridgeSettings = settings
        bridge.start(now: MonotonicClock.seconds())
        Log.info("mqtt: connecting to \(settings.host):\(settings.port) as \(settings.resolvedClientId), topics \(settings.resolvedBaseTopic)/…")
        return bridge
    }
}

#endif

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
