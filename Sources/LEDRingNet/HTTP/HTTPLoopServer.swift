import Glibc
import LEDRingControl
import LEDSystem

/// The HTTP API, the live page and the webhooks on the daemon's poll loop: ledring's own
/// HTTP/1.1 server (`HTTPMessageReader` for the framing) instead of libmicrohttpd's threads, with
/// the full build's router, guard, page and webhooks (`HTTPRouter`, `HTTPServing`). The static
/// Embedded binaries run this one.
///
/// The loop, each turn: poll `pollRequests`, hand the entries to `handle(_:now:)`, call
/// `tick(now:)` (at `nextDeadline` at the latest; nil when nothing is timed, so an idle server
/// never wakes the daemon), `show(now:)` after every change of the picture. Every socket is
/// non-blocking and every call goes through the `SystemCalls` seam.
///
/// Requests are answered in order on each connection (pipelining); kept-alive connections are
/// closed after `idleTimeout` s of silence; who is served, who waits and who is cut when slow
/// or idle clients crowd the server is `HTTPRoom`'s (at most `maxConnections` served and 4 more
/// told 503 "busy", the oldest waiting connection cut to make room, one host's share, the header
/// and body deadlines, at most `maxEventStreams` event streams, each sending the newest snapshot
/// at most every `eventInterval` s).
///
/// When `submissions` is set (the daemon's queue of requests, applied between the loop's turns),
/// the answer to a request that queued something waits for the next `show`, so it carries the
/// picture after the change, as the full build's does.
public final class HTTPLoopServer {
    /// The settings it was made with.
    public let settings: HTTPSettings
    /// The routes (and through them the rings).
    public let router: HTTPRouter
    /// How many requests the control has queued so far (nil: it applies them as it takes them).
    public var submissions: (() -> Int)?
    /// The port it listens on (the kernel's choice when configured with 0); 0 before `start`.
    public private(set) var port = 0

    private let system: any SystemCalls
    private let log: (String) -> Void
    private var listener: Int32 = -1
    private var connections: [Connection] = []
    private var version: UInt64 = 0
    private var serial = 0

    /// What one connection is doing.
    private enum Phase {
        /// Reading requests (or waiting between them).
        case requests
        /// An answer waits for the next `show` (its request queued something); `snapshot` when
        /// its body is the picture, made again then.
        case held(HTTPResponse, keepAlive: Bool, head: Bool, snapshot: Bool, since: Double)
        /// An event stream: the version last sent, when the last event and the last byte went.
        case stream(seen: UInt64, lastEvent: Double, lastWrite: Double, chunked: Bool)
        /// The last answer is being written; then the connection closes.
        case closing
    }

    private final class Connection {
        let fd: Int32
        let number: Int
        var reader: HTTPMessageReader
        var phase = Phase.requests
        var output: [UInt8] = []
        var sent = 0
        /// The last time bytes moved either way (the idle and the stuck-writer deadlines).
        var lastActivity: Double
        /// Whether the room has been told the current request's headers are in.
        var started = false
        /// False once closed (it leaves the list at the next sweep; its number may be reused).
        var open = true

        init(fd: Int32, number: Int, now: Double, bodyLimit: @escaping (String) -> Int) {
            self.fd = fd
            self.number = number
            reader = HTTPMessageReader(bodyLimit: bodyLimit)
            lastActivity = now
        }

        var pending: Int { output.count - sent }
    }

    /// Who is served, who waits, who is cut (the rules, without sockets).
    public private(set) var room: HTTPRoom

    /// A server for `control`; reads the token and the webhooks' secrets now, so a bad file
    /// fails at start-up. Listens only once `start` is called.
    public init(settings: HTTPSettings, control: any RingControl, system: any SystemCalls,
                log: @escaping (String) -> Void) throws(HTTPServerError) {
        self.settings = settings
        self.system = system
        self.log = log
        router = try HTTPServing.router(settings, control: control)
        room = HTTPRoom(limit: settings.maxConnections, streamLimit: settings.maxEventStreams,
                        headerTimeout: Double(settings.headerTimeout), idleTimeout: Double(settings.idleTimeout))
    }

