/// A reply as the test client read it.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: String
}
