import Glibc
import LEDRingControl

extension Daemon {
    /// Binds and listens on `path` with `mode`. A stale socket from a crashed daemon is replaced;
    /// a live one (another daemon answers) or a non-socket file is left alone and reported.
    static func listen(on path: String, mode: UInt32) throws(SystemError) -> Int32 {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError(operation: "creating the control socket", path: path, code: EEXIST,
                                  fix: "that file is not a socket; remove it or choose another --socket")
            }
            if case .success(let fd) = Posix.connect(to: path) {
                close(fd)
                throw SystemError(operation: "creating the control socket", path: path, code: EADDRINUSE,
                                  fix: "another ledring is already running there; stop it (ledring status shows it) or choose another --socket")
            }
            unlink(path)
        }
        let directory = Posix.directory(of: path)
        if access(directory, F_OK) != 0 { Posix.makeDirectories(directory, mode: 0o755) }
        let fd = Posix.unixSocket()
        guard fd >= 0 else { throw .current("creating the control socket", path: path) }
        // Bind with a tight umask so the socket is never briefly open to others, then set the mode.
        let previous = umask(0o177)
        let bound = Posix.withSocketAddress(path) { bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0 else {
            let failure = bound == nil ? SystemError(operation: "binding the control socket", path: path, code: ENAMETOOLONG)
                : SystemError.current("binding the control socket", path: path,
                                      fix: "check that \(directory) exists and is writable for this user, or choose another --socket")
            close(fd)
            throw failure
        }
        guard chmod(path, mode_t(mode)) == 0, Glibc.listen(fd, 64) == 0 else {
            let failure = SystemError.current("listening on the control socket", path: path)
            close(fd)
            unlink(path)
            throw failure
        }
        Posix.setNonBlocking(fd)
        return fd
    }

    /// Accepts every waiting client; past the limit a client gets an error reply and is closed.
    func acceptClients() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE {
                    Log.info("out of file descriptors with \(clients.count) clients; new connections wait until one leaves")
                    acceptPaused = true
                }
                return
            }
            // accept4 is not visible from Swift's Glibc module; one thread, so no exec can race.
            Posix.setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let now = Posix.monotonicNow()
            if clients.count >= Daemon.maxClients,
               let idle = ClientConnection.evictable(clients, at: now, after: Daemon.evictIdleAfter) {
                let note = Reply.error("closed: idle while all \(Daemon.maxClients) places were taken; reconnect to send more").jsonLine + "\n"
                _ = Posix.write(idle.fd, Array(note.utf8)[...], socket: true)
                close(idle.fd)
                clients.removeAll { $0 === idle }
            }
            guard clients.count < Daemon.maxClients else {
                // Marked busy so the client can say "try again" (exit 69) rather than fail.
                let reply = #"{"ok":false,"busy":true,"error":"busy: too many clients ("# + "\(Daemon.maxClients)"
                    + #" connected and active); try again in a moment"}"# + "\n"
                _ = Posix.write(fd, Array(reply.utf8)[...], socket: true)
                close(fd)
                continue
            }
            clients.append(ClientConnection(fd: fd, at: now))
        }
    }

    /// Reads what a client sent and answers each complete line; false when it should be closed.
    func serve(_ client: ClientConnection, events: Int16, at now: Double) -> Bool {
        if events & Int16(POLLNVAL) != 0 { return false }
        if client.wantsInput, events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            if let n = Posix.read(client.fd, into: &buffer) {
                client.lastActive = now
                let lines: [LineBuffer.Event]
                if n == 0 {
                    client.readClosed = true
                    lines = client.lines.finish()
                } else {
                    lines = client.lines.append(buffer[0..<n])
                }
                for line in lines {
                    if let reply = handle(line, at: now) { client.queue(reply) }
                }
            }
        }
        guard client.flush() else { return false }
        return !(client.readClosed && client.outgoing.isEmpty)
    }

    /// The reply to one input line, or nil for a blank line; applies the request.
    func handle(_ event: LineBuffer.Event, at now: Double) -> String? {
        switch event {
        case .tooLong:
            return Reply.error("request line longer than \(Request.maxLineBytes) bytes; send one request per line").jsonLine
        case .line(let text):
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
            let request: Request
            do {
                request = try Request.parse(text)
            } catch {
                return Reply.error(error.message).jsonLine
            }
            // The status reads the controller, so it is built before `apply` mutates it.
            if request == .status { return Reply.status(status(at: now)).jsonLine }
            let outcome = controller.apply(request, at: now, status: { status(at: now) })
            if outcome.changed {
                needsFrame = true
                if case .power = request {} else { stateDirty = true }
            }
            followPower(at: now, by: "socket request")
            return outcome.reply.jsonLine
        }
    }

    /// Closes clients silent for `clientIdleTimeout`, telling them why.
    func closeIdleClients(at now: Double) {
        let idle = clients.filter { $0.isIdle(since: now - Daemon.clientIdleTimeout) }
        guard !idle.isEmpty else { return }
        for client in idle {
            let note = Reply.error("closed after \(Int(Daemon.clientIdleTimeout)) s without a request; reconnect to send more").jsonLine + "\n"
            _ = Posix.write(client.fd, Array(note.utf8)[...], socket: true)
            close(client.fd)
        }
        clients.removeAll { client in idle.contains { $0 === client } }
        acceptPaused = false
    }

    /// Reads standard input (`--stdin`): the same requests, errors logged instead of answered.
    func readStandardInput(at now: Double) {
        guard var lines = stdinLines else { return }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = Posix.read(STDIN_FILENO, into: &buffer) ?? 0
        let events = n == 0 ? lines.finish() : lines.append(buffer[0..<n])
        stdinLines = n == 0 ? nil : lines
        for event in events {
            stdinLineNumber += 1
            if let reply = handle(event, at: now), reply.hasPrefix("{\"ok\":false") {
                for line in stdinComplaints.admit("standard input line \(stdinLineNumber): \(reply)", at: now) { Log.info(line) }
            }
        }
        if n == 0 { Log.info("standard input closed; still serving \(socketPath)") }
    }
}
