// Threads and locks: the full build's front ends. The Embedded build has neither; its daemon
// runs the network on its poll loop instead.
#if !hasFeature(Embedded)
import LEDRingControl
import LEDSystem
import Synchronization

/// The JSON API and the live page over HTTP (libmicrohttpd): `GET /`, `GET /api/state`,
/// `POST /api/rings/<ring>`, `POST /api/reset`, `GET /api/events`, … (see the README, "Many rings, many machines").
///
/// Listens on 127.0.0.1 unless configured otherwise. Built without libmicrohttpd, `start()`
/// throws `.unavailable` naming the package to install.
public final class HTTPServer: Sendable {
    /// Whether this build has libmicrohttpd (false: `start()` throws `.unavailable`).
    public static var isAvailable: Bool {
        #if LEDRING_HTTP
        return true
        #else
        return false
        #endif
    }

    /// The settings it was made with.
    public let settings: HTTPSettings
    /// The rings it drives.
    public let control: any RingControl
    private let router: HTTPRouter
    private let log: @Sendable (String) -> Void
    private let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        var observer: ObserverID
        var hub: EventHub
        #if LEDRING_HTTP
        var daemon: MicroHTTPDDaemon
        #endif
    }

    /// What starting a server with `settings` would refuse in the files it names (the token and
    /// the webhooks' secrets), each with the message `init` gives; for `ledring check-config`.
    public static func fileProblems(_ settings: HTTPSettings) -> [String] { HTTPServing.fileProblems(settings) }

    /// A server for `control`; reads `settings.tokenFile` now so a bad file fails at start-up.
    public init(settings: HTTPSettings, control: any RingControl,
                log: @escaping @Sendable (String) -> Void = { StandardError.write("ledring http: " + $0 + "\n") })
        throws(HTTPServerError) {
        self.settings = settings
        self.control = control
        self.log = log
        router = try HTTPServing.router(settings, control: control)
    }

    /// Starts listening (a no-op when already running).
    public func start() throws(HTTPServerError) {
        #if LEDRING_HTTP
        try running.withLock { (running: inout Running?) throws(HTTPServerError) in
            guard running == nil else { return }
            let control = self.control
            let hub = EventHub { control.snapshot() }
            let observer = control.addObserver { _ in hub.changed() }
            do throws(HTTPServerError) {
                let daemon = try MicroHTTPDDaemon(settings: settings, router: router, hub: hub, log: log)
                running = Running(observer: observer, hub: hub, daemon: daemon)
            } catch {
                control.removeObserver(observer)
                throw error
            }
            for line in HTTPServing.startLines(settings, port: daemon(running)?.port ?? 0, hasToken: router.token != nil) { log(line) }
        }
        #else
        throw .unavailable
        #endif
    }

    /// The port it listens on (the kernel's choice when configured with 0); 0 when stopped.
    public var port: Int {
        #if LEDRING_HTTP
        return running.withLock { daemon($0)?.port ?? 0 }
        #else
        return 0
        #endif
    }

    /// Stops listening, ends event streams and waits for open requests to finish.
    public func stop() {
        guard let current = running.withLock({ (r: inout Running?) -> Running? in defer { r = nil }; return r }) else { return }
        control.removeObserver(current.observer)
        current.hub.close()
        #if LEDRING_HTTP
        current.daemon.stop()
        #endif
    }

    deinit { stop() }

    #if LEDRING_HTTP
    private func daemon(_ running: Running?) -> MicroHTTPDDaemon? { running?.daemon }
    #endif
}
#endif