    /// Binds and listens on `settings.address` and `port`.
    public func start() throws(HTTPServerError) {
        guard listener < 0 else { return }
        guard let endpoint = IPEndpoint(numeric: settings.address, port: UInt16(settings.port)) else {
            throw .cannotListen(address: settings.address, port: settings.port, reason: "not an IPv4 or IPv6 address")
        }
        do throws(Errno) {
            let fd = try system.ipSocket(family: endpoint.family, kind: .stream, flags: O_NONBLOCK | O_CLOEXEC)
            do throws(Errno) {
                try system.setSocketOption(fd, .reuseAddress, true)
                if endpoint.isIPv6 { try system.setSocketOption(fd, .ipv6Only, true) }
                try system.bind(fd, to: endpoint)
                try system.listen(fd, backlog: 64)
                port = Int(try system.localEndpoint(fd).port)
            } catch {
                try? system.close(fd)
                throw error
            }
            listener = fd
        } catch {
            throw .cannotListen(address: settings.address, port: settings.port, reason: error.description)
        }
        for line in HTTPServing.startLines(settings, port: port, hasToken: router.token != nil) { log(line) }
    }

    /// Closes every connection and the listener.
    public func stop() {
        for connection in connections where connection.open { try? system.close(connection.fd) }
        connections.removeAll()
        room = HTTPRoom(limit: room.limit, streamLimit: room.streamLimit, headerTimeout: room.headerTimeout, idleTimeout: room.idleTimeout)
        if listener >= 0 { try? system.close(listener) }
        listener = -1
        port = 0
    }

    deinit { stop() }

    /// How many connections are open (event streams among them).
    public var connectionCount: Int { connections.count }

    /// The descriptors to poll: the listener, and each connection for reading (while it may
    /// read) and for writing (while it has bytes to send).
    public var pollRequests: [pollfd] {
        guard listener >= 0 else { return [] }
        var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        for connection in connections where connection.open {
            var events: Int32 = 0
            switch connection.phase {
            case .requests: events = POLLIN
            case .held: events = 0
            case .stream, .closing: events = POLLIN  // to notice the client leaving
            }
            if connection.pending > 0 { events |= POLLOUT }
            entries.append(pollfd(fd: connection.fd, events: Int16(events), revents: 0))
        }
        return entries
    }

    /// When `tick` has something to do: a header, body or idle deadline (the room's), a quiet
    /// connection's, an event stream's next event or keep-alive comment, a held answer's
    /// fallback; nil when nothing is timed (no connection).
    public var nextDeadline: Double? {
        var soonest = room.nextDeadline
        func consider(_ at: Double) { soonest = min(soonest ?? at, at) }
        for connection in connections where connection.open {
            switch connection.phase {
            case .requests, .closing:
                consider(connection.lastActivity + Double(settings.idleTimeout))
            case .held(_, _, _, _, let since):
                consider(since + HTTPLoopServer.heldFallback)
            case .stream(let seen, let lastEvent, let lastWrite, _):
                if seen != version && connection.pending == 0 { consider(lastEvent + settings.eventInterval) }
                consider(lastWrite + HTTPServing.eventKeepAlive)
                if connection.pending > 0 { consider(connection.lastActivity + Double(settings.idleTimeout)) }
            }
        }
        return soonest
    }

    /// Seconds a held answer waits for `show` at most (a daemon that applied nothing new).
    static let heldFallback: Double = 2

