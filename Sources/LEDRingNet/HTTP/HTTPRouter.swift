import LEDRingControl
import LEDJSON
import RingModel

/// The JSON API and the page, as a pure function of a request and a `RingControl`; the server
/// only moves bytes (and streams events, which the router hands back as `.events`).
public struct HTTPRouter: Sendable {
    /// What a request becomes.
    public enum Outcome: Sendable, Equatable {
        /// Send this response.
        case response(HTTPResponse)
        /// Start a server-sent event stream of snapshots.
        case events
    }

    /// The rings.
    public let control: any RingControl
    /// The bearer token `/api` requests must carry, if any.
    public let token: String?
    /// Largest body accepted, bytes.
    public let maxBodyBytes: Int
    /// The host, origin and content-type checks every request passes first.
    public let requestGuard: RequestGuard
    /// The webhook routes under `/api/hooks/`, each with its own secret instead of `token`.
    public let webhooks: Webhooks

    /// A router over `control`.
    public init(control: any RingControl, token: String?, maxBodyBytes: Int = 16 * 1024,
                requestGuard: RequestGuard = RequestGuard(address: "127.0.0.1"), webhooks: Webhooks = Webhooks()) {
        self.control = control
        self.token = token
        self.maxBodyBytes = maxBodyBytes
        self.requestGuard = requestGuard
        self.webhooks = webhooks
    }

    /// Largest body read for a request to `path`: a webhook that is on takes
    /// `webhooks.maxBodyBytes` (GitHub's payloads are tens of kilobytes), the rest `maxBodyBytes`.
    public func maxBodyBytes(for path: String) -> Int {
        webhooks.isOn(path) ? max(maxBodyBytes, webhooks.maxBodyBytes) : maxBodyBytes
    }

