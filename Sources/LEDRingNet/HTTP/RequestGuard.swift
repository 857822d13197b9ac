import Glibc
import LEDRingControl
import RingModel

/// The checks every request passes before it is routed, against other web pages and DNS
/// rebinding: a `Host` that names this server, an `Origin` that is the page's own on anything that
/// changes state, a JSON content type on JSON bodies, and no ambiguous framing headers.
///
/// A browser always sends `Origin` on a cross-origin POST and cannot forge `Host`; a page on
/// another site that rebinds its own name to 127.0.0.1 still sends its own name as `Host`. Clients
/// that are not browsers (curl, scripts) send no `Origin` and pass.
public struct RequestGuard: Sendable {
    /// The address the server listens on (`127.0.0.1`, `0.0.0.0`, `::1`, …).
    public let address: String
    /// Extra host names the server answers to (lower case), from `http.hosts`.
    public let names: Set<String>

    /// A guard for a server on `address` that also answers to `names`.
    public init(address: String, names: [String] = []) {
        self.address = address
        self.names = Set(names.map { $0.lowercased() })
    }

    /// The refusal for `request`, or nil when it may be routed.
    public func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        for name in ["content-length", "host", "transfer-encoding", "origin", "content-type", "authorization"]
        where (request.headers[name]?.count ?? 0) > 1 {
            return .error(400, "the \(HTTPRequest.displayName(name)) header was sent more than once; send it once")
        }
        if request.header("content-length") != nil && request.header("transfer-encoding") != nil {
            return .error(400, "send Content-Length or Transfer-Encoding, not both")
        }
        guard let host = request.header("host") else {
            if request.version == "HTTP/1.1" { return .error(400, "HTTP/1.1 requests need a Host header") }
            return originRefusal(request, host: nil)
        }
        guard allows(host: host) else {
            return .error(421, "Host \(RequestGuard.shown(host)) is not a name of this server; use its address (\(address)) or localhost, "
                               + "or add the name to \"hosts\" in the http section of the config")
        }
        return originRefusal(request, host: host)
    }

    private func originRefusal(_ request: HTTPRequest, host: String?) -> HTTPResponse? {
        guard request.method != "GET" && request.method != "HEAD" else { return nil }
        if let site = request.header("sec-fetch-site")?.lowercased(), site != "same-origin" && site != "none" {
            return .error(403, "refused a \(site) request: the API takes changes only from its own page (or from clients that are not browsers)")
        }
        if let origin = request.header("origin") {
            // https too: the page's own origin as seen through a TLS reverse proxy that keeps Host.
            guard let host, ["http://", "https://"].contains(where: { origin.lowercased() == $0 + host.lowercased() }) else {
                return .error(403, "refused a request from \(RequestGuard.shown(origin)): the API takes changes only from its own page"
                                   + (host.map { " (http://\(RequestGuard.shown($0)))" } ?? ""))
            }
        }
        if RequestGuard.looksLikeJSON(request.body), !RequestGuard.isJSON(request.header("content-type")) {
            return .error(415, "a JSON body needs Content-Type: application/json, got "
                               + (request.header("content-type").map(RequestGuard.shown) ?? "none"))
        }
        return nil
    }

    /// Whether `host` (a `Host` header: name or address, optional port) names this server: an IP
    /// address (no name to rebind), `localhost`, or one of `names`.
    public func allows(host: String) -> Bool {
        let name = RequestGuard.stripPort(host).lowercased()
        if name == "localhost" || name == "localhost." || names.contains(name) { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// `host` without `:port`; `[::1]:8080` gives `::1`.
    static func stripPort(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<end])
        }
        if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon { return String(host[..<colon]) }
        return host
    }

    /// Whether a body is JSON text (an object or array, after any whitespace).
    static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        let first = body.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Whether a content type is `application/json` or a `+json` type (parameters allowed).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// A header value for a message: control characters escaped, at most 80 characters.
    static func shown(_ value: String) -> String {
        LogText.escaped(value, limit: 80)
    }
}
