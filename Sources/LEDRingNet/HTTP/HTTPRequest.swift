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

    /// Makes a request.
    public init(method: String, path: String, authorization: String? = nil, accessToken: String? = nil, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.accessToken = accessToken
        self.body = body
    }
}
