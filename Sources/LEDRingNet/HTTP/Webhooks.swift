import RingModel
import LEDJSON
import LEDRingControl

/// The webhook routes with their secrets read: `POST /api/hooks/github` and
/// `POST /api/hooks/alertmanager`. Each answers 404 until configured, and takes a request only
/// with its own secret (never the API's token), checked before the body is looked at.
public struct Webhooks: Sendable {
    /// The GitHub build light and the key its deliveries are signed with.
    public var github: (settings: WebhookSettings.GitHub, secret: [UInt8])?
    /// The Alertmanager route and the bearer token it must carry.
    public var alertmanager: (settings: WebhookSettings.Alertmanager, token: String)?
    /// Largest body a configured webhook route reads.
    public var maxBodyBytes: Int

    /// Where the routes live.
    public static let prefix = "/api/hooks/"

    /// No webhooks.
    public init() { maxBodyBytes = WebhookSettings().maxBodyBytes }

    /// The webhooks of `settings` with their secrets (inline, else read from their files now, so
    /// a missing file stops the daemon at start-up rather than failing every delivery).
    public init(_ settings: WebhookSettings) throws(HTTPServerError) {
        maxBodyBytes = settings.maxBodyBytes
        if let g = settings.github {
            github = (g, Array(try Webhooks.secret(g.secret, file: g.secretFile, setting: "http.webhooks.github.secretFile").utf8))
        }
        if let a = settings.alertmanager {
            alertmanager = (a, try Webhooks.secret(a.token, file: a.tokenFile, setting: "http.webhooks.alertmanager.tokenFile"))
        }
    }

    /// What `init` would refuse in `settings`, every secret file at once (for check-config).
    public static func problems(_ settings: WebhookSettings) -> [HTTPServerError] {
        var found: [HTTPServerError] = []
        if let g = settings.github {
            do throws(HTTPServerError) { _ = try secret(g.secret, file: g.secretFile, setting: "http.webhooks.github.secretFile") } catch { found.append(error) }
        }
        if let a = settings.alertmanager {
            do throws(HTTPServerError) { _ = try secret(a.token, file: a.tokenFile, setting: "http.webhooks.alertmanager.tokenFile") } catch { found.append(error) }
        }
        return found
    }

    private static func secret(_ inline: String?, file: String?, setting: String) throws(HTTPServerError) -> String {
        if let inline { return inline }
        guard let file else { throw .secretFile(setting: setting, path: "", reason: "is not given") }
        do throws(SecretFile.Problem) { return try SecretFile.firstLine(file) } catch {
            throw .secretFile(setting: setting, path: file, reason: error.reason)
        }
    }

    /// Whether `path` is a webhook route that is switched on (it may read `maxBodyBytes`).
    public func isOn(_ path: String) -> Bool {
        (path == Webhooks.prefix + "github" && github != nil) || (path == Webhooks.prefix + "alertmanager" && alertmanager != nil)
    }

    /// Answers a request under `/api/hooks/`.
    func route(_ request: HTTPRequest, control: any RingControl) -> HTTPResponse {
        let name = String(request.path.dropFirst(Webhooks.prefix.count))
        switch name {
        case "github":
            guard let github else {
                return .error(404, "the GitHub webhook is off; turn it on with \"webhooks\": {\"github\": {\"secretFile\": …, \"ring\": …}} "
                                   + "in the http section of the config")
            }
            if let refusal = refusal(request) { return refusal }
            return GitHubHook(settings: github.settings, secret: github.secret).handle(request, control: control)
        case "alertmanager":
            guard let alertmanager else {
                return .error(404, "the Alertmanager webhook is off; turn it on with \"webhooks\": {\"alertmanager\": {\"tokenFile\": …}} "
                                   + "in the http section of the config")
            }
            if let refusal = refusal(request) { return refusal }
            return AlertmanagerHook(settings: alertmanager.settings, token: alertmanager.token).handle(request, control: control)
        default:
            return .error(404, "no such webhook: \(LogText.escaped(request.path)); the webhooks are POST \(Webhooks.prefix)github "
                               + "and POST \(Webhooks.prefix)alertmanager")
        }
    }

