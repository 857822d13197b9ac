/// Every open HTTP connection and what it is doing, so idle and slow clients can never hold all
/// the room: a connection still sending its headers after `headerTimeout` (or its body
/// `headerTimeout` after the headers), or silent between requests past `idleTimeout` +
/// `headerTimeout`, is cut; when more than `limit` are open, the oldest connection that is only
/// waiting is cut to make room for the new one; event streams have their own quota.
///
/// One host cannot lock the others out by sending bodies slowly (connections each under its
/// deadline, reconnecting when cut: 51 of 80 probes got 503 before this rule): when `limit`
/// requests are being served, a request from a host with no more than `peerShare` of them takes
/// the place of the oldest body still arriving from the host that has the most beyond its share.
///
/// Pure: times are passed in, and the decisions (which connection to cut, whether to serve) are
/// returned for `HTTPLoopServer` to carry out, so every rule is tested without a socket.
public struct HTTPRoom {
    /// What a connection is doing.
    public enum Phase: Equatable, Sendable {
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
        /// Cut to make room or past its deadline; counts for nothing until it is closed.
        case cut
    }

    private struct Entry {
        var phase: Phase
        var since: Double
        /// The peer's address (4 or 16 bytes; empty when unknown), so no one host takes the room.
        var peer: [UInt8]
    }

    private var entries: [Int: Entry] = [:]

    /// Requests served at once; more are answered 503.
    public let limit: Int
    /// Event streams at once; more are answered 503.
    public let streamLimit: Int
    /// Seconds from a connection's start (or the end of its last request plus `idleTimeout`) to
    /// the end of its headers, and from there to the end of its body.
    public let headerTimeout: Double
    /// Seconds a connection may sit between requests.
    public let idleTimeout: Double
    /// Requests one host may have served at once and keep when the room is full: a quarter of
    /// it, at least 2.
    public var peerShare: Int { Swift.max(2, limit / 4) }

    /// An empty room.
    public init(limit: Int, streamLimit: Int, headerTimeout: Double, idleTimeout: Double) {
        self.limit = limit
        self.streamLimit = streamLimit
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    /// Connection `key` opened from `peer`; when that makes more than `limit`, returns the
    /// oldest other connection that is only waiting (headers or idle), to be cut.
    public mutating func opened(_ key: Int, peer: [UInt8] = [], at now: Double) -> Int? {
        entries[key] = Entry(phase: .headers, since: now, peer: peer)
        guard entries.count > limit else { return nil }
        var oldest: (key: Int, since: Double)?
        for (other, entry) in entries where other != key && (entry.phase == .headers || entry.phase == .idle) {
            if oldest == nil || entry.since < oldest!.since || (entry.since == oldest!.since && other < oldest!.key) {
                oldest = (other, entry.since)
            }
        }
        if let oldest { entries[oldest.key]?.phase = .cut }
        return oldest?.key
    }

    /// The connection closed.
    public mutating func closed(_ key: Int) { entries[key] = nil }

    /// Connection `key` was cut (a deadline); it counts for nothing until it is closed.
    public mutating func cut(_ key: Int) { entries[key]?.phase = .cut }

    private func served(_ entry: Entry) -> Bool { entry.phase == .body || entry.phase == .busy || entry.phase == .stream }

    /// A request's headers are in (its body may follow): `serve` false when the room is full
    /// (answer 503); `cut`, a connection of the host holding the room, to be cut for this one.
    public mutating func started(_ key: Int, at now: Double) -> (serve: Bool, cut: Int?) {
        guard var me = entries[key] else { return (false, nil) }
        me.phase = .body
        me.since = now
        entries[key] = me
        var servedCount = 0
        for entry in entries.values where served(entry) { servedCount += 1 }
        if servedCount <= limit { return (true, nil) }
        // Full. A host within its share takes the place of the oldest body still arriving from
        // the host that has the most beyond its share; otherwise 503.
        var mine = 0
        for entry in entries.values where served(entry) && entry.peer == me.peer { mine += 1 }
        guard mine <= peerShare else { return (false, nil) }
        var held: [[UInt8]: Int] = [:]
        for entry in entries.values where served(entry) && entry.peer != me.peer { held[entry.peer, default: 0] += 1 }
        var hog: (peer: [UInt8], count: Int)?
        for (peer, count) in held where count > peerShare && count > (hog?.count ?? 0) { hog = (peer, count) }
        guard let hog else { return (false, nil) }
        var victim: (key: Int, since: Double)?
        for (other, entry) in entries where entry.peer == hog.peer && entry.phase == .body {
            if victim == nil || entry.since < victim!.since || (entry.since == victim!.since && other < victim!.key) {
                victim = (other, entry.since)
            }
        }
        guard let victim else { return (false, nil) }
        entries[victim.key]?.phase = .cut
        return (true, victim.key)
    }

    /// The request's body is in; it is being answered (no deadline: answers are quick).
    public mutating func bodyReceived(_ key: Int) {
        if entries[key]?.phase == .body { entries[key]?.phase = .busy }
    }

    /// The request became an event stream: true when there is room for one more.
    public mutating func startStream(_ key: Int) -> Bool {
        guard counts.streams < streamLimit else { return false }
        entries[key]?.phase = .stream
        return true
    }

    /// The request was answered; the connection may wait for another.
    public mutating func finished(_ key: Int, at now: Double) {
        guard entries[key] != nil, entries[key]?.phase != .cut else { return }
        entries[key]?.phase = .idle
        entries[key]?.since = now
    }

    /// What connection `key` is doing (nil when it is not in the room).
    public func phase(_ key: Int) -> Phase? { entries[key]?.phase }

    /// Open connections, and event streams among them.
    public var counts: (open: Int, streams: Int) {
        var streams = 0
        for entry in entries.values where entry.phase == .stream { streams += 1 }
        return (entries.count, streams)
    }

    private func deadline(_ entry: Entry) -> Double? {
        switch entry.phase {
        case .headers, .body: return entry.since + headerTimeout
        case .idle: return entry.since + idleTimeout + headerTimeout
        case .busy, .stream, .cut: return nil
        }
    }

    /// The connections past their deadline at `now`, in key order (to be cut).
    public func expired(at now: Double) -> [Int] {
        var keys: [Int] = []
        for (key, entry) in entries {
            if let at = deadline(entry), now > at { keys.append(key) }
        }
        return keys.sorted()
    }

    /// The soonest deadline; nil when nothing is timed (no connection, or only answers and streams).
    public var nextDeadline: Double? {
        var soonest: Double?
        for entry in entries.values {
            if let at = deadline(entry) { soonest = Swift.min(soonest ?? at, at) }
        }
        return soonest
    }
}
