#if canImport(Glibc)
import Glibc
import LEDRingControl
#endif

/// The `http` section of the config: where the API and web page listen, the optional token and
/// limits. Loopback only unless an address is configured.
public struct HTTPSettings: Decodable, Equatable, Sendable {
    /// Address to listen on: an IPv4 or IPv6 literal; 127.0.0.1 keeps it on this machine.
    public var address = "127.0.0.1"
    /// Port; 0 lets the kernel choose (tests read it back from the server).
    public var port = 8080
    /// Bearer token every `/api` request must carry, when set.
    public var token: String?
    /// File whose first line is the token (kept out of a world-readable config).
    public var tokenFile: String?
    /// Largest request body read, bytes; bigger ones get 413.
    public var maxBodyBytes = 16 * 1024
    /// Shortest time between two server-sent events on one stream, seconds (changes in between
    /// are coalesced into the latest snapshot).
    public var eventInterval = 0.1
    /// Most simultaneous connections (each takes a thread); past it a new client is answered
    /// 503 "busy" from a small reserve, and the oldest idle or slow one is dropped to make room.
    public var maxConnections = 32
    /// Most simultaneous event streams (`/api/events`), a share of `maxConnections` so open pages
    /// can never take every connection (by default 8, or half of `maxConnections` if that is
    /// less); one more is answered 503.
    public var maxEventStreams = 8
    /// Seconds a connection may stay silent (keep-alive between requests, a stalled body) before
    /// it is closed.
    public var idleTimeout = 10
    /// Seconds a client has to send a request's headers once it starts, however slowly they
    /// trickle in.
    public var headerTimeout = 10
    /// Host names (besides the address, any IP address and `localhost`) the server answers to,
    /// e.g. `["ledring.local"]`; any other `Host` is refused, which stops DNS rebinding.
    public var hosts: [String] = []

    /// The defaults: 127.0.0.1:8080, no token.
    public init() {}

    /// Keys the `http` object may have.
    public static let keys = ["address", "port", "token", "tokenFile", "maxBodyBytes", "eventInterval", "maxConnections",
                              "maxEventStreams", "idleTimeout", "headerTimeout", "hosts"]

    /// Decodes and checks an `http` object (the error lists every problem by key).
    public init(from decoder: any Decoder) throws {
        var r = try SettingsReader(decoder, section: "http", known: HTTPSettings.keys)
        if let address = r.string("address") {
            if HTTPSettings.isAddress(address) { self.address = address } else {
                r.report("address", "must be an IPv4 or IPv6 address like 127.0.0.1, 0.0.0.0 or ::1, got \"\(address)\"")
            }
        }
        port = r.integer("port", in: 0...65535) ?? port
        token = r.string("token")
        if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
            r.report("token", "must be non-empty without spaces (it goes in an Authorization header)")
        }
        tokenFile = r.string("tokenFile")
        if token != nil && tokenFile != nil { r.report("tokenFile", "give token or tokenFile, not both") }
        maxBodyBytes = r.integer("maxBodyBytes", in: 256...1_048_576) ?? maxBodyBytes
        eventInterval = r.number("eventInterval", in: 0.01...10) ?? eventInterval
        maxConnections = r.integer("maxConnections", in: 2...1024) ?? maxConnections
        // Unless given, at most half the connections (and 8) may be live pages.
        maxEventStreams = r.integer("maxEventStreams", in: 1...1024) ?? min(maxEventStreams, max(1, maxConnections / 2))
        if maxEventStreams >= maxConnections {
            r.report("maxEventStreams", "must be less than maxConnections (\(maxConnections)) so pages cannot take every connection, got \(maxEventStreams)")
        }
        idleTimeout = r.integer("idleTimeout", in: 1...3600) ?? idleTimeout
        headerTimeout = r.integer("headerTimeout", in: 1...3600) ?? headerTimeout
        if let names = r.stringList("hosts") {
            for name in names where !HTTPSettings.isHostName(name) {
                r.report("hosts", "\"\(LogText.escaped(name, limit: 60))\" is not a host name like ledring.local (letters, digits, - and .)")
            }
            hosts = names.map { $0.lowercased() }
        }
        try r.finish()
    }

    /// Decodes the `http` section from JSON bytes.
    public static func decode(_ json: [UInt8]) throws(SettingsError) -> HTTPSettings {
        try SettingsDecoding.decode(HTTPSettings.self, from: json, section: "http")
    }

    /// Whether `text` is a DNS name: letters, digits, `-` and `.`, at most 253 characters.
    public static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253 && !text.hasPrefix(".") && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
    }

    /// Whether `text` is an IPv4 or IPv6 literal.
    public static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