    private func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "POST" else {
            return .error(405, "method not allowed here; use POST", headers: ["Allow": "POST"])
        }
        guard request.body.count <= maxBodyBytes else {
            return .error(413, "body is \(request.body.count) bytes; at most \(maxBodyBytes) are accepted (http.webhooks.maxBodyBytes)")
        }
        return nil
    }

    /// Submits `requests` in order; the snapshot after them, or the first refusal. Ending a
    /// notification that is not showing is no refusal here: Alertmanager sends a resolved alert
    /// again with every delivery of its group, and one may have run out its time already.
    static func submit(_ requests: [Request], to control: any RingControl) -> HTTPResponse {
        do throws(RequestError) {
            for request in requests {
                do throws(RequestError) {
                    try control.submit(request)
                } catch where error.kind == .notShowing {
                    continue
                }
            }
            return .snapshot(control.snapshot())
        } catch {
            return HTTPRouter.refusal(error)
        }
    }

    /// 202 with what was not acted on and why: the sender sees it in its delivery log.
    static func ignored(_ why: String) -> HTTPResponse {
        let body = JSONValue.object([("ignored", .string(why))]).jsonText + "\n"
        return HTTPResponse(status: 202, contentType: "application/json", body: Array(body.utf8))
    }

    /// The body as a JSON object, or the 400 saying it is not one.
    static func object(_ body: [UInt8]) -> Result<JSONValue, HTTPResponseError> {
        do throws(JSONSyntaxError) {
            let value = try JSONValue.parse(body)
            guard value.members != nil else { return .failure(HTTPResponseError(.error(400, "the body must be a JSON object, got \(value.kind)"))) }
            return .success(value)
        } catch {
            return .failure(HTTPResponseError(.error(400, "the body is not valid JSON (\(error))")))
        }
    }
}

/// A response carried as an error.
struct HTTPResponseError: Error {
    var response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// GitHub's `workflow_run` and `check_suite` deliveries, signed with the webhook's secret
/// (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`): a run queued or in progress
/// spins the ring (or shows the `running` look); a finished one shows its conclusion's look.
struct GitHubHook {
    var settings: WebhookSettings.GitHub
    var secret: [UInt8]

    func handle(_ request: HTTPRequest, control: any RingControl) -> HTTPResponse {
        // Nothing is read from the body before its signature is checked.
        if let refusal = signatureRefusal(request) { return refusal }
        guard let event = request.header("x-github-event") else {
            return .error(400, "no X-GitHub-Event header; this route takes GitHub's webhook deliveries")
        }
        if event == "ping" {
            let body = JSONValue.object([("ok", .string("pong: the signature matches; ledring acts on workflow_run and check_suite events"))])
            return HTTPResponse(status: 200, contentType: "application/json", body: Array((body.jsonText + "\n").utf8))
        }
        guard event == "workflow_run" || event == "check_suite" else {
            return Webhooks.ignored("\(LogText.escaped(event, limit: 40)) events change nothing; send workflow_run or check_suite")
        }
        if !RequestGuard.isJSON(request.header("content-type")) {
            return .error(415, "send the payload as JSON: set the webhook's Content type to application/json in GitHub")
        }
        let payload: JSONValue
        switch Webhooks.object(request.body) {
        case .success(let value): payload = value
        case .failure(let error): return error.response
        }
        guard let subject = payload[event], subject.members != nil else {
            return .error(400, "a \(event) delivery must have a \"\(event)\" object")
        }
        let status = subject["status"]?.string ?? payload["action"]?.string ?? ""
        let branch = subject["head_branch"]?.string
        if !settings.workflows.isEmpty {
            guard event == "workflow_run" else {
                return Webhooks.ignored("check_suite events name no workflow, and only workflows \(settings.workflows.joined(separator: ", ")) are shown")
            }
            let name = subject["name"]?.string ?? ""
            guard settings.workflows.contains(name) else {
                return Webhooks.ignored("workflow \"\(LogText.escaped(name, limit: 60))\" is not one of \(settings.workflows.joined(separator: ", "))")
            }
        }
        if !settings.branches.isEmpty {
            guard let branch, settings.branches.contains(branch) else {
                return Webhooks.ignored("branch \"\(LogText.escaped(branch ?? "", limit: 60))\" is not one of \(settings.branches.joined(separator: ", "))")
            }
        }
        let ring = settings.ring
        switch status {
        case "queued", "in_progress", "requested", "waiting", "pending":
            if settings.running == "spin" {
                // The spinner over the ring's own look, not over the last run's result.
                return Webhooks.submit([.look(rings: [ring], name: "default"), .spin(rings: [ring])], to: control)
            }
            return Webhooks.submit([.stop(rings: [ring]), .look(rings: [ring], name: settings.running)], to: control)
        case "completed":
            let conclusion = subject["conclusion"]?.string ?? ""
            var requests: [Request] = [.stop(rings: [ring])]
            if let look = settings.look(for: conclusion) {
                requests.append(.look(rings: [ring], name: look))
            } else {
                requests.append(.look(rings: [ring], name: "default"))
            }
            return Webhooks.submit(requests, to: control)
        default:
            return Webhooks.ignored("status \"\(LogText.escaped(status, limit: 40))\" changes nothing")
        }
    }

