import Foundation
import Glibc
import LEDRingControl
import LEDRingControlTesting
@testable import LEDRingNet
import LEDSystem
import LEDRingNetTesting
import Testing

/// The static build's server driven by hand on the test's thread, turn by turn as the daemon's
/// loop drives it, over real loopback sockets: what only a loop server has to get right.
@Suite struct HTTPLoopServerTests {
    /// A control that queues what it is given, as the daemon's `LoopControl` does; `apply` hands
    /// the queue to the rings (the loop's turn), after which the picture shows it.
    final class QueueingControl: RingControl, @unchecked Sendable {
        let rings: RecordingRingControl
        var queue: [Request] = []
        var count = 0
        init() throws { rings = try RecordingRingControl() }
        func submit(_ request: Request) throws(RequestError) {
            queue.append(request)
            count += 1
        }
        func snapshot() -> RingSnapshot { rings.snapshot() }
        func addObserver(_ observer: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID { ObserverID(rawValue: 0) }
        func removeObserver(_ id: ObserverID) {}
        func apply() throws {
            for request in queue { try rings.submit(request) }
            queue.removeAll()
        }
    }

    struct Rig {
        let server: HTTPLoopServer
        let client: Int32

        /// One turn of the loop: poll (at most `wait` ms), handle, tick.
        func turn(wait: Int32 = 50) {
            var fds = server.pollRequests
            _ = poll(&fds, nfds_t(fds.count), wait)
            let now = MonotonicClock.seconds()
            server.handle(fds[...], now: now)
            server.tick(now: now)
        }

        /// What the client can read now.
        func received() -> String {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard n > 0 else { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    static func rig(_ control: any RingControl, idleTimeout: Int = 10) throws -> Rig {
        var settings = HTTPSettings()
        settings.port = 0
        settings.idleTimeout = idleTimeout
        let server = try HTTPLoopServer(settings: settings, control: control, system: RetryingSystemCalls(LinuxSystemCalls()), log: { _ in })
        try server.start()
        let client = try LoopbackHTTP.connect(port: server.port)
        return Rig(server: server, client: client)
    }

    /// The answer to a change waits for the loop to apply it, and then carries the picture after
    /// it; a read behind it on the same connection (pipelined) is answered after it, in order.
    @Test func theAnswerToAChangeWaitsForThePictureAfterIt() throws {
        let control = try QueueingControl()
        let rig = try Self.rig(control)
        defer { close(rig.client); rig.server.stop() }
        rig.server.submissions = { control.count }
        rig.send("POST /api/rings/move HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\n0.5"
                 + "GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n")
        for _ in 0..<5 { rig.turn() }
        #expect(control.queue.count == 1)
        #expect(rig.received().isEmpty, "answered before the change was applied")
        try control.apply()
        rig.server.show(now: MonotonicClock.seconds())
        for _ in 0..<3 { rig.turn() }
        let answers = rig.received().components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.hasPrefix("200 OK") && $0.contains(#""name":"move""#) && $0.contains(#""target":0.5"#) },
                "\(answers)")
    }

    /// Without `submissions` (a control that applies at once) nothing is held.
    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let control = try RecordingRingControl()
        let rig = try Self.rig(control)
        defer { close(rig.client); rig.server.stop() }
        rig.send("GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\nPUT /api/reset HTTP/1.1\r\nHost: localhost\r\n\r\n"
                 + "GET /nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\nGET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n")
        var text = ""
        for _ in 0..<10 where !text.contains("404") { rig.turn(); text += rig.received() }
        let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        #expect(statuses == ["200", "405", "404"], "the request after Connection: close is not answered: \(statuses)")
        #expect(rig.server.connectionCount == 0)
    }

    /// An idle server, and one whose kept-alive connection has gone, has nothing timed: the
    /// daemon sleeps in poll until a client comes.
    @Test func nothingIsTimedWhileNoOneIsWaiting() throws {
        let control = try RecordingRingControl()
        let rig = try Self.rig(control, idleTimeout: 7)
        defer { rig.server.stop() }
        rig.turn()
        let opened = MonotonicClock.seconds()
        #expect(rig.server.connectionCount == 1)
        let deadline = try #require(rig.server.nextDeadline)
        #expect(deadline > opened + 6 && deadline < opened + 8, "the idle deadline is idleTimeout away")
        close(rig.client)
        for _ in 0..<3 { rig.turn() }
        #expect(rig.server.connectionCount == 0)
        #expect(rig.server.nextDeadline == nil)
    }
}
