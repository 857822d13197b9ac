import LEDSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every open HTTP connection and what it is doing, so idle and slow clients can never hold all
/// the room: a connection still sending its headers after `headerTimeout` (or its body
/// `headerTimeout` after the headers), or silent between requests past `idleTimeout` +
/// `headerTimeout`, is cut; when the server is full, the oldest
/// such connection is cut to make room for the new one; event streams have their own quota.
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
    }

    private struct Entry {
        var descriptor: Int32
        var phase: Phase
        var since: Double
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
    func opened(_ key: UInt, socket: Int32, at now: Double = MonotonicClock.seconds()) -> Int {
        let copy = socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1
        return state.withLock { s in
            s.entries[key] = Entry(descriptor: copy, phase: .headers, since: now)
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
            return s.entries.values.filter { $0.phase != .headers && $0.phase != .idle }.count <= limit
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
                case .busy, .stream: continue
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

    private static func cut(_ descriptor: Int32) {
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
}