    /// Answers one request.
    public func route(_ request: HTTPRequest) -> Outcome {
        if let refusal = requestGuard.refusal(request) { return .response(refusal) }
        let path = request.path
        if path == "/" || path == "/index.html" {
            guard isRead(request.method) else { return .response(notAllowed("GET")) }
            return .response(HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(WebPage.html.utf8),
                                          headers: WebPage.headers))
        }
        guard path == "/api" || path.hasPrefix("/api/") else {
            return .response(.error(404, "no such page: \(shown(path)); the page is / and the API is under /api"))
        }
        // Webhooks carry their own secrets (GitHub cannot send the API's token).
        if path.hasPrefix(Webhooks.prefix) { return .response(webhooks.route(request, control: control)) }
        if let token, !authorised(request, token: token) {
            let fix = request.accessToken != nil && !isEventStream(request)
                ? "?access_token= is accepted only by GET /api/events (EventSource cannot send headers); send Authorization: Bearer <token>"
                : "send Authorization: Bearer <token>"
            return .response(.error(401, "this API needs a token: \(fix)",
                                    headers: ["WWW-Authenticate": "Bearer realm=\"ledring\""]))
        }
        guard request.body.count <= maxBodyBytes else {
            return .response(.error(413, "body is \(request.body.count) bytes; at most \(maxBodyBytes) are accepted"))
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        switch parts {
        case ["state"]:
            guard isRead(request.method) else { return .response(notAllowed("GET")) }
            return .response(.snapshot(control.snapshot()))
        case ["events"]:
            guard isRead(request.method) else { return .response(notAllowed("GET")) }
            return .events
        case ["reset"]:
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in .defaultReset })
        case ["brightness"]:
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in .brightness(try brightness(request.body)) })
        case ["power"]:
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in .power(try power(request.body)) })
        case ["rings"]:
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in try setMany(request.body) })
        case let p where p.count == 2 && p[0] == "rings":
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in try SetCommand.parse(request.body, ring: p[1]).request(ring: p[1]) })
        case ["notify"]:
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in try notify(request.body) })
        case let p where p.count == 3 && p[0] == "rings" && p[2] == "look":
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in .look(rings: [p[1]], name: try lookName(request.body)) })
        case let p where p.count == 3 && p[0] == "rings" && p[2] == "power":
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in
                let (on, duration) = try power(request.body, durationAllowed: true)
                return .light(rings: [p[1]], on: on, duration: duration)
            })
        case let p where p.count == 3 && p[0] == "rings" && p[2] == "timer":
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in try timer(request.body, ring: p[1]) })
        case let p where p.count == 3 && p[0] == "rings" && (p[2] == "spin" || p[2] == "stop"):
            guard request.method == "POST" else { return .response(notAllowed("POST")) }
            return .response(apply { () throws(RequestError) in p[2] == "spin" ? .spin(rings: [p[1]]) : .stop(rings: [p[1]]) })
        default:
            return .response(.error(404, "no such API route: \(shown(path)); see GET /api/state, POST /api/rings/<ring>, POST /api/reset"))
        }
    }

    /// Submits the request `make` reads from the body; answers with the snapshot after it, or
    /// the refusal: 404 for a ring there is not, 503 while the rings cannot take requests, else 400.
    private func apply(_ make: () throws(RequestError) -> Request) -> HTTPResponse {
        do {
            try control.submit(try make())
            return .snapshot(control.snapshot())
        } catch {
            return HTTPRouter.refusal(error)
        }
    }

    /// A refused request's answer: 404 for a ring there is not, 503 while the rings cannot take
    /// requests, else 400.
    static func refusal(_ error: RequestError) -> HTTPResponse {
        switch error.kind {
        case .unknownRing, .notShowing: return .error(404, error.message)
        case .unavailable: return .error(503, error.message)
        case .invalid: return .error(400, error.message)
        }
    }

    /// `{"values":{"move":0.5,…},"duration":1,"curve":"spring"}`: several rings in one transition.
    private func setMany(_ body: [UInt8]) throws(RequestError) -> Request {
        let object = try JSONObject.parse(body)
        try object.onlyKeys(["values", "duration", "curve"])
        guard let raw = object["values"]?.members, !raw.isEmpty else {
            throw RequestError("send {\"values\":{\"move\":0.5,\"stand\":\"80%\"}} with at least one ring")
        }
        var values: [String: Request.RingValueUpdate] = [:]
        for member in raw.pairs { values[member.key] = try SetCommand.parseUpdate(member.value, ring: member.key) }
        var rest = object.members
        rest["values"] = nil
        rest["value"] = .number(0)
        let timing = try SetCommand.parse(object: JSONObject(members: rest))
        return .set(values, duration: timing.duration ?? 0, curve: timing.curve ?? .easeInOut)
    }

    /// `failed` or `{"look":"failed"}`.
    private func lookName(_ body: [UInt8]) throws(RequestError) -> String {
        let text = String(decoding: body, as: UTF8.self).trimmingWhitespace()
        guard text.hasPrefix("{") else { return text }
        let object = try JSONObject.parse(body)
        try object.onlyKeys(["look"])
        guard case .string(let name)? = object["look"] else { throw RequestError("send {\"look\":\"failed\"} or the name alone") }
        return name
    }

    /// The socket's notify object without `verb`: `{"rings":["build"],"look":"failed","for":"30s"}`.
    private func notify(_ body: [UInt8]) throws(RequestError) -> Request {
        let object = try JSONObject.parse(body)
        try object.onlyKeys((Request.jsonKeys["notify"] ?? []).filter { $0 != "verb" })
        return try Request.parseNotifyJSON(object.members)
    }

    /// `{"duration":"25m","up":false,"then":"done","notify":{"look":"done","for":"1m"}}` or `{"action":"pause"}`.
    private func timer(_ body: [UInt8], ring: String) throws(RequestError) -> Request {
        let object = try JSONObject.parse(body)
        try object.onlyKeys(["duration", "up", "then", "notify", "action"])
        var members = object.members
        members["ring"] = .string(ring)
        return try Request.parseTimerJSON(members)
    }

    private func brightness(_ body: [UInt8]) throws(RequestError) -> Double {
        let text = String(decoding: body, as: UTF8.self).trimmingWhitespace()
        guard text.hasPrefix("{") else { return try SetCommand.parseBrightness(.string(text)) }
        let object = try JSONObject.parse(body)
        try object.onlyKeys(["value"])
        guard let raw = object["value"] else { throw RequestError("send {\"value\":0.5} or 50%") }
        return try SetCommand.parseBrightness(raw)
    }

    private func power(_ body: [UInt8]) throws(RequestError) -> Bool {
        try power(body, durationAllowed: false).on
    }

    /// `on`, `off`, or `{"on":false}`; for one ring also `{"on":false,"duration":2}` (the fade).
    private func power(_ body: [UInt8], durationAllowed: Bool) throws(RequestError) -> (on: Bool, duration: Double) {
        let text = String(decoding: body, as: UTF8.self).trimmingWhitespace()
        switch text.lowercased() {
        case "on", "true", "1": return (true, 0)
        case "off", "false", "0": return (false, 0)
        default: break
        }
        let object = try JSONObject.parse(body)
        try object.onlyKeys(durationAllowed ? ["on", "duration"] : ["on"])
        guard let on = object["on"]?.bool else {
            throw RequestError(durationAllowed ? "send {\"on\":false,\"duration\":2}, on or off" : "send {\"on\":true} or {\"on\":false}")
        }
        let duration = try object["duration"].map { (raw) throws(RequestError) in try Request.duration(raw, name: "duration") } ?? 0
        return (on, duration)
    }

    /// `Authorization: Bearer <token>` (the scheme in any case, RFC 9110 §11.1); the
    /// `access_token` query parameter only for the event stream, which EventSource cannot give a
    /// header (a token in a URL ends up in logs and history, so nothing that changes state takes it).
    private func authorised(_ request: HTTPRequest, token: String) -> Bool {
        if let header = request.authorization {
            let parts = header.trimmingWhitespace().split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer",
               HTTPRouter.constantTimeEqual(parts[1].trimmingWhitespace(), token) { return true }
        }
        if isEventStream(request), let query = request.accessToken, HTTPRouter.constantTimeEqual(query, token) { return true }
        return false
    }

    private func isEventStream(_ request: HTTPRequest) -> Bool {
        request.path == "/api/events" && isRead(request.method)
    }

    /// Compares without stopping at the first difference, so response times do not leak how much
    /// of a guessed token was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        SHA256.constantTimeEqual(Array(a.utf8), Array(b.utf8))
    }

    private func isRead(_ method: String) -> Bool { method == "GET" || method == "HEAD" }

    private func notAllowed(_ allowed: String) -> HTTPResponse {
        let allow = allowed == "GET" ? "GET, HEAD" : allowed
        return .error(405, "method not allowed here; use \(allowed)", headers: ["Allow": allow])
    }

    /// A path for a message, shortened so a huge URL does not make a huge reply.
    private func shown(_ path: String) -> String {
        LogText.escaped(path)
    }
}