    /// Acts on what poll reported for the descriptors of `pollRequests` (others are ignored).
    public func handle(_ entries: ArraySlice<pollfd>, now: Double) {
        for entry in entries where entry.revents != 0 {
            if entry.fd == listener && listener >= 0 {
                accept(now: now)
            } else if let connection = connections.first(where: { $0.open && $0.fd == entry.fd }) {
                if entry.revents & Int16(POLLOUT) != 0 { write(connection, now: now) }
                if connection.open && entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(connection, now: now) }
            }
        }
        sweepClosed()
    }

    /// Runs what is due: deadlines, event streams' events and keep-alive comments.
    public func tick(now: Double) {
        for key in room.expired(at: now) {
            if let connection = connections.first(where: { $0.open && $0.number == key }) { close(connection) }
        }
        for connection in connections where connection.open {
            switch connection.phase {
            case .requests, .closing:
                // Silent this long (libmicrohttpd's connection timeout in the full build).
                if now >= connection.lastActivity + Double(settings.idleTimeout) { close(connection) }
            case .held(let response, let keepAlive, let head, let snapshot, let since):
                if now >= since + HTTPLoopServer.heldFallback {
                    release(connection, response, keepAlive: keepAlive, head: head, snapshot: snapshot, now: now)
                }
            case .stream:
                if connection.pending > 0 && now >= connection.lastActivity + Double(settings.idleTimeout) {
                    close(connection)  // a client that stopped reading
                } else {
                    stream(connection, now: now)
                }
            }
        }
        sweepClosed()
    }

    /// The picture changed: held answers go with it, event streams send it (at most every
    /// `eventInterval` s each).
    public func show(now: Double) {
        version &+= 1
        for connection in connections where connection.open {
            switch connection.phase {
            case .held(let response, let keepAlive, let head, let snapshot, _):
                release(connection, response, keepAlive: keepAlive, head: head, snapshot: snapshot, now: now)
            case .stream:
                stream(connection, now: now)
            case .requests, .closing:
                break
            }
        }
        sweepClosed()
    }

    // MARK: Connections

    private func accept(now: Double) {
        // A burst of connections is taken in one turn; the listener stays readable for the rest.
        for _ in 0..<16 {
            let fd: Int32
            do throws(Errno) { fd = try system.accept(listener, flags: O_NONBLOCK | O_CLOEXEC) } catch {
                if error.rawValue != EAGAIN && error.rawValue != EWOULDBLOCK && error.rawValue != ECONNABORTED {
                    log("accept failed: \(error.description)")
                }
                return
            }
            try? system.setSocketOption(fd, .noDelay, true)
            guard connections.count < settings.maxConnections + HTTPServing.busyReserve else {
                try? system.close(fd)
                continue
            }
            serial += 1
            let router = self.router
            let connection = Connection(fd: fd, number: serial, now: now, bodyLimit: { router.maxBodyBytes(for: $0) })
            connections.append(connection)
            let peer = (try? system.peerEndpoint(fd))?.address ?? []
            if let cut = room.opened(serial, peer: peer, at: now) { close(number: cut) }
        }
        sweepClosed()
    }

    private func read(_ connection: Connection, now: Double) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        switch system.readAvailable(connection.fd, into: &chunk) {
        case .data(let count):
            connection.lastActivity = now
            switch connection.phase {
            case .requests:
                connection.reader.append(chunk[0..<count])
                serve(connection, now: now)
            case .held:
                connection.reader.append(chunk[0..<count])  // pipelined: read once the answer went
            case .stream, .closing:
                break  // nothing more is read as a request
            }
        case .wouldBlock:
            break
        case .endOfFile, .failed:
            close(connection)
        }
    }

    /// Answers the requests the reader has, in order, until one waits or the connection closes.
    private func serve(_ connection: Connection, now: Double) {
        while connection.open, case .requests = connection.phase {
            let event = connection.reader.next()
            // Headers in (a body may follow): the room says whether it is served.
            if !connection.started, connection.reader.isReadingBody || event != nil {
                if case .refused? = event {} else {
                    connection.started = true
                    let (serve, cut) = room.started(connection.number, at: now)
                    if let cut { close(number: cut) }
                    guard serve else {
                        finish(connection, HTTPServing.busy(limit: settings.maxConnections), keepAlive: false, head: false, now: now)
                        return
                    }
                }
            }
            guard let event else { break }
            switch event {
            case .continueExpected:
                queue(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), now: now)
            case .refused(let response):
                finish(connection, response, keepAlive: false, head: false, now: now)
            case .request(let request, let keepAlive):
                room.bodyReceived(connection.number)
                connection.started = false
                answer(connection, request, keepAlive: keepAlive, now: now)
            }
        }
    }

    private func answer(_ connection: Connection, _ request: HTTPRequest, keepAlive: Bool, now: Double) {
        let head = request.method == "HEAD"
        let before = submissions?() ?? 0
        switch router.route(request) {
        case .response(let response):
            if let submissions, submissions() != before {
                let snapshot = response.status == 200 && response == HTTPResponse.snapshot(router.control.snapshot())
                connection.phase = .held(response, keepAlive: keepAlive, head: head, snapshot: snapshot, since: now)
            } else {
                finish(connection, response, keepAlive: keepAlive, head: head, now: now)
            }
        case .events:
            guard room.startStream(connection.number) else {
                finish(connection, HTTPServing.streamsBusy(limit: settings.maxEventStreams), keepAlive: false, head: head, now: now)
                return
            }
            let chunked = request.version == "HTTP/1.1"
            var text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            text += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"
            queue(connection, Array(text.utf8), now: now)
            if head {
                connection.phase = .closing
                return
            }
            connection.phase = .stream(seen: version, lastEvent: now, lastWrite: now, chunked: chunked)
            queue(connection, HTTPLoopServer.framed(HTTPServing.streamStart(router.control.snapshot()), chunked: chunked), now: now)
        }
    }

    /// Sends a held answer, with the picture as it is now when its body was the picture.
    private func release(_ connection: Connection, _ response: HTTPResponse, keepAlive: Bool, head: Bool, snapshot: Bool, now: Double) {
        connection.phase = .requests
        finish(connection, snapshot ? .snapshot(router.control.snapshot()) : response, keepAlive: keepAlive, head: head, now: now)
        serve(connection, now: now)  // requests pipelined behind it
    }

    private func finish(_ connection: Connection, _ response: HTTPResponse, keepAlive: Bool, head: Bool, now: Double) {
        let keep = keepAlive && !response.closesConnection
        room.finished(connection.number, at: now)
        queue(connection, response.wire(keepAlive: keep, head: head), now: now)
        if !keep { connection.phase = .closing }
        if connection.pending == 0, case .closing = connection.phase { close(connection) }
    }

    /// An event stream's turn: the newest picture when it changed and the throttle allows, else
    /// a keep-alive comment when it has been silent that long; nothing while it is still
    /// writing the last (a slow client gets the newest picture once it has caught up).
    private func stream(_ connection: Connection, now: Double) {
        guard case .stream(let seen, let lastEvent, let lastWrite, let chunked) = connection.phase, connection.pending == 0 else { return }
        if seen != version && now >= lastEvent + settings.eventInterval {
            connection.phase = .stream(seen: version, lastEvent: now, lastWrite: now, chunked: chunked)
            queue(connection, HTTPLoopServer.framed(HTTPServing.event(router.control.snapshot()), chunked: chunked), now: now)
        } else if now >= lastWrite + HTTPServing.eventKeepAlive {
            connection.phase = .stream(seen: seen, lastEvent: lastEvent, lastWrite: now, chunked: chunked)
            queue(connection, HTTPLoopServer.framed(HTTPServing.keepAliveComment, chunked: chunked), now: now)
        }
    }

    /// `bytes` as one chunk (RFC 9112 §7.1) or as they are.
    static func framed(_ bytes: [UInt8], chunked: Bool) -> [UInt8] {
        guard chunked else { return bytes }
        return Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
    }

    private func queue(_ connection: Connection, _ bytes: [UInt8], now: Double) {
        if connection.sent > 0 && connection.sent == connection.output.count {
            connection.output.removeAll(keepingCapacity: true)
            connection.sent = 0
        }
        connection.output += bytes
        write(connection, now: now)
    }

    private func write(_ connection: Connection, now: Double) {
        while connection.open && connection.pending > 0 {
            switch system.sendAvailable(connection.fd, connection.output[connection.sent...], socket: true) {
            case .sent(count: 0):
                return  // full: POLLOUT says when to go on
            case .sent(let count):
                connection.sent += count
                connection.lastActivity = now
            case .failed:
                close(connection)
                return
            }
        }
        guard connection.open else { return }
        connection.output.removeAll(keepingCapacity: true)
        connection.sent = 0
        if case .closing = connection.phase { close(connection) }
    }

    /// Closes `connection` now (it leaves the list at the next sweep). What the client sent
    /// after the last answer is read first, so closing does not reset the answer away.
    private func close(_ connection: Connection) {
        guard connection.open else { return }
        connection.open = false
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            guard case .data = system.readAvailable(connection.fd, into: &scratch) else { break }
        }
        try? system.close(connection.fd)
        room.closed(connection.number)
    }

    /// Closes the connection the room named.
    private func close(number: Int) {
        if let connection = connections.first(where: { $0.open && $0.number == number }) { close(connection) }
    }

    private func sweepClosed() {
        if connections.contains(where: { !$0.open }) { connections = connections.filter { $0.open } }
    }
}
