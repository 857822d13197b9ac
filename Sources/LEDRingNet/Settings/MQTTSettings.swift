import Glibc
import LEDJSON

/// The `mqtt` section of the config: the broker, who we are, topics, QoS and Home Assistant
/// discovery. Decodes strictly (unknown keys are reported) and reports every bad value by key.
public struct MQTTSettings: Equatable, Sendable {
    /// TLS to the broker.
    public struct TLS: Equatable, Sendable {
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

        /// Reads and checks a `tls` object at `path`; nil when something was wrong.
        public static func read(_ value: JSONValue, at path: String, into reader: inout JSONReader) -> TLS? {
            let before = reader.reported
            guard let m = reader.object(value, at: path, known: keys) else { return nil }
            func at(_ key: String) -> String { JSONReader.join(path, key) }
            let caFile = reader.string(m["caFile"], at: at("caFile"))
            if m["caFile"] == nil {
                reader.report(at("caFile"), "is required with TLS; give the CA certificate (PEM) that signed the broker's")
            }
            let certFile = reader.string(m["certFile"], at: at("certFile"))
            let keyFile = reader.string(m["keyFile"], at: at("keyFile"))
            if (m["certFile"] == nil) != (m["keyFile"] == nil) {
                reader.report(at(m["certFile"] == nil ? "certFile" : "keyFile"), "certFile and keyFile go together; give both or neither")
            }
            guard reader.reported == before, let caFile else { return nil }
            return TLS(caFile: caFile, certFile: certFile, keyFile: keyFile)
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

    /// Reads and checks an `mqtt` object at `path`, reporting every problem into `reader` (with
    /// the rest of the config); nil when something was wrong.
    public static func read(_ value: JSONValue, at path: String, into reader: inout JSONReader) -> MQTTSettings? {
        let before = reader.reported
        guard let m = reader.object(value, at: path, known: keys) else { return nil }
        func at(_ key: String) -> String { JSONReader.join(path, key) }
        var s = MQTTSettings()
        if let host = reader.string(m["host"], at: at("host")) {
            if host.contains(" ") || host.contains("/") {
                reader.report(at("host"), "must be a host name or address like mqtt.local or 192.168.1.10, got \"\(host)\"")
            } else {
                s.host = host
            }
        }
        if let tls = m["tls"] {
            s.tls = TLS.read(tls, at: at("tls"), into: &reader)
            s.port = 8883
        }
        s.port = reader.integer(m["port"], at: at("port"), in: 1...65535) ?? s.port
        if let device = reader.string(m["device"], at: at("device")) {
            if SettingsNames.isName(device) {
                s.device = device
            } else {
                reader.report(at("device"), "must be letters, digits, - and _ (it becomes a topic level and an id), got \"\(device)\"")
            }
        }
        s.name = reader.string(m["name"], at: at("name"))
        s.clientId = reader.string(m["clientId"], at: at("clientId"))
        if let id = s.clientId, id.utf8.count > 128 {
            reader.report(at("clientId"), "must be 1…128 characters, got \(id.utf8.count)")
        }
        s.username = reader.string(m["username"], at: at("username"))
        s.passwordFile = reader.string(m["passwordFile"], at: at("passwordFile"))
        if m["passwordFile"] != nil && m["username"] == nil {
            reader.report(at("passwordFile"), "needs a username; add \"username\"")
        }
        s.baseTopic = topic(m["baseTopic"], at: at("baseTopic"), into: &reader) ?? s.baseTopic
        if m["groupTopic"] == .null {
            s.groupTopic = nil
        } else {
            s.groupTopic = topic(m["groupTopic"], at: at("groupTopic"), into: &reader) ?? s.groupTopic
        }
        s.qos = reader.integer(m["qos"], at: at("qos"), in: 0...2) ?? s.qos
        s.retain = reader.bool(m["retain"], at: at("retain")) ?? s.retain
        s.discovery = reader.bool(m["discovery"], at: at("discovery")) ?? s.discovery
        if let prefix = reader.string(m["discoveryPrefix"], at: at("discoveryPrefix")) {
            if SettingsNames.isTopic(prefix) { s.discoveryPrefix = prefix } else {
                reader.report(at("discoveryPrefix"), "must be a topic like homeassistant, got \"\(prefix)\"")
            }
        }
        s.maxPercent = reader.integer(m["maxPercent"], at: at("maxPercent"), in: 1...10_000) ?? s.maxPercent
        s.keepalive = reader.integer(m["keepalive"], at: at("keepalive"), in: 5...3600) ?? s.keepalive
        s.reconnectMin = reader.integer(m["reconnectMin"], at: at("reconnectMin"), in: 1...3600) ?? s.reconnectMin
        s.reconnectMax = reader.integer(m["reconnectMax"], at: at("reconnectMax"), in: 1...3600) ?? s.reconnectMax
        if s.reconnectMax < s.reconnectMin {
            reader.report(at("reconnectMax"), "must be at least reconnectMin (\(s.reconnectMin)), got \(s.reconnectMax)")
        }
        return reader.reported == before ? s : nil
    }

    /// A topic (`baseTopic`, `groupTopic`), or nil.
    private static func topic(_ value: JSONValue?, at path: String, into reader: inout JSONReader) -> String? {
        guard let topic = reader.string(value, at: path) else { return nil }
        guard SettingsNames.isTopic(topic) else {
            reader.report(path, "must be a topic like ledring/kitchen: no + or #, no empty level, no leading or trailing /, got \"\(topic)\"")
            return nil
        }
        return topic
    }

    /// Reads the `mqtt` section from JSON bytes.
    public static func decode(_ json: [UInt8]) throws(SettingsError) -> MQTTSettings {
        try SettingsError.reading(json, section: "mqtt") { read($0, at: $1, into: &$2) }
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
        let cleaned = String(host.prefix { $0 != "." }.map { SettingsNames.isName(String($0)) ? $0 : "_" }.prefix(64))
        return cleaned.isEmpty ? "ledring" : cleaned
    }
}
