import Glibc
import LEDRingControl
import LEDJSON

/// The `http` section of the config: where the API and web page listen, the optional token and
/// limits. Loopback only unless an address is configured.
public struct HTTPSettings: Equatable, Sendable {
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
    /// Webhook routes (`/api/hooks/…`), each off unless configured.
    public var webhooks = WebhookSettings()

    /// The defaults: 127.0.0.1:8080, no token.
    public init() {}

    /// Keys the `http` object may have.
    public static let keys = ["address", "port", "token", "tokenFile", "maxBodyBytes", "eventInterval", "maxConnections",
                              "maxEventStreams", "idleTimeout", "headerTimeout", "hosts", "webhooks"]

    /// Reads and checks an `http` object at `path`, reporting every problem into `reader` (with
    /// the rest of the config); nil when something was wrong. The rings and looks webhooks name
    /// are checked against `ringNames` and `looks` when they are given.
    public static func read(_ value: JSONValue, at path: String, ringNames: [String]? = nil, looks: [String]? = nil,
                            into reader: inout JSONReader) -> HTTPSettings? {
        let before = reader.reported
        guard let m = reader.object(value, at: path, known: keys) else { return nil }
        func at(_ key: String) -> String { JSONReader.join(path, key) }
        var s = HTTPSettings()
        if let address = reader.string(m["address"], at: at("address")) {
            if HTTPSettings.isAddress(address) { s.address = address } else {
                reader.report(at("address"), "must be an IPv4 or IPv6 address like 127.0.0.1, 0.0.0.0 or ::1, got \"\(address)\"")
            }
        }
        s.port = reader.integer(m["port"], at: at("port"), in: 0...65535) ?? s.port
        s.token = reader.string(m["token"], at: at("token"))
        if let token = s.token, token.contains(where: { $0.isWhitespace }) {
            reader.report(at("token"), "must be non-empty without spaces (it goes in an Authorization header)")
        }
        s.tokenFile = reader.string(m["tokenFile"], at: at("tokenFile"))
        if m["token"] != nil && m["tokenFile"] != nil { reader.report(at("tokenFile"), "give token or tokenFile, not both") }
        s.maxBodyBytes = reader.integer(m["maxBodyBytes"], at: at("maxBodyBytes"), in: 256...1_048_576) ?? s.maxBodyBytes
        s.eventInterval = reader.number(m["eventInterval"], at: at("eventInterval"), in: 0.01...10) ?? s.eventInterval
        s.maxConnections = reader.integer(m["maxConnections"], at: at("maxConnections"), in: 2...1024) ?? s.maxConnections
        // Unless given, at most half the connections (and 8) may be live pages.
        s.maxEventStreams = reader.integer(m["maxEventStreams"], at: at("maxEventStreams"), in: 1...1024)
            ?? min(s.maxEventStreams, max(1, s.maxConnections / 2))
        if s.maxEventStreams >= s.maxConnections {
            reader.report(at("maxEventStreams"), "must be less than maxConnections (\(s.maxConnections)) so pages cannot take every connection, got \(s.maxEventStreams)")
        }
        s.idleTimeout = reader.integer(m["idleTimeout"], at: at("idleTimeout"), in: 1...3600) ?? s.idleTimeout
        s.headerTimeout = reader.integer(m["headerTimeout"], at: at("headerTimeout"), in: 1...3600) ?? s.headerTimeout
        if let names = reader.strings(m["hosts"], at: at("hosts"), example: "\"ledring.local\"") {
            for name in names where !HTTPSettings.isHostName(name) {
                reader.report(at("hosts"), "\"\(LogText.escaped(name, limit: 60))\" is not a host name like ledring.local (letters, digits, - and .)")
            }
            s.hosts = names.map { $0.lowercased() }
        }
        if let hooks = m["webhooks"] {
            s.webhooks = WebhookSettings.read(hooks, at: at("webhooks"), ringNames: ringNames, looks: looks, into: &reader)
        }
        return reader.reported == before ? s : nil
    }

    /// Reads the `http` section from JSON bytes.
    public static func decode(_ json: [UInt8]) throws(SettingsError) -> HTTPSettings {
        try SettingsError.reading(json, section: "http") { read($0, at: $1, into: &$2) }
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
