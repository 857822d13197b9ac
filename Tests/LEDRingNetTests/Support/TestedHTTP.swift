import Foundation
import LEDRingControl
@testable import LEDRingNet
import LEDSystem
import Synchronization
import Testing

/// An `HTTPLoopServer` on a poll loop of its own thread, as the daemon runs it: poll its
/// descriptors until its deadline, handle, tick, and `show` after each change of `control`. The
/// server is touched by that thread only (after `start`, which runs here so a port in use is
/// this init's error).
final class LoopHTTPRunner: @unchecked Sendable {
    private struct Shared {
        var stop = false
        var changed = false
        var finished = false
    }

    private final class SharedBox: Sendable {
        let state = Mutex(Shared())
        func withLock<T>(_ body: (inout Shared) -> T) -> T { state.withLock { body(&$0) } }
    }

    private final class Box: @unchecked Sendable {
        let server: HTTPLoopServer
        init(_ server: HTTPLoopServer) { self.server = server }
    }

    private let shared = SharedBox()
    private let control: any RingControl
    private let observer: ObserverID
    let port: Int

    init(settings: HTTPSettings, control: any RingControl, log: @escaping @Sendable (String) -> Void) throws {
        self.control = control
        let server = try HTTPLoopServer(settings: settings, control: control, system: RetryingSystemCalls(LinuxSystemCalls()), log: log)
        try server.start()
        port = server.port
        let shared = self.shared
        observer = control.addObserver { _ in shared.withLock { $0.changed = true } }
        let box = Box(server)
        Thread { LoopHTTPRunner.run(box.server, shared) }.start()
    }

    private static func run(_ server: HTTPLoopServer, _ shared: SharedBox) {
        while true {
            let (stop, changed) = shared.withLock { s in
                defer { s.changed = false }
                return (s.stop, s.changed)
            }
            let now = MonotonicClock.seconds()
            if stop {
                server.stop()
                break
            }
            if changed { server.show(now: now) }
            server.tick(now: now)
            var fds = server.pollRequests
            // At most 20 ms, so a change of `control` or a stop is seen soon.
            let wait = server.nextDeadline.map { max(0, min(20, Int32((($0 - now) * 1000).rounded(.up)))) } ?? 20
            _ = poll(&fds, nfds_t(fds.count), wait)
            server.handle(fds[...], now: MonotonicClock.seconds())
        }
        shared.withLock { $0.finished = true }
    }

    /// Stops the server (every connection closed) and waits for its thread.
    func stop() {
        control.removeObserver(observer)
        shared.withLock { $0.stop = true }
        while !shared.withLock({ $0.finished }) { usleep(5_000) }
    }

    deinit { if !shared.withLock({ $0.finished }) { stop() } }
}
