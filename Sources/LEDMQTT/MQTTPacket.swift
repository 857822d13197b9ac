// ledring's own MQTT 3.1.1 client (OASIS Standard, 29 October 2014, "mqtt-v3.1.1"). Every rule
// below names the section it comes from (§x.y.z) and, where the spec numbers it, the normative
// statement (MQTT-x.y.z-n). Pure Swift: no Foundation, no platform module, no existentials, so
// the full build and the Embedded Swift Pi binaries compile the same code.

/// Quality of service (§4.3). ledring publishes and subscribes at 0 and 1; 2 exists so the codec
/// can say what a broker granted or sent (a SUBACK may grant 2, §3.9.3).
public enum MQTTQoS: UInt8, Sendable, Equatable, Comparable {
    /// At most once (§4.3.1).
    case atMostOnce = 0
    /// At least once (§4.3.2): the receiver answers with PUBACK.
    case atLeastOnce = 1
    /// Exactly once (§4.3.3): not used by `MQTTSession`.
    case exactlyOnce = 2

    public static func < (a: MQTTQoS, b: MQTTQoS) -> Bool { a.rawValue < b.rawValue }
}

/// The last will (§3.1.2.5–§3.1.2.7, §3.1.3.2–§3.1.3.3): what the broker publishes for us when
/// the connection ends without a DISCONNECT (MQTT-3.1.2-8), and never after one (MQTT-3.1.2-10).
public struct MQTTWill: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// What the CONNECT packet (§3.1) carries.
public struct MQTTConnectOptions: Sendable, Equatable {
    /// §3.1.3.1. Empty is allowed only with `cleanSession` (MQTT-3.1.3-7): the broker then
    /// assigns one.
    public var clientId: String
    /// §3.1.2.4: true discards any previous session on both sides (MQTT-3.1.2-6); false resumes
    /// it (subscriptions and unacknowledged QoS 1 messages, §4.1).
    public var cleanSession: Bool
    /// §3.1.2.10, seconds; 0 turns the keep-alive mechanism off.
    public var keepAlive: UInt16
    public var will: MQTTWill?
    /// §3.1.3.4.
    public var username: String?
    /// §3.1.3.5, binary data; needs a `username` (MQTT-3.1.2-22).
    public var password: [UInt8]?

    public init(clientId: String, cleanSession: Bool = true, keepAlive: UInt16 = 60, will: MQTTWill? = nil,
                username: String? = nil, password: [UInt8]? = nil) {
        self.clientId = clientId
        self.cleanSession = cleanSession
        self.keepAlive = keepAlive
        self.will = will
        self.username = username
        self.password = password
    }
}

/// The CONNACK return code (§3.2.2.3, Table 3.1).
public enum MQTTConnectReturnCode: UInt8, Sendable, Equatable {
    case accepted = 0
    case unacceptableProtocolVersion = 1
    case identifierRejected = 2
    case serverUnavailable = 3
    case badUsernameOrPassword = 4
    case notAuthorized = 5

    /// What the code means, and what to do about it.
    public var reason: String {
        switch self {
        case .accepted: return "connection accepted"
        case .unacceptableProtocolVersion: return "the broker does not speak MQTT 3.1.1 (protocol level 4); use a broker that does"
        case .identifierRejected: return "the broker rejected the client identifier; choose another client id (1–23 letters and digits are always allowed)"
        case .serverUnavailable: return "the broker is up but the MQTT service is unavailable; retry later"
        case .badUsernameOrPassword: return "bad user name or password; check the MQTT username and password in the configuration"
        case .notAuthorized: return "not authorized; check the MQTT username and password, and the broker's ACLs"
        }
    }
}

/// One topic filter of a SUBSCRIBE (§3.8.3) and the maximum QoS asked for.
public struct MQTTSubscription: Sendable, Equatable {
    public var filter: String
    public var qos: MQTTQoS

    public init(_ filter: String, qos: MQTTQoS = .atMostOnce) {
        self.filter = filter
        self.qos = qos
    }
}

/// One SUBACK return code (§3.9.3): the QoS granted for a filter, or 0x80, failure.
public enum MQTTSubscribeResult: Sendable, Equatable {
    case granted(MQTTQoS)
    case failure
}

/// A PUBLISH packet (§3.3), either direction.
public struct MQTTPublish: Sendable, Equatable {
    /// §3.3.2.1: no wildcards (MQTT-3.3.2-2), at least one character (MQTT-4.7.3-1).
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// §3.3.1.3.
    public var retain: Bool
    /// §3.3.1.1: set on a re-delivery (MQTT-3.3.1-1), always 0 at QoS 0 (MQTT-3.3.1-2).
    public var dup: Bool
    /// §3.3.2.2: present only when qos > 0, and then non-zero (MQTT-2.3.1-1); nil at QoS 0.
    public var packetId: UInt16?

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false, dup: Bool = false, packetId: UInt16? = nil) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.dup = dup
        self.packetId = packetId
    }
}

/// Every MQTT 3.1.1 control packet (§2.2.1, Table 2.1).
public enum MQTTPacket: Sendable, Equatable {
    case connect(MQTTConnectOptions)
    /// §3.2. A non-zero code has `sessionPresent` false (MQTT-3.2.2-4).
    case connack(sessionPresent: Bool, returnCode: MQTTConnectReturnCode)
    case publish(MQTTPublish)
    case puback(packetId: UInt16)
    case pubrec(packetId: UInt16)
    case pubrel(packetId: UInt16)
    case pubcomp(packetId: UInt16)
    case subscribe(packetId: UInt16, subscriptions: [MQTTSubscription])
    case suback(packetId: UInt16, results: [MQTTSubscribeResult])
    case unsubscribe(packetId: UInt16, filters: [String])
    case unsuback(packetId: UInt16)
    case pingreq
    case pingresp
    case disconnect

    /// The control packet type, the high nibble of the first byte (§2.2.1).
    public var typeCode: UInt8 {
        switch self {
        case .connect: return 1
        case .connack: return 2
        case .publish: return 3
        case .puback: return 4
        case .pubrec: return 5
        case .pubrel: return 6
        case .pubcomp: return 7
        case .subscribe: return 8
        case .suback: return 9
        case .unsubscribe: return 10
        case .unsuback: return 11
        case .pingreq: return 12
        case .pingresp: return 13
        case .disconnect: return 14
        }
    }

    /// The packet type's name, as the spec writes it.
    public static func name(ofType type: UInt8) -> String {
        switch type {
        case 1: return "CONNECT"
        case 2: return "CONNACK"
        case 3: return "PUBLISH"
        case 4: return "PUBACK"
        case 5: return "PUBREC"
        case 6: return "PUBREL"
        case 7: return "PUBCOMP"
        case 8: return "SUBSCRIBE"
        case 9: return "SUBACK"
        case 10: return "UNSUBSCRIBE"
        case 11: return "UNSUBACK"
        case 12: return "PINGREQ"
        case 13: return "PINGRESP"
        case 14: return "DISCONNECT"
        default: return "reserved type \(type)"
        }
    }
}
