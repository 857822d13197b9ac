import LEDRingNet

/// The HTTP server and MQTT bridge the config asks for, driving the daemon through its
/// `DaemonRemote`: started with the daemon, restarted by a reload that changes their settings,
/// stopped before the final blank frame. Used on the daemon's thread only.
final class NetworkFrontEnds {
    /// What the front ends drive.
    let remote: DaemonRemote
    private(set) var http: HTTPServer?
    private(set) var mqtt: MQTTBridge?

    /// Nothing running yet.
    init(remote: DaemonRemote) {
        self.remote = remote
    }

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

    /// Applies a reloaded config: a front end whose settings changed (or whose rings changed, for
    /// MQTT's discovery) is stopped and started again; one that fails to start is logged and left
    /// off, and the running config of the others stays.
    ///
    /// Stopping a front end waits for its threads, and one of them may be waiting for the loop
    /// (which is running this): callers are released first, so the reload never waits on them.
    func reload(http httpSettings: HTTPSettings?, mqtt mqttSettings: MQTTSettings?, ringsChanged: Bool) {
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
        if mqtt?.settings != mqttSettings || (ringsChanged && mqtt != nil) {
            stopMQTT()
            if let mqttSettings {
                do throws(CommandError) { mqtt = try startMQTT(mqttSettings) } catch {
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
            case .tokenFile: .config
            }
            throw CommandError(error.description, code: code)
        }
    }

    private func startMQTT(_ settings: MQTTSettings) throws(CommandError) -> MQTTBridge {
        let bridge = MQTTBridge(settings: settings, control: remote, log: { Log.info("mqtt: " + $0) })
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
