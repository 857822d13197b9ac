import LEDRingControl
import LEDJSON

/// One HTTP response: status, type, body and extra headers.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: [UInt8]
    /// Extra headers (`Allow`, `WWW-Authenticate`).
    public var headers: [String: String]

    /// Makes a response.
    public init(status: Int, contentType: String, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// `{"error":"…"}` with `status`: every refusal explains itself the same way.
    public static func error(_ status: Int, _ message: String, headers: [String: String] = [:]) -> HTTPResponse {
        let body = JSONValue.object([("error", .string(message))]).jsonText + "\n"
        return HTTPResponse(status: status, contentType: "application/json", body: Array(body.utf8), headers: headers)
    }

    /// The snapshot as JSON with status 200.
    public static func snapshot(_ snapshot: RingSnapshot) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: snapshot.jsonBytes() + [0x0a])
    }
}
