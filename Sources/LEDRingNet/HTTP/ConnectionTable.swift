// Threads and locks: the full build's front ends. The Embedded build has neither; its daemon
// runs the network on its poll loop instead.
#if !hasFeature(Embedded)
import LEDSystem
import Synchronization
import Glibc

/// Every open HTTP connection and what it is doing, so idle and slow clients can never hold all
/// the room: a connection still sending its headers after `headerTimeout` (or its body
/// `headerTimeout` after the headers), or silent between requests past `idleTimeout` +
/// `headerTimeout`, is cut; when the server is full, the oldest
/// such connection is cut to make room for the new one; event streams have their own quota.
///
/// One host cannot lock the others out by sending bodies slowly (connections each under its
/// deadline, reconnecting when cut: 51 of 80 probes got 503): when the server is full, a
/// connection from a host with no more than `peerShare` being served takes the place of the
/// oldest body still arriving from the host that has the most beyond its share.
///
/// Connections are cut with `shutdown(2)` on a duplicate of their socket, taken when they open
/// and closed when they close, so it can never reach a descriptor the number has been reused for.
final class ConnectionTable: Sendable {
    /// What a connection is doing.
    enum Phase: Sendable, Equatable {
        /// Opened, headers not complete yet.
        case headers
        /// Headers in, body still arriving.
        case body
        /// A request is being answered.
        case busy
        /// An event stream.
        case stream
        /// Between two requests on a kept-alive connection.
        case idle
        /// Cut to make room; counts for nothing until libmicrohttpd closes it.
        case cut
    }

    private struct Entry {
        var descriptor: Int32
        var phase: Phase
        var since: Double
        /// The peer's address (4 or 16 bytes; empty when unknown), so no one host takes the room.
        var peer: [UInt8]
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
        var stopped = false
    }

    /// Connections served normally; more are answered 503.
    let limit: Int
    /// Event streams at once; more are answered 503.
    let streamLimit: Int
    /// Seconds from a connection's start (or the end of its last request plus `idleTimeout`) to
    /// the end of its headers.
    let headerTimeout: Double
    /// Seconds a connection may sit between requests.
    let idleTimeout: Double
    /// Requests one host may have served at once and keep when the server is full: a quarter
    /// of the room, at least 2.
    var peerShare: Int { Swift.max(2, limit / 4) }
    private let state = Mutex(State())

    init(limit: Int, streamLimit: Int, headerTimeout: Double, idleTimeout: Double) {
        self.limit = limit
        self.streamLimit = streamLimit
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    /// A connection opened on `socket`; when that makes more than `limit`, the oldest connection
    /// that is only waiting (headers or idle) is cut. Returns how many are open.
    @discardableResult
    func opened(_ key: UInt, socket: Int32, peer: [UInt8]? = nil, at now: Double = MonotonicClock.seconds()) -> Int {
        let copy = socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1
        let address = peer ?? ConnectionTable.peerAddress(of: socket)
        return state.withLock { s in
            s.entries[key] = Entry(descriptor: copy, phase: .headers, since: now, peer: address)
            if s.entries.count > limit, let oldest = s.entries.filter({ $0.key != key && ($0.value.phase == .headers || $0.value.phase == .idle) })
                .min(by: { $0.value.since < $1.value.since }) {
                ConnectionTable.cut(oldest.value.descriptor)
            }
            return s.entries.count
        }
    }

    /// The connection closed.
    func closed(_ key: UInt) {
        state.withLock { s in
            if let entry = s.entries.removeValue(forKey: key), entry.descriptor >= 0 { Glibc.close(entry.descriptor) }
        }
    }

    /// A request's headers are in (its body may follow): true when it may be served, false when
    /// the server is full (answer 503).
    func started(_ key: UInt, at now: Double = MonotonicClock.seconds()) -> Bool {
        state.withLock { s in
            if s.entries[key] != nil {
                s.entries[key]?.phase = .body
                s.entries[key]?.since = now
            }
            func served(_ e: Entry) -> Bool { e.phase == .body || e.phase == .busy || e.phase == .stream }
            if s.entries.values.filter(served).count <= limit { return true }
            // Full. A host within its share takes the place of the oldest body still arriving
            // from the host that has the most beyond its share; otherwise 503.
            guard let me = s.entries[key] else { return false }
            let mine = s.entries.values.filter { served($0) && $0.peer == me.peer }.count
            guard mine <= peerShare else { return false }
            var held: [[UInt8]: Int] = [:]
            for e in s.entries.values where served(e) && e.peer != me.peer { held[e.peer, default: 0] += 1 }
            guard let hog = held.filter({ $0.value > peerShare }).max(by: { $0.value < $1.value })?.key,
                  let victim = s.entries.filter({ $0.value.peer == hog && $0.value.phase == .body })
                      .min(by: { $0.value.since < $1.value.since }) else { return false }
            ConnectionTable.cut(victim.value.descriptor)
            s.entries[victim.key]?.phase = .cut
            return true
        }
    }

    /// The request's body is in; it is being answered (no deadline: answers are quick).
    func bodyReceived(_ key: UInt) {
        state.withLock { s in
            if s.entries[key]?.phase == .body { s.entries[key]?.phase = .busy }
        }
    }

    /// The request became an event stream: true when there is room for one more.
    func startStream(_ key: UInt) -> Bool {
        state.withLock { s in
            guard s.entries.values.filter({ $0.phase == .stream }).count < streamLimit else { return false }
            s.entries[key]?.phase = .stream
            return true
        }
    }

    /// The request was answered; the connection may wait for another.
    func finished(_ key: UInt, at now: Double = MonotonicClock.seconds()) {
        state.withLock { s in
            if s.entries[key] != nil {
                s.entries[key]?.phase = .idle
                s.entries[key]?.since = now
            }
        }
    }

    /// Open connections, and event streams among them.
    var counts: (open: Int, streams: Int) {
        state.withLock { s in (s.entries.count, s.entries.values.filter { $0.phase == .stream }.count) }
    }

    /// Cuts every connection past its deadline; returns how many.
    @discardableResult
    func sweep(at now: Double = MonotonicClock.seconds()) -> Int {
        state.withLock { s in
            var cut = 0
            for entry in s.entries.values {
                let deadline: Double
                switch entry.phase {
                case .headers, .body: deadline = entry.since + headerTimeout
                case .idle: deadline = entry.since + idleTimeout + headerTimeout
                case .busy, .stream, .cut: continue
                }
                if now > deadline {
                    ConnectionTable.cut(entry.descriptor)
                    cut += 1
                }
            }
            return cut
        }
    }

    /// Runs `sweep` four times a second on its own thread until `stop`.
    func startSweeping() {
        DetachedThread.start(name: "ledring-http-sweep") { [self] in
            while !state.withLock({ $0.stopped }) {
                usleep(250_000)
                sweep()
            }
        }
    }

    /// Ends the sweeping thread.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// The address bytes of the peer on `socket` (`getpeername(2)`): 4 for IPv4, 16 for IPv6, the
    /// port left out; empty when it cannot be read.
    static func peerAddress(of socket: Int32) -> [UInt8] {
        guard socket >= 0 else { return [] }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard got == 0 else { return [] }
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Array(raw[4..<8])     // sockaddr_in: family, port, then sin_addr
            case AF_INET6: Array(raw[8..<24])   // sockaddr_in6: family, port, flowinfo, then sin6_addr
            default: []
            }
        }
    }

    private static func cut(_ descriptor: Int32) {
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
}
#endif
