import LEDRingControl
import Glibc
import LEDSystem

/// The control socket's server: the listening socket, each client's line buffer and unsent
/// replies, accept, read and send, all through the seam, so a test on `FakeSystemCalls` can
/// connect a client, send a line and read the reply without a kernel. It knows nothing of
/// requests: each complete line goes to the `answer` the daemon passes, whose reply it queues;
/// only a line over the limit it answers itself.
final class ClientServer {
    /// What the server asks of the daemon: the reply to one line at a given time (nil: none).
    typealias Answer = (String, Double) -> String?

    /// The reply to a line longer than `Request.maxLineBytes`.
    static let tooLongReply = Reply.error("request line longer than \(Request.maxLineBytes) bytes; send one request per line").jsonLine

    /// Clients served at once; more are told so and closed.
    static let maxClients = 32
    /// Seconds a control client may stay connected without sending a request.
    static let clientIdleTimeout = 30.0
    /// When all `maxClients` places are taken, a client silent this long (seconds) gives its place
    /// to a new one, so idle connections can never lock everyone out.
    static let evictIdleAfter = 1.0
    /// The most read from one client at a time: a whole request line fits.
    static let readChunk = 64 * 1024

    /// The socket's path.
    let path: String
    let system: any SystemCalls
    /// The listening socket (non-blocking).
    let listener: Int32
    /// The connected clients, oldest first.
    private(set) var clients: [ClientConnection] = []
    /// Out of file descriptors: stop polling the listener (it would stay readable and spin the
    /// loop) until a client leaves.
    private(set) var acceptPaused = false
    private let log: (String) -> Void
    private var buffer = [UInt8](repeating: 0, count: ClientServer.readChunk)

    /// Listens on `path` with `mode` (see `listen(on:mode:system:)`).
    init(listeningOn path: String, mode: UInt32, system: any SystemCalls,
         log: @escaping (String) -> Void = { Log.info($0) }) throws(SystemError) {
        self.path = path
        self.system = system
        self.log = log
        listener = try ClientServer.listen(on: path, mode: mode, system: system)
    }

    /// Binds and listens on `path` with `mode`. A stale socket from a crashed daemon is replaced;
    /// a live one (another daemon answers) or a non-socket file is left alone and reported.
    static func listen(on path: String, mode: UInt32, system: any SystemCalls,
                       uid: UInt32 = getuid()) throws(SystemError) -> Int32 {
        if let owner = DaemonPaths.squatter(of: path, uid: uid, system: system) {
            throw SystemError(operation: "creating the control socket", path: path, code: EADDRINUSE,
                              fix: "it belongs to user \(owner), not to this user: \(DaemonPaths.squatterFix(uid: owner))")
        }
        if let info = try? system.lstat(path) {
            guard info.isSocket else {
                throw SystemError(operation: "creating the control socket", path: path, code: EEXIST,
                                  fix: "that file is not a socket; remove it or choose another --socket")
            }
            if let fd = try? system.connectUnix(path) {
                try? system.close(fd)
                throw SystemError(operation: "creating the control socket", path: path, code: EADDRINUSE,
                                  fix: "another ledring is already running there; stop it (ledring status shows it) or choose another --socket")
            }
            try? system.unlink(path)
        }
        let directory = DaemonPaths.directory(of: path)
        if (try? system.access(directory, F_OK)) == nil { system.makeDirectories(directory, mode: 0o755) }
        let fd: Int32
        do {
            fd = try system.unixSocket(flags: Int32(SOCK_NONBLOCK.rawValue))
        } catch {
            throw SystemError(operation: "creating the control socket", path: path, code: error.rawValue)
        }
        // Bind with a tight umask so the socket is never briefly open to others, then set the mode.
        let previous = system.setFileCreationMask(0o177)
        let bound = Result { () throws(Errno) in try system.bind(fd, path: path) }
        _ = system.setFileCreationMask(previous)
        if case .failure(let error) = bound {
            try? system.close(fd)
            throw SystemError(operation: "binding the control socket", path: path, code: error.rawValue,
                              fix: error.rawValue == ENAMETOOLONG ? ""
                                  : "check that \(directory) exists and is writable for this user, or choose another --socket")
        }
        do throws(Errno) {
            try system.chmod(path, mode: mode)
            try system.listen(fd, backlog: 64)
        } catch {
            try? system.close(fd)
            try? system.unlink(path)
            throw SystemError(operation: "listening on the control socket", path: path, code: error.rawValue)
        }
        return fd
    }

    /// What to poll: the listener, then each client in `clients` order.
    func pollEntries() -> [pollfd] {
        var entries = [pollfd(fd: listener, events: acceptPaused ? 0 : Int16(POLLIN), revents: 0)]
        for client in clients {
            var events: Int16 = 0
            if client.wantsInput { events |= Int16(POLLIN) }
            if !client.outgoing.isEmpty { events |= Int16(POLLOUT) }
            entries.append(pollfd(fd: client.fd, events: events, revents: 0))
        }
        return entries
    }

