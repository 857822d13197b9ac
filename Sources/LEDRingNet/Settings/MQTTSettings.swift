#if canImport(Glibc)
import Glibc
#endif

/// The `mqtt` section of the config: the broker, who we are, topics, QoS and Home Assistant
/// discovery. Decodes strictly (unknown keys are reported) and reports every bad value by key.
public struct MQTTSettings: Decodable, Equatable, Sendable {
    /// TLS to the broker.
    public struct TLS: Decodable, Equatable, Sendable {
        /// CA certificate file (PEM) that signed the broker's certificate.
        public var caFile: String
        /// Client certificate (PEM) when the broker wants one.
        public var certFile: String?
        /// The client certificate's key (PEM).
        public var keyFile: String?

        /// TLS trusting `caFile`.
        public init(caFile: String, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }

        /// Keys the `tls` object may have.
        public static let keys = ["caFile", "certFile", "keyFile"]

        /// Decodes and checks a `tls` object.
        public init(from decoder: any Decoder) throws {
            var r = try SettingsReader(decoder, section: "tls", known: TLS.keys)
            caFile = r.string("caFile") ?? ""
            if !r.has("caFile") { r.report("caFile", "is required with TLS; give the CA certificate (PEM) that signed the broker's") }
            certFile = r.string("certFile")
            keyFile = r.string("keyFile")
            if (certFile == nil) != (keyFile == nil) {
                r.report(certFile == nil ? "certFile" : "keyFile", "certFile and keyFile go together; give both or neither")
            }
            try r.finish()
        }
    }

    /// Broker host name or address.
    public var host = "localhost"
    /// Broker port (1883, or 8883 with TLS, when not given).
    public var port = 1883
    /// This device's id in topics and Home Assistant (letters, digits, `-`, `_`); the host name by default.
    public var device = MQTTSettings.defaultDevice()
    /// The Home Assistant device name; `ledring <device>` by default.
    public var name: String?
    /// MQTT client id; `ledring-<device>` by default.
    public var clientId: String?
    /// User name for the broker.
    public var username: String?
    /// File whose first line is the broker password (kept out of the config so the config can be
    /// world-readable).
    public var passwordFile: String?
    /// TLS, when the broker needs it.
    public var tls: TLS?
    /// Topic prefix of this device; `ledring/<device>` by default.
    public var baseTopic: String?
    /// Prefix every device listens on too, so one message moves them all; nil turns it off.
    public var groupTopic: String? = "ledring/all"
    /// QoS of subscriptions and publications, 0…2.
    public var qos = 1
    /// Whether state topics are retained (so a new subscriber sees them at once).
    public var retain = true
    /// Whether to publish Home Assistant discovery messages.
    public var discovery = true
    /// Home Assistant's discovery prefix.
    public var discoveryPrefix = "homeassistant"
    /// Largest value Home Assistant's slider offers, percent.
    public var maxPercent = 200
    /// Seconds between keepalive pings; the broker declares us offline after 1.5× this.
    public var keepalive = 30
    /// First reconnect delay, seconds; it doubles up to `reconnectMax`.
    public var reconnectMin = 1
    /// Longest reconnect delay, seconds: a broker back after an outage is found within this.
    public var reconnectMax = 5

    /// The defaults (a broker on this machine, no TLS).
    public init() {}

    /// Keys the `mqtt` object may have.
    public static let keys = ["host", "port", "device", "name", "clientId", "username", "passwordFile", "tls",
                              "baseTopic", "groupTopic", "qos", "retain", "discovery", "discoveryPrefix",
                              "maxPercent", "keepalive", "reconnectMin", "reconnectMax"]

    /// Decodes and checks an `mqtt` object (the error lists every problem by key).
    public init(from decoder: any Decoder) throws {
        var r = try SettingsReader(decoder, section: "mqtt", known: MQTTSettings.keys)
        if let host = r.string("host") {
            if host.isEmpty || host.contains(" ") || host.contains("/") {
                r.report("host", "must be a host name or address like mqtt.local or 192.168.1.10, got \"\(host)\"")
            } else {
                self.host = host
            }
        }
        tls = r.nested("tls", as: TLS.self)
        if tls != nil { port = 8883 }
        port = r.integer("port", in: 1...65535) ?? port
        if let device = r.string("device") {
            if SettingsReader.isName(device) {
                self.device = device
            } else {
                r.report("device", "must be letters, digits, - and _ (it becomes a topic level and an id), got \"\(device)\"")
            }
        }
        name = r.string("name")
        clientId = r.string("clientId")
        if let id = clientId, id.isEmpty || id.utf8.count > 128 {
            r.report("clientId", "must be 1…128 characters, got \(id.utf8.count)")
        }
        username = r.string("username")
        passwordFile = r.string("passwordFile")
        if passwordFile != nil && username == nil {
            r.report("passwordFile", "needs a username; add \"username\"")
        }
        for key in ["baseTopic", "groupTopic"] {
            guard let topic = r.string(key) else { continue }
            guard SettingsReader.isTopic(topic) else {
                r.report(key, "must be a topic like ledring/kitchen: no + or #, no empty level, no leading or trailing /, got \"\(topic)\"")
                continue
            }
            if key == "baseTopic" { baseTopic = topic } else { groupTopic = topic }
        }
        if r.has("groupTopic"), (try? decoder.container(keyedBy: AnyKey.self).decodeNil(forKey: AnyKey("groupTopic"))) == true {
            groupTopic = nil
            r.problems.removeAll { $0.path == "mqtt.groupTopic" }
        }
        qos = r.integer("qos", in: 0...2) ?? qos
        retain = r.bool("retain") ?? retain
        discovery = r.bool("discovery") ?? discovery
        if let prefix = r.string("discoveryPrefix") {
            if SettingsReader.isTopic(prefix) { discoveryPrefix = prefix } else {
                r.report("discoveryPrefix", "must be a topic like homeassistant, got \"\(prefix)\"")
            }
        }
        maxPercent = r.integer("maxPercent", in: 1...10_000) ?? maxPercent
        keepalive = r.integer("keepalive", in: 5...3600) ?? keepalive
        reconnectMin = r.integer("reconnectMin", in: 1...3600) ?? reconnectMin
        reconnectMax = r.integer("reconnectMax", in: 1...3600) ?? reconnectMax
        if reconnectMax < reconnectMin {
            r.report("reconnectMax", "must be at least reconnectMin (\(reconnectMin)), got \(reconnectMax)")
        }
        try r.finish()
    }

    /// Decodes the `mqtt` section from JSON bytes.
    public static func decode(_ json: [UInt8]) throws(SettingsError) -> MQTTSettings {
        try SettingsDecoding.decode(MQTTSettings.self, from: json, section: "mqtt")
    }

    /// The topic prefix in use.
    public var resolvedBaseTopic: String { baseTopic ?? "ledring/\(device)" }
    /// The client id in use.
    public var resolvedClientId: String { clientId ?? "ledring-\(device)" }
    /// The Home Assistant device name in use.
    public var resolvedName: String { name ?? "ledring \(device)" }

    /// This machine's host name made into a device id (`ledring` when it has none).
    public static func defaultDevice() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "ledring" }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let cleaned = String(host.prefix { $0 != "." }.map { SettingsReader.isName(String($0)) ? $0 : "_" }.prefix(64))
        return cleaned.isEmpty ? "ledring" : cleaned
    }
}
