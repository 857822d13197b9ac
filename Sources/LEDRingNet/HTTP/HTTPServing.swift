import LEDRingControl

/// What both HTTP servers (`HTTPServer` on libmicrohttpd in the full build, `HTTPLoopServer` on
/// the daemon's poll loop in the static one) do the same way: read the token and the webhooks'
/// secrets, make the router, say where they listen and what is open, and report the files
/// check-config must see. Written once so the two cannot drift.
public enum HTTPServing {
    /// Connections accepted past `http.maxConnections`, only to be answered 503 "busy" (a reset
    /// connection tells a client nothing); more than that are closed at once.
    public static let busyReserve = 4

    /// Seconds without a change before an event stream gets a keep-alive comment (proxies and
    /// browsers drop streams that stay silent too long, and a dead client is noticed when the
    /// write fails).
    public static let eventKeepAlive: Double = 15

    /// The token (inline or from `tokenFile`, read now so a bad file fails at start-up).
    public static func token(_ settings: HTTPSettings) throws(HTTPServerError) -> String? {
        guard let path = settings.tokenFile else { return settings.token }
        do throws(SecretFile.Problem) { return try SecretFile.firstLine(path) } catch {
            throw .tokenFile(path: path, reason: error.reason)
        }
    }

    /// The router for `settings` over `control`, with the token and the webhooks' secrets read.
    public static func router(_ settings: HTTPSettings, control: any RingControl) throws(HTTPServerError) -> HTTPRouter {
        HTTPRouter(control: control, token: try token(settings), maxBodyBytes: settings.maxBodyBytes,
                   requestGuard: RequestGuard(address: settings.address, names: settings.hosts),
                   webhooks: try Webhooks(settings.webhooks))
    }

    /// What starting a server with `settings` would refuse in the files it names (the token and
    /// the webhooks' secrets), each with the message starting gives; for `ledring check-config`.
    public static func fileProblems(_ settings: HTTPSettings) -> [String] {
        var found: [String] = []
        do throws(HTTPServerError) { _ = try token(settings) } catch { found.append(error.description) }
        for problem in Webhooks.problems(settings.webhooks) { found.append(problem.description) }
        return found
    }

    /// The lines a server logs once it listens on `port`: where, and what is open to whom.
    public static func startLines(_ settings: HTTPSettings, port: Int, hasToken: Bool) -> [String] {
        let shown = settings.address.contains(where: { $0 == ":" }) ? "[\(settings.address)]" : settings.address
        var lines = ["listening on http://\(shown):\(port)/"]
        if !hasToken && !isLoopback(settings.address) {
            lines.append("warning: \(settings.address) is reachable from other machines and no token is set; anyone there can drive the LEDs")
        }
        if !isLoopback(settings.address) && settings.hosts.isEmpty {
            lines.append("answering to IP addresses and localhost only; to open the page by a name (raspberrypi.local), list it in http.hosts")
        }
        return lines
    }

    /// Whether `address` only reaches this machine.
    public static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }

    /// The 503 for a server that is full.
    static func busy(limit: Int) -> HTTPResponse {
        .error(503, "busy: \(limit) connections are open; try again in a moment", headers: ["Connection": "close", "Retry-After": "1"])
    }

    /// The 503 for an event stream past `http.maxEventStreams`.
    static func streamsBusy(limit: Int) -> HTTPResponse {
        .error(503, "busy: \(limit) live pages are already open (http.maxEventStreams); close one or try again later",
               headers: ["Connection": "close", "Retry-After": "5"])
    }

    /// An event stream's first bytes: how long a browser waits before reconnecting, then the picture.
    static func streamStart(_ snapshot: RingSnapshot) -> [UInt8] {
        Array("retry: 2000\n\n".utf8) + event(snapshot)
    }

    /// `event: snapshot` with the JSON on one `data:` line (the JSON has no newlines).
    static func event(_ snapshot: RingSnapshot) -> [UInt8] {
        Array("event: snapshot\ndata: ".utf8) + snapshot.jsonBytes() + Array("\n\n".utf8)
    }

    /// The comment an idle stream sends every `eventKeepAlive` seconds.
    static let keepAliveComment = Array(": keep-alive\n\n".utf8)
}