    /// Acts on the entries `pollEntries()` gave once `poll` has filled them in: serves each
    /// client that is ready (closing those that are done or broken), then accepts newcomers.
    func handle(_ ready: ArraySlice<pollfd>, at now: Double, answer: Answer) {
        let served = clients
        var keep: [ClientConnection] = []
        for (index, client) in served.enumerated() {
            let at = ready.startIndex + 1 + index
            let events = at < ready.endIndex && ready[at].fd == client.fd ? ready[at].revents : 0
            if events == 0 || serve(client, events: events, at: now, answer: answer) {
                keep.append(client)
            } else {
                try? system.close(client.fd)
                acceptPaused = false
            }
        }
        clients = keep
        if let first = ready.first, first.fd == listener, first.revents != 0 { acceptClients(at: now) }
    }

    /// Accepts every waiting client; past the limit a client gets an error reply and is closed.
    func acceptClients(at now: Double) {
        while true {
            let fd: Int32
            do {
                fd = try system.accept(listener, flags: Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            } catch {
                switch error.rawValue {
                case ECONNABORTED:
                    continue
                case EMFILE, ENFILE:
                    log("out of file descriptors with \(clients.count) clients; new connections wait until one leaves")
                    acceptPaused = true
                case EAGAIN, EWOULDBLOCK:
                    break
                default:
                    log("accepting a control client failed: \(error)")
                }
                return
            }
            if clients.count >= ClientServer.maxClients,
               let idle = ClientConnection.evictable(clients, at: now, after: ClientServer.evictIdleAfter) {
                let note = Reply.error("closed: idle while all \(ClientServer.maxClients) places were taken; reconnect to send more").jsonLine + "\n"
                _ = system.sendAvailable(idle.fd, Array(note.utf8)[...], socket: true)
                try? system.close(idle.fd)
                clients.removeAll { $0 === idle }
            }
            guard clients.count < ClientServer.maxClients else {
                // Marked busy so the client can say "try again" (exit 69) rather than fail.
                let reply = #"{"ok":false,"busy":true,"error":"busy: too many clients ("# + "\(ClientServer.maxClients)"
                    + #" connected and active); try again in a moment"}"# + "\n"
                _ = system.sendAvailable(fd, Array(reply.utf8)[...], socket: true)
                try? system.close(fd)
                continue
            }
            clients.append(ClientConnection(fd: fd, at: now))
        }
    }

    /// Reads what a client sent and answers each complete line; false when it should be closed.
    /// A read error (ECONNRESET, EIO) is not an end of file: it closes this client, logged once.
    func serve(_ client: ClientConnection, events: Int16, at now: Double, answer: Answer) -> Bool {
        if events & Int16(POLLNVAL) != 0 { return false }
        if client.wantsInput, events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let lines: [LineBuffer.Event]
            switch system.readAvailable(client.fd, into: &buffer) {
            case .data(let n):
                client.lastActive = now
                lines = client.lines.append(buffer[0..<n])
            case .endOfFile:
                client.lastActive = now
                client.readClosed = true
                lines = client.lines.finish()
            case .wouldBlock:
                lines = []
            case .failed(let error):
                log("control client on descriptor \(client.fd): reading failed (\(error)); closed it")
                return false
            }
            for line in lines {
                switch line {
                case .line(let text): if let reply = answer(text, now) { client.queue(reply) }
                case .tooLong: client.queue(ClientServer.tooLongReply)
                }
            }
        }
        guard flush(client, at: now) else { return false }
        return !(client.readClosed && client.outgoing.isEmpty)
    }

    /// Sends what the client's socket takes now; false when the client has gone. A full socket
    /// (EAGAIN) keeps the rest queued for the next POLLOUT.
    func flush(_ client: ClientConnection, at now: Double) -> Bool {
        guard !client.outgoing.isEmpty else { return true }
        switch system.sendAvailable(client.fd, client.outgoing[...], socket: true) {
        case .sent(let n):
            if n > 0 { client.lastActive = now }
            client.outgoing.removeFirst(n)
            return true
        case .failed(let error):
            // A client that hung up without reading its reply is ordinary; anything else is said.
            if error.rawValue != EPIPE && error.rawValue != ECONNRESET {
                log("control client on descriptor \(client.fd): sending failed (\(error)); closed it")
            }
            return false
        }
    }

    /// When the next silent client is to be closed; nil without clients.
    var nextIdleDeadline: Double? {
        clients.map { $0.lastActive }.min().map { $0 + ClientServer.clientIdleTimeout }
    }

    /// Closes clients silent for `clientIdleTimeout`, telling them why.
    func closeIdleClients(at now: Double) {
        let idle = clients.filter { $0.isIdle(since: now - ClientServer.clientIdleTimeout) }
        guard !idle.isEmpty else { return }
        for client in idle {
            let note = Reply.error("closed after \(Int(ClientServer.clientIdleTimeout)) s without a request; reconnect to send more").jsonLine + "\n"
            _ = system.sendAvailable(client.fd, Array(note.utf8)[...], socket: true)
            try? system.close(client.fd)
        }
        clients.removeAll { client in idle.contains { $0 === client } }
        acceptPaused = false
    }

    /// Sends what is queued, closes every client and the listener, and removes the socket's name.
    func close(at now: Double) {
        for client in clients {
            _ = flush(client, at: now)
            try? system.close(client.fd)
        }
        clients = []
        try? system.close(listener)
        try? system.unlink(path)
    }
}
