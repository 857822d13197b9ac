// The one seam between the daemon and the network front ends (LEDRingNet: MQTT and HTTP). The
// daemon and the config reader use only what this file declares, so the Embedded Swift build (the
// static Pi binaries, tools/embedded-build.sh), which leaves LEDRingNet out, swaps this file's
// contents and nothing else. Left out because the front ends open libmosquitto and libmicrohttpd
// with dlopen (a static binary cannot), and run their own threads: neither of which an
// Embedded Swift static binary can.
#if !hasFeature(Embedded)
import LEDRingControl
import LEDRingNet
import LEDSystem
import RingRender

/// The `mqtt` section of the config (LEDRingNet's settings).
typealias MQTTSettings = LEDRingNet.MQTTSettings
/// The `http` section of the config (LEDRingNet's settings).
typealias HTTPSettings = LEDRingNet.HTTPSettings

/// The HTTP server and MQTT bridge the config asks for, driving the daemon through its
/// `DaemonRemote`: started with the daemon, restarted by a reload that changes their settings,
/// stopped before the final blank frame. Used on the daemon's thread only.
final class NetworkFrontEnds {
    /// What the front ends drive.
    let remote: DaemonRemote
    private(set) var http: HTTPServer?
    private(set) var mqtt: MQTTBridge?
    /// The config's MQTT sources: each topic filter and its index in `sources`.
    private(set) var mqttSources: [(index: Int, topic: String)] = []
    /// The MQTT sources the running bridge was started with (its messages carry these indices).
    private var bridgeSources: [(index: Int, topic: String)] = []

    /// What starting the front ends would refuse in the files the config names (token, secrets,
    /// password, TLS), with the messages `ledring run` gives: `check-config` lists them.
    static func fileProblems(http: HTTPSettings?, mqtt: MQTTSettings?) -> [String] {
        (http.map(HTTPServer.fileProblems) ?? []) + (mqtt.map(MQTTBridge.fileProblems) ?? [])
    }

    /// Nothing running yet.
    init(remote: DaemonRemote) {
        self.remote = remote
    }

    /// The front ends of a daemon with rings `names`, none running yet.
    convenience init(names: [String], system: any SystemCalls) throws(SystemError) {
        self.init(remote: try DaemonRemote(names: names, snapshot: RingSnapshot(rings: [], brightness: 1, power: true),
                                           system: system))
    }

    /// The descriptor that becomes readable when a front end has queued requests for the loop.
    var wakeDescriptor: Int32? { remote.readEnd }

