/// A reply as the test client read it.
public struct HTTPReply {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    /// A reply with these parts.
    public init(status: Int, headers: [String: String], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