    /// 401 unless `X-Hub-Signature-256` is the body's HMAC-SHA256 with the secret.
    func signatureRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        var visited = 0
        return signatureRefusal(request, visited: &visited)
    }

    /// `signatureRefusal`, counting the bytes the compare looked at: the tests check it is every
    /// one, however early the first difference (a plain `==` stops there, and how soon it answers
    /// tells an attacker how much of a forged signature was right).
    func signatureRefusal(_ request: HTTPRequest, visited: inout Int) -> HTTPResponse? {
        let values = request.headers["x-hub-signature-256"] ?? []
        guard values.count == 1, let header = values.first else {
            return .error(401, values.isEmpty
                          ? "no X-Hub-Signature-256 header: give the webhook in GitHub the same secret as http.webhooks.github"
                          : "X-Hub-Signature-256 was sent more than once; send it once")
        }
        let expected = Array(("sha256=" + SHA256.hex(SHA256.hmac(key: secret, message: request.body))).utf8)
        guard SHA256.constantTimeEqual(Array(header.trimmingWhitespace().lowercased().utf8), expected, visited: &visited) else {
            return .error(401, "X-Hub-Signature-256 does not match the body: the webhook's secret in GitHub must be the one in http.webhooks.github")
        }
        return nil
    }
}

/// Alertmanager's webhook notifications (`webhook_configs`, version 4): each firing alert shows a
/// notification keyed by its fingerprint for as long as it fires (a day at most, renewed when
/// Alertmanager repeats it); a resolved one ends its own notification only.
struct AlertmanagerHook {
    var settings: WebhookSettings.Alertmanager
    var token: String

    /// Keys for notifications from Alertmanager begin with this.
    static let keyPrefix = "alertmanager "

    func handle(_ request: HTTPRequest, control: any RingControl) -> HTTPResponse {
        if let refusal = authorisationRefusal(request) { return refusal }
        let payload: JSONValue
        switch Webhooks.object(request.body) {
        case .success(let value): payload = value
        case .failure(let error): return error.response
        }
        guard let alerts = payload["alerts"]?.items else {
            return .error(400, "an Alertmanager notification has \"alerts\", a list; this route takes webhook_configs deliveries")
        }
        let groupStatus = payload["status"]?.string
        var requests: [Request] = []
        for (i, alert) in alerts.enumerated() {
            guard alert.members != nil else { return .error(400, "alerts[\(i)] must be an object, got \(alert.kind)") }
            let key = AlertmanagerHook.key(alert, group: payload["groupKey"]?.string, index: i)
            switch alert["status"]?.string ?? groupStatus {
            case "firing": requests.append(.notify(settings.notice(key: key)))
            case "resolved": requests.append(.endNotice(key: key))
            case let other:
                return .error(400, "alerts[\(i)].status must be firing or resolved, got \(LogText.escaped(other ?? "nothing", limit: 40))")
            }
        }
        return Webhooks.submit(requests, to: control)
    }

    /// An alert's notification key: its fingerprint, or when it has none (or an odd one) a hash
    /// of its group and labels, which identify an alert as well.
    static func key(_ alert: JSONValue, group: String?, index: Int) -> String {
        if let fingerprint = alert["fingerprint"]?.string, !fingerprint.isEmpty, fingerprint.utf8.count <= 64,
           fingerprint.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) {
            return keyPrefix + fingerprint
        }
        let labels = alert["labels"].map { $0.sortingKeys().jsonText } ?? "#\(index)"
        return keyPrefix + SHA256.hex(Array(SHA256.hash(Array(((group ?? "") + "\n" + labels).utf8)).prefix(8)))
    }

    /// 401 unless `Authorization: Bearer <token>` carries the configured token.
    func authorisationRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        var visited = 0
        return authorisationRefusal(request, visited: &visited)
    }

    /// `authorisationRefusal`, counting the bytes the compare looked at (as `GitHubHook`'s).
    func authorisationRefusal(_ request: HTTPRequest, visited: inout Int) -> HTTPResponse? {
        let parts = request.authorization?.trimmingWhitespace().split(separator: " ", maxSplits: 1) ?? []
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              SHA256.constantTimeEqual(Array(parts[1].trimmingWhitespace().utf8), Array(token.utf8), visited: &visited) else {
            return .error(401, "this webhook needs Authorization: Bearer <token> with http.webhooks.alertmanager's token "
                               + "(Alertmanager: http_config.authorization.credentials_file)",
                          headers: ["WWW-Authenticate": "Bearer realm=\"ledring webhooks\""])
        }
        return nil
    }
}