    /// Runs `apply` on each request the front ends queued and `source` on each source message
    /// (index in the config's `sources`, payload, whether it was retained), then `publish`, then
    /// releases the callers waiting for them; nothing when none are queued.
    func applyQueued(_ apply: (Request) -> Void, sources source: (Int, [UInt8], Bool) -> Void, then publish: () -> Void) {
        let commands = remote.takeCommands()
        let messages = remote.takeSourceMessages()
        guard !commands.isEmpty || !messages.isEmpty else { return }
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
    func publish(_ snapshot: RingSnapshot) { remote.publish(snapshot) }

    /// Tells the front ends the rings' names after a reload.
    func updateRings(_ layout: RingLayout) { remote.updateRings(layout) }

    /// Refuses further requests and releases every waiting caller (the daemon is stopping).
    func closeRemote() { remote.close() }

    /// Whether any front end runs (so snapshots are worth building).
    var isActive: Bool { http != nil || mqtt != nil }

    /// `address:port` the HTTP server listens on, when it runs.
    var httpAddress: String? {
        guard let http else { return nil }
        let address = http.settings.address.contains(":") ? "[\(http.settings.address)]" : http.settings.address
        return "\(address):\(http.port)"
    }

    /// Whether the MQTT bridge is connected, when it runs.
    var mqttConnected: Bool? { mqtt?.isConnected }

    /// Starts the front ends `config` has sections for; on failure nothing is left running.
    func start(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) throws(CommandError) {
        if let httpSettings { http = try startHTTP(httpSettings) }
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
    /// (new rings or looks need no restart: the MQTT bridge follows the snapshot); one that fails
    /// to start is logged and left off, and the running config of the others stays.
    ///
    /// Stopping a front end waits for its threads, and one of them may be waiting for the loop
    /// (which is running this): callers are released first, so the reload never waits on them.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) {
        remote.releaseWaiters()
        defer { remote.resumeWaiting() }
        if http?.settings != httpSettings {
            stopHTTP()
            if let httpSettings {
                do throws(CommandError) { http = try startHTTP(httpSettings) } catch {
                    Log.info("reload: the HTTP API stays off: \(error.message)")
                }
            }
        }
        // The bridge maps each message to a source's index: a reload that moves a source (even
        // with the same topics) needs a bridge with the new indices.
        let sourcesMoved = bridgeSources.count != mqttSources.count
            || zip(bridgeSources, mqttSources).contains { $0.index != $1.index || $0.topic != $1.topic }
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
        stopHTTP()
    }

    private func startHTTP(_ settings: HTTPSettings) throws(CommandError) -> HTTPServer {
        do throws(HTTPServerError) {
            let server = try HTTPServer(settings: settings, control: remote, log: { Log.info("http: " + $0) })
            try server.start()
            return server
        } catch {
            let code: ExitCode = switch error {
            case .unavailable, .libraryMissing, .cannotListen: .unavailable
            case .tokenFile, .secretFile: .config
            }
            throw CommandError(error.description, code: code)
        }
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

    private func stopHTTP() {
        guard let server = http else { return }
        http = nil
        server.stop()
        Log.info("http: stopped")
    }

    private func stopMQTT() {
        guard let bridge = mqtt else { return }
        mqtt = nil
        bridge.stop()
        Log.info("mqtt: stopped")
    }
}
#else
import LEDJSON
import LEDRingControl
import LEDSystem
import RingRender

/// The `mqtt` section, in a build without the network front ends: refused with the reason.
struct MQTTSettings: Equatable {
    /// Reports the section as a problem: this build has no MQTT bridge.
    static func read(_ value: JSONValue, at path: String, into reader: inout JSONReader) -> MQTTSettings? {
        reader.report(path, NetworkFrontEnds.missing("the MQTT bridge"))
        return nil
    }
}

/// The `http` section, in a build without the network front ends: refused with the reason.
struct HTTPSettings: Equatable {
    /// Reports the section as a problem: this build has no HTTP API (nor its webhooks).
    static func read(_ value: JSONValue, at path: String, ringNames: [String]? = nil, looks: [String]? = nil,
                     into reader: inout JSONReader) -> HTTPSettings? {
        reader.report(path, NetworkFrontEnds.missing("the HTTP API"))
        return nil
    }
}

/// The Embedded build's front ends: none. A config with an `mqtt` or `http` section is refused
/// when read (above), so `start` never has anything to start.
final class NetworkFrontEnds {
    /// Why a section is refused.
    static func missing(_ frontEnd: String) -> String {
        "\(frontEnd) is not in this static build of ledring (Embedded Swift: no dlopen, threads or Dispatch); "
            + "remove the section, or install the full build (docs/install.md, \"Building from source\")"
    }

    /// No front ends.
    init(names: [String], system: any SystemCalls) throws(SystemError) {}

    /// Never: no front end runs.
    var isActive: Bool { false }
    /// No HTTP server.
    var httpAddress: String? { nil }
    /// No MQTT bridge.
    var mqttConnected: Bool? { nil }
    /// Nothing wakes the loop.
    var wakeDescriptor: Int32? { nil }

    /// Nothing to start (the config reader refused the sections).
    static func fileProblems(http: HTTPSettings?, mqtt: MQTTSettings?) -> [String] { [] }

    func start(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) throws(CommandError) {}
    /// Nothing to reload.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?) {}
    /// Nothing is ever queued.
    func applyQueued(_ apply: (Request) -> Void, sources source: (Int, [UInt8], Bool) -> Void, then publish: () -> Void) {}
    /// No bridge to subscribe (an MQTT source needs the `mqtt` section, refused here).
    func setSources(_ sources: [SourceConfig]) {}
    /// Nobody to tell.
    func publish(_ snapshot: RingSnapshot) {}
    /// Nobody to tell.
    func updateRings(_ layout: RingLayout) {}
    /// Nothing to close.
    func closeRemote() {}
    /// Nothing to stop.
    func stop() {}
}
#endif
