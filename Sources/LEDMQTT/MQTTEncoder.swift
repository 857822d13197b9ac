/// Why a packet was not built: what is wrong, and the fix. The encoder refuses anything the
/// spec forbids a client to send, so a malformed packet never reaches the broker (which would
/// drop the connection, §4.8).
public enum MQTTEncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// §4.7.3 (MQTT-4.7.3-1): topic names and filters are at least one character long.
    case emptyTopic(field: String)
    /// §3.3.2.1 (MQTT-3.3.2-2): a PUBLISH (or will) topic name has no '+' or '#'.
    case wildcardInTopic(field: String, topic: String)
    /// §4.7.1: '#' only as the last level, '+' only as a whole level.
    case invalidFilter(String)
    /// §1.5.3: a UTF-8 string is at most 65535 bytes.
    case stringTooLong(field: String, bytes: Int)
    /// §1.5.3 (MQTT-1.5.3-2): no U+0000 in a string.
    case nulInString(field: String)
    /// §2.2.3: a packet's remaining length is at most 268435455.
    case packetTooLarge(bytes: Int)
    /// §2.3.1 (MQTT-2.3.1-1): packet identifiers are non-zero.
    case zeroPacketId
    /// §3.3.1.2: a QoS 1 or 2 PUBLISH carries a packet id, a QoS 0 one does not.
    case packetIdMismatch(qos: MQTTQoS)
    /// §3.8.3 (MQTT-3.8.3-3), §3.10.3 (MQTT-3.10.3-2): at least one filter.
    case noFilters(packet: String)
    /// §3.1.2.9 (MQTT-3.1.2-22): a password needs a user name.
    case passwordWithoutUsername
    /// §3.1.3.1 (MQTT-3.1.3-7): an empty client id needs clean session.
    case emptyClientIdNeedsCleanSession
    /// §3.3.1.1 (MQTT-3.3.1-2): DUP is 0 on every QoS 0 PUBLISH.
    case dupAtQoS0

    public var description: String {
        switch self {
        case let .emptyTopic(field):
            return "the \(field) is empty; MQTT topics are at least one character long (MQTT 3.1.1 §4.7.3), give a topic such as ledring/state"
        case let .wildcardInTopic(field, topic):
            return "the \(field) \"\(topic)\" contains a wildcard ('+' or '#'), which only subscriptions may use (MQTT 3.1.1 §3.3.2.1); publish to a concrete topic"
        case let .invalidFilter(filter):
            return "the topic filter \"\(filter)\" is invalid: '#' may only be the last level and '+' must be a whole level (MQTT 3.1.1 §4.7.1); write e.g. a/+/c or a/#"
        case let .stringTooLong(field, bytes):
            return "the \(field) is \(bytes) bytes of UTF-8; MQTT strings hold at most 65535 (MQTT 3.1.1 §1.5.3); shorten it"
        case let .nulInString(field):
            return "the \(field) contains the character U+0000, which MQTT strings may not (MQTT 3.1.1 §1.5.3); remove it"
        case let .packetTooLarge(bytes):
            return "the packet would be \(bytes) bytes after its fixed header; MQTT allows at most 268435455 (MQTT 3.1.1 §2.2.3); send a smaller payload"
        case .zeroPacketId:
            return "packet identifier 0 is not allowed (MQTT 3.1.1 §2.3.1); use 1–65535"
        case let .packetIdMismatch(qos):
            return qos == .atMostOnce
                ? "a QoS 0 PUBLISH has no packet identifier (MQTT 3.1.1 §2.3.1); leave packetId nil"
                : "a QoS \(qos.rawValue) PUBLISH needs a packet identifier (MQTT 3.1.1 §2.3.1); set packetId to 1–65535"
        case let .noFilters(packet):
            return "a \(packet) needs at least one topic filter (MQTT 3.1.1 §3.8.3, §3.10.3); pass one or more"
        case .passwordWithoutUsername:
            return "a password was given without a user name (MQTT 3.1.1 §3.1.2.9); set the user name too"
        case .emptyClientIdNeedsCleanSession:
            return "an empty client id is only allowed with clean session (MQTT 3.1.1 §3.1.3.1); give a client id or set cleanSession"
        case .dupAtQoS0:
            return "the DUP flag is set on a QoS 0 PUBLISH (MQTT 3.1.1 §3.3.1.1); clear it"
        }
    }
}

