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

    /// Replies held for a client that does not read them before its input is paused: requests
    /// are answered in order, so a flooding client is slowed down, not buffered without bound.
    static let outgoingLimit = 256 * 1024

    /// A client on `fd`.
    init(fd: Int32) {
        self.fd = fd
    }

    /// Whether to read more requests now.
    var wantsInput: Bool { !readClosed && outgoing.count < ClientConnection.outgoingLimit }

    /// Queues one reply line.
    func queue(_ line: String) {
        outgoing.append(contentsOf: line.utf8)
        outgoing.append(UInt8(ascii: "\n"))
    }

    /// Writes what the socket takes; false when the client has gone.
    func flush() -> Bool {
        guard !outgoing.isEmpty else { return true }
        guard let n = Posix.write(fd, outgoing[...], socket: true) else { return false }
        outgoing.removeFirst(n)
        return true
    }
}
