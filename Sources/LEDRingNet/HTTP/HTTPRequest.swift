/// One HTTP request as the router sees it: no sockets, so routes are tested without a server.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path without the query string (`/api/rings/move`).
    public var path: String
    /// The `Authorization` header, if any.
    public var authorization: String?
    /// The `access_token` query parameter, if any (EventSource cannot send headers).
    public var accessToken: String?
    /// The body.
    public var body: [UInt8]
    /// Every request header by lower-case name, each with all the values it was sent with (so a
    /// header sent twice is seen twice).
    public var headers: [String: [String]]
    /// `HTTP/1.1`, `HTTP/1.0`; nil when not known (requests built in tests).
    public var version: String?

    /// Makes a request.
    public init(method: String, path: String, authorization: String? = nil, accessToken: String? = nil, body: [UInt8] = [],
                headers: [String: [String]] = [:], version: String? = nil) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.accessToken = accessToken
        self.body = body
        // A loop, not Dictionary(_:uniquingKeysWith:): that one rethrows, which Embedded Swift
        // cannot compile (an untyped error is a dynamic cast).
        var byName: [String: [String]] = [:]
        for (name, values) in headers { byName[name.lowercased(), default: []] += values }
        self.headers = byName
        self.version = version
    }

    /// The one value of header `name` (nil when absent; the first when repeated).
    public func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
}

extension HTTPRequest {
    /// `content-length` as people write it: `Content-Length`.
    static func displayName(_ lowercased: String) -> String {
        lowercased.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
