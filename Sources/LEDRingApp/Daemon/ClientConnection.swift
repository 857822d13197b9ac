/// One connected control client: its unfinished input line and the replies not yet written.
final class ClientConnection {
    /// The socket.
    let fd: Int32
    /// Input split into lines.
    var lines = LineBuffer()
    /// Reply bytes the socket has not taken yet.
    var outgoing: [UInt8] = []
    /// The client closed its side; close once the replies are out.
    var readClosed = false
    /// When it last sent anything or took a reply (monotonic seconds).
    var lastActive: Double

    /// Replies held for a client that does not read them before its input is paused: requests
    /// are answered in order, so a flooding client is slowed down, not buffered without bound.
    static let outgoingLimit = 256 * 1024

    /// A client on `fd`, connected at `now`.
    init(fd: Int32, at now: Double) {
        self.fd = fd
        lastActive = now
    }

    /// Whether it has neither sent anything nor taken any reply since before `cutoff`.
    func isIdle(since cutoff: Double) -> Bool {
        lastActive < cutoff
    }

    /// The idle client to drop for a newcomer when every place is taken: the one silent longest,
    /// if silent at least `after` seconds.
    static func evictable(_ clients: [ClientConnection], at now: Double, after: Double) -> ClientConnection? {
        clients.filter { $0.isIdle(since: now - after) && $0.outgoing.isEmpty }.min { $0.lastActive < $1.lastActive }
    }

    /// Whether to read more requests now.
    var wantsInput: Bool { !readClosed && outgoing.count < ClientConnection.outgoingLimit }

    /// Queues one reply line.
    func queue(_ line: String) {
        outgoing.append(contentsOf: line.utf8)
        outgoing.append(UInt8(ascii: "\n"))
    }
}