/// The variable-length "remaining length" of the fixed header (§2.2.3): 7 bits a byte, least
/// significant first, the top bit saying another byte follows; 1 to 4 bytes, so at most 268435455.
public enum MQTTRemainingLength {
    /// The largest remaining length four bytes can say (§2.2.3, Table 2.4).
    public static let maximum = 268_435_455

    /// The 1–4 bytes for `length`.
    public static func encode(_ length: Int) throws(MQTTEncodeError) -> [UInt8] {
        guard length >= 0, length <= maximum else { throw .packetTooLarge(bytes: length) }
        var value = length
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
}

/// Builds the bytes of control packets (§2, §3).
public enum MQTTEncoder {
    /// PINGREQ (§3.12): type 12, no flags, remaining length 0.
    public static let pingreqBytes: [UInt8] = [0xC0, 0x00]
    /// DISCONNECT (§3.14): type 14, no flags, remaining length 0.
    public static let disconnectBytes: [UInt8] = [0xE0, 0x00]

    /// The packet's bytes: fixed header, variable header and payload. Throws for anything the
    /// spec forbids (see `MQTTEncodeError`).
    public static func encode(_ packet: MQTTPacket) throws(MQTTEncodeError) -> [UInt8] {
        var body: [UInt8] = []
        var flags: UInt8 = 0
        switch packet {
        case let .connect(options):
            try connectBody(options, into: &body)
        case let .connack(sessionPresent, returnCode):
            body = [sessionPresent && returnCode == .accepted ? 1 : 0, returnCode.rawValue]
        case let .publish(message):
            try checkTopicName(message.topic, field: "PUBLISH topic")
            if message.dup && message.qos == .atMostOnce { throw .dupAtQoS0 }
            // §3.3.1: DUP bit 3, QoS bits 2–1, RETAIN bit 0.
            flags = (message.dup ? 0x08 : 0) | message.qos.rawValue << 1 | (message.retain ? 0x01 : 0)
            try appendString(message.topic, field: "PUBLISH topic", into: &body)
            switch (message.qos, message.packetId) {
            case (.atMostOnce, nil): break
            case (.atMostOnce, _?): throw .packetIdMismatch(qos: .atMostOnce)
            case (_, nil): throw .packetIdMismatch(qos: message.qos)
            case let (_, id?): try appendPacketId(id, into: &body)
            }
            body.append(contentsOf: message.payload)
        case let .puback(id), let .pubrec(id), let .pubcomp(id), let .unsuback(id):
            try appendPacketId(id, into: &body)
        case let .pubrel(id):
            flags = 0x02  // §3.6.1 (MQTT-3.6.1-1)
            try appendPacketId(id, into: &body)
        case let .subscribe(id, subscriptions):
            flags = 0x02  // §3.8.1 (MQTT-3.8.1-1)
            guard !subscriptions.isEmpty else { throw .noFilters(packet: "SUBSCRIBE") }
            try appendPacketId(id, into: &body)
            for subscription in subscriptions {
                try checkFilter(subscription.filter)
                try appendString(subscription.filter, field: "topic filter", into: &body)
                body.append(subscription.qos.rawValue)  // §3.8.3.1: upper 6 bits 0
            }
        case let .suback(id, results):
            try appendPacketId(id, into: &body)
            for result in results {
                switch result {
                case let .granted(qos): body.append(qos.rawValue)
                case .failure: body.append(0x80)
                }
            }
        case let .unsubscribe(id, filters):
            flags = 0x02  // §3.10.1 (MQTT-3.10.1-1)
            guard !filters.isEmpty else { throw .noFilters(packet: "UNSUBSCRIBE") }
            try appendPacketId(id, into: &body)
            for filter in filters {
                try checkFilter(filter)
                try appendString(filter, field: "topic filter", into: &body)
            }
        case .pingreq, .pingresp, .disconnect:
            break  // §3.12, §3.13, §3.14: a fixed header of two bytes only
        }
        let length = try MQTTRemainingLength.encode(body.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 + length.count + body.count)
        bytes.append(packet.typeCode << 4 | flags)
        bytes.append(contentsOf: length)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// §3.1.2 variable header, then the §3.1.3 payload in its fixed order.
    private static func connectBody(_ options: MQTTConnectOptions, into body: inout [UInt8]) throws(MQTTEncodeError) {
        if options.password != nil && options.username == nil { throw .passwordWithoutUsername }
        if options.clientId.utf8.isEmpty && !options.cleanSession { throw .emptyClientIdNeedsCleanSession }
        // §3.1.2.1 protocol name "MQTT", §3.1.2.2 protocol level 4.
        body = [0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04]
        // §3.1.2.3 connect flags: user name 7, password 6, will retain 5, will QoS 4–3, will 2,
        // clean session 1, reserved 0 (MQTT-3.1.2-3).
        var flags: UInt8 = options.cleanSession ? 0x02 : 0
        if let will = options.will {
            flags |= 0x04 | will.qos.rawValue << 3 | (will.retain ? 0x20 : 0)
        }
        if options.username != nil { flags |= 0x80 }
        if options.password != nil { flags |= 0x40 }
        body.append(flags)
        body.append(UInt8(options.keepAlive >> 8))  // §3.1.2.10, most significant byte first
        body.append(UInt8(options.keepAlive & 0xFF))
        try appendString(options.clientId, field: "client id", into: &body)
        if let will = options.will {
            try checkTopicName(will.topic, field: "will topic")
            try appendString(will.topic, field: "will topic", into: &body)
            try appendBinary(will.payload, field: "will payload", into: &body)
        }
        if let username = options.username { try appendString(username, field: "user name", into: &body) }
        if let password = options.password { try appendBinary(password, field: "password", into: &body) }
    }

    /// §3.3.2.1, §4.7.3: a topic name, not a filter.
    static func checkTopicName(_ topic: String, field: String) throws(MQTTEncodeError) {
        if topic.utf8.isEmpty { throw .emptyTopic(field: field) }
        if topic.utf8.contains(where: { $0 == 0x2B || $0 == 0x23 }) { throw .wildcardInTopic(field: field, topic: topic) }
    }

    /// §4.7.1: '#' alone in the last level, '+' alone in its level.
    static func checkFilter(_ filter: String) throws(MQTTEncodeError) {
        let bytes = Array(filter.utf8)
        if bytes.isEmpty { throw .emptyTopic(field: "topic filter") }
        for (index, byte) in bytes.enumerated() where byte == 0x23 || byte == 0x2B {
            let startsLevel = index == 0 || bytes[index - 1] == 0x2F
            let endsLevel = index == bytes.count - 1 || bytes[index + 1] == 0x2F
            guard startsLevel && endsLevel else { throw .invalidFilter(filter) }
            if byte == 0x23 && index != bytes.count - 1 { throw .invalidFilter(filter) }
        }
    }

    /// §1.5.3: a two-byte big-endian length, then the UTF-8.
    static func appendString(_ string: String, field: String, into body: inout [UInt8]) throws(MQTTEncodeError) {
        let utf8 = Array(string.utf8)
        if utf8.contains(0) { throw .nulInString(field: field) }
        try appendBinary(utf8, field: field, into: &body)
    }

    /// §3.1.3.3, §3.1.3.5: binary data with the same two-byte length.
    static func appendBinary(_ bytes: [UInt8], field: String, into body: inout [UInt8]) throws(MQTTEncodeError) {
        guard bytes.count <= 65535 else { throw .stringTooLong(field: field, bytes: bytes.count) }
        body.append(UInt8(bytes.count >> 8))
        body.append(UInt8(bytes.count & 0xFF))
        body.append(contentsOf: bytes)
    }

    /// §2.3.1: two bytes, most significant first, never 0.
    static func appendPacketId(_ id: UInt16, into body: inout [UInt8]) throws(MQTTEncodeError) {
        guard id != 0 else { throw .zeroPacketId }
        body.append(UInt8(id >> 8))
        body.append(UInt8(id & 0xFF))
    }
}
