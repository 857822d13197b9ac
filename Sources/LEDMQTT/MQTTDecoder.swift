/// Why the incoming byte stream cannot be read as MQTT 3.1.1. Every case is a malformed packet
/// (§4.8): the connection must be closed, since nothing after it can be trusted to start on a
/// packet boundary.
public enum MQTTDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// §2.2.3: the remaining length has a continuation bit on its fourth byte (a fifth would
    /// follow, which the spec does not allow).
    case malformedRemainingLength
    /// §2.2.1, Table 2.1: types 0 and 15 are reserved.
    case reservedPacketType(UInt8)
    /// §2.2.2, Table 2.2 (MQTT-2.2.2-2): the flags of the first byte are fixed for every type
    /// but PUBLISH.
    case invalidFlags(packet: String, flags: UInt8)
    /// A packet whose remaining length does not fit what its type carries (a PUBACK is 2 bytes,
    /// a PINGRESP 0, a field would run past the end, or bytes are left over).
    case invalidLength(packet: String, length: Int)
    /// §3.3.1.2 (MQTT-3.3.1-4): QoS 3 in a PUBLISH, or §3.8.3.1 (MQTT-3.8.3-4) in a SUBSCRIBE.
    case invalidQoS(packet: String, value: UInt8)
    /// §3.3.1.1 (MQTT-3.3.1-2): DUP set on a QoS 0 PUBLISH.
    case dupAtQoS0
    /// §2.3.1 (MQTT-2.3.1-1): a packet identifier of 0.
    case zeroPacketId(packet: String)
    /// §1.5.3 (MQTT-1.5.3-1): a string that is not well-formed UTF-8 (or encodes a surrogate).
    case invalidUTF8(field: String)
    /// §1.5.3 (MQTT-1.5.3-2): U+0000 in a string.
    case nulInString(field: String)
    /// §3.2.2.1 (MQTT-3.2.2-1): CONNACK's reserved acknowledge flags are not 0.
    case invalidConnackFlags(UInt8)
    /// §3.2.2.3, Table 3.1: return codes 6–255 are reserved.
    case invalidConnectReturnCode(UInt8)
    /// §3.9.3 (MQTT-3.9.3-2): a SUBACK return code other than 0, 1, 2 and 0x80.
    case invalidSubackCode(UInt8)
    /// §3.1.2.1–§3.1.2.2: a CONNECT that is not "MQTT" level 4.
    case unsupportedProtocol(name: String, level: UInt8)
    /// §3.1.2.3–§3.1.2.9: reserved bit set (MQTT-3.1.2-3), will QoS/retain without a will
    /// (MQTT-3.1.2-11, -13, -15), will QoS 3 (MQTT-3.1.2-14), password without user name (MQTT-3.1.2-22).
    case invalidConnectFlags(UInt8)
    /// §3.8.3 (MQTT-3.8.3-3), §3.10.3 (MQTT-3.10.3-2): a SUBSCRIBE or UNSUBSCRIBE with no filter,
    /// or §3.9.3 a SUBACK with no return code.
    case emptyPayload(packet: String)

    public var description: String {
        switch self {
        case .malformedRemainingLength:
            return "malformed remaining length: the fourth length byte says another follows, and MQTT allows at most four (MQTT 3.1.1 §2.2.3)"
        case let .reservedPacketType(type):
            return "packet type \(type) is reserved (MQTT 3.1.1 §2.2.1)"
        case let .invalidFlags(packet, flags):
            return "\(packet) with fixed-header flags \(flags), which the spec fixes for that type (MQTT 3.1.1 §2.2.2)"
        case let .invalidLength(packet, length):
            return "\(packet) with a remaining length of \(length) bytes, which does not fit its fields (MQTT 3.1.1 §3)"
        case let .invalidQoS(packet, value):
            return "\(packet) with QoS \(value); only 0, 1 and 2 exist (MQTT 3.1.1 §4.3)"
        case .dupAtQoS0:
            return "QoS 0 PUBLISH with the DUP flag set (MQTT 3.1.1 §3.3.1.1)"
        case let .zeroPacketId(packet):
            return "\(packet) with packet identifier 0 (MQTT 3.1.1 §2.3.1)"
        case let .invalidUTF8(field):
            return "the \(field) is not well-formed UTF-8 (MQTT 3.1.1 §1.5.3)"
        case let .nulInString(field):
            return "the \(field) contains U+0000 (MQTT 3.1.1 §1.5.3)"
        case let .invalidConnackFlags(flags):
            return "CONNACK with reserved acknowledge flags set (\(flags); MQTT 3.1.1 §3.2.2.1)"
        case let .invalidConnectReturnCode(code):
            return "CONNACK with return code \(code), which is reserved (MQTT 3.1.1 §3.2.2.3)"
        case let .invalidSubackCode(code):
            return "SUBACK with return code \(code); only 0, 1, 2 and 128 exist (MQTT 3.1.1 §3.9.3)"
        case let .unsupportedProtocol(name, level):
            return "CONNECT for protocol \"\(name)\" level \(level); this client speaks \"MQTT\" level 4 (MQTT 3.1.1 §3.1.2.1)"
        case let .invalidConnectFlags(flags):
            return "CONNECT with invalid connect flags \(flags) (MQTT 3.1.1 §3.1.2.3)"
        case let .emptyPayload(packet):
            return "\(packet) with an empty payload (MQTT 3.1.1 §3.8.3, §3.9.3, §3.10.3)"
        }
    }
}

/// A packet over the decoder's maximum size: skipped as it streams in, never buffered. For a
/// PUBLISH, the topic and packet identifier (the variable header, at most 65539 bytes) are read
/// first, so the receiver can say which topic it dropped and still acknowledge a QoS 1 message.
public struct MQTTOversizedPacket: Sendable, Equatable {
    /// The control packet type (§2.2.1), 3 for PUBLISH.
    public var type: UInt8
    /// The whole packet's size in bytes, fixed header included.
    public var size: Int
    /// For a PUBLISH: its topic.
    public var topic: String?
    /// For a PUBLISH: its QoS.
    public var qos: MQTTQoS?
    /// For a PUBLISH: whether it is a retained message.
    public var retain: Bool
    /// For a PUBLISH at QoS 1 or 2: its packet identifier.
    public var packetId: UInt16?

    public init(type: UInt8, size: Int, topic: String? = nil, qos: MQTTQoS? = nil, retain: Bool = false, packetId: UInt16? = nil) {
        self.type = type
        self.size = size
        self.topic = topic
        self.qos = qos
        self.retain = retain
        self.packetId = packetId
    }

    /// For a PUBLISH: the size of its payload, what the sender published (the whole packet less
    /// the fixed header, the topic and the packet identifier of QoS 1 and 2; §3.3.2, §3.3.3).
    public var payloadSize: Int? {
        guard type == 3, let topic else { return nil }
        // The Remaining Length takes 1 to 4 bytes, 7 bits each (§2.2.3).
        var lengthBytes = 1
        while lengthBytes < 4 && size - 1 - lengthBytes > (1 << (7 * lengthBytes)) - 1 { lengthBytes += 1 }
        let identifier = (qos ?? .atMostOnce) == .atMostOnce ? 0 : 2
        return size - 1 - lengthBytes - 2 - topic.utf8.count - identifier
    }
}

/// One thing the decoder found in the stream.
public enum MQTTDecoded: Sendable, Equatable {
    case packet(MQTTPacket)
    /// A packet larger than the maximum, reported once when its header has been read; its bytes
    /// are then dropped as they arrive.
    case oversized(MQTTOversizedPacket)
}

/// Reads control packets out of a byte stream fed in chunks of any size: a packet split across
/// chunks waits for the rest, a chunk holding several packets yields them one by one. Only the
/// packet being read is buffered, and never more than `maximumPacketSize` of it (plus the chunk
/// being fed). After an error the decoder stays failed: reset it with a new one for a new
/// connection.
public struct MQTTDecoder: Sendable {
    /// The largest packet (fixed header included) that is decoded; larger ones are skipped and
    /// reported as `.oversized`.
    public let maximumPacketSize: Int

    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var position = 0
    /// Bytes of an oversized packet still to drop as they arrive.
    private var skipping = 0
    private var failure: MQTTDecodeError?

    /// `maximumPacketSize` is clamped to at least 5 bytes (a fixed header).
    public init(maximumPacketSize: Int = 1 << 20) {
        self.maximumPacketSize = max(5, maximumPacketSize)
    }

    /// Bytes buffered and not yet decoded (for tests and memory accounting).
    public var bufferedCount: Int { buffer.count - position }

    /// Hands the decoder the next bytes of the stream.
    public mutating func feed(_ bytes: [UInt8]) {
        feed(bytes[...])
    }

    /// Hands the decoder the next bytes of the stream.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        var rest = bytes
        if skipping > 0 {
            let dropped = min(skipping, rest.count)
            skipping -= dropped
            rest = rest.dropFirst(dropped)
        }
        if !rest.isEmpty { buffer.append(contentsOf: rest) }
    }

    /// The next packet, nil when the bytes so far end inside one. Throws (and keeps throwing)
    /// once the stream is malformed.
    public mutating func next() throws(MQTTDecodeError) -> MQTTDecoded? {
        if let failure { throw failure }
        do throws(MQTTDecodeError) {
            return try decodeNext()
        } catch {
            failure = error
            buffer = []
            position = 0
            throw error
        }
    }

    private mutating func decodeNext() throws(MQTTDecodeError) -> MQTTDecoded? {
        if skipping > 0 { return nil }  // feed drops the rest of an oversized packet first
        let available = buffer.count - position
        guard available >= 2 else { return nil }
        let first = buffer[position]
        let type = first >> 4
        let flags = first & 0x0F
        try Self.checkFlags(type: type, flags: flags)
        // §2.2.3: 7 bits a byte, least significant group first; at most four bytes.
        var length = 0
        var multiplier = 1
        var headerSize = 1
        while true {
            guard headerSize < available else { return nil }
            let byte = buffer[position + headerSize]
            headerSize += 1
            length += Int(byte & 0x7F) * multiplier
            if byte & 0x80 == 0 { break }
            if headerSize == 5 { throw .malformedRemainingLength }
            multiplier *= 128
        }
        let size = headerSize + length
        let bodyStart = position + headerSize
        if size > maximumPacketSize {
            var report = MQTTOversizedPacket(type: type, size: size)
            if type == 3 {
                // The variable header only: topic (2 + n bytes) and, above QoS 0, the packet id.
                guard available - headerSize >= 2 else { return nil }
                let topicLength = Int(buffer[bodyStart]) << 8 | Int(buffer[bodyStart + 1])
                let qosBits = (flags >> 1) & 0x03
                let needed = 2 + topicLength + (qosBits > 0 ? 2 : 0)
                guard needed <= length else { throw .invalidLength(packet: "PUBLISH", length: length) }
                guard available - headerSize >= needed else { return nil }
                var reader = Reader(buffer[bodyStart..<(bodyStart + needed)], packet: "PUBLISH")
                let topic = try reader.string(field: "PUBLISH topic")
                let qos = MQTTQoS(rawValue: qosBits)!  // checkFlags refused 3
                report.topic = topic
                report.qos = qos
                report.retain = flags & 0x01 != 0
                if qos != .atMostOnce { report.packetId = try reader.packetId() }
            }
            let inBuffer = min(available, size)
            consume(inBuffer)
            skipping = size - inBuffer
            return .oversized(report)
        }
        guard available >= size else { return nil }
        let body = buffer[bodyStart..<(position + size)]
        let packet = try Self.decodeBody(type: type, flags: flags, body)
        consume(size)
        return .packet(packet)
    }

    /// Drops `count` bytes from the front, compacting the buffer now and then.
    private mutating func consume(_ count: Int) {
        position += count
        if position == buffer.count {
            // A large packet's storage is let go; a small one's is kept for the next.
            if buffer.capacity > 65536 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            position = 0
        } else if position >= 4096 && position * 2 >= buffer.count {
            buffer.removeFirst(position)
            position = 0
        }
    }

    /// §2.2.2, Table 2.2: the flags every type but PUBLISH must carry; PUBLISH's QoS is 0–2.
    static func checkFlags(type: UInt8, flags: UInt8) throws(MQTTDecodeError) {
        switch type {
        case 0, 15:
            throw .reservedPacketType(type)
        case 3:
            let qos = (flags >> 1) & 0x03
            if qos == 3 { throw .invalidQoS(packet: "PUBLISH", value: 3) }
            if qos == 0 && flags & 0x08 != 0 { throw .dupAtQoS0 }
        case 6, 8, 10:
            if flags != 0x02 { throw .invalidFlags(packet: MQTTPacket.name(ofType: type), flags: flags) }
        default:
            if flags != 0 { throw .invalidFlags(packet: MQTTPacket.name(ofType: type), flags: flags) }
        }
    }

    /// One whole packet's variable header and payload.
    static func decodeBody(type: UInt8, flags: UInt8, _ body: ArraySlice<UInt8>) throws(MQTTDecodeError) -> MQTTPacket {
        let name = MQTTPacket.name(ofType: type)
        var reader = Reader(body, packet: name)
        let packet: MQTTPacket
        switch type {
        case 1:
            packet = .connect(try decodeConnect(&reader))
        case 2:
            guard body.count == 2 else { throw .invalidLength(packet: name, length: body.count) }
            let ackFlags = try reader.byte()
            guard ackFlags & 0xFE == 0 else { throw .invalidConnackFlags(ackFlags) }
            let code = try reader.byte()
            guard let returnCode = MQTTConnectReturnCode(rawValue: code) else { throw .invalidConnectReturnCode(code) }
            packet = .connack(sessionPresent: ackFlags & 0x01 != 0, returnCode: returnCode)
        case 3:
            let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03)!  // checkFlags refused 3
            let topic = try reader.string(field: "PUBLISH topic")
            let id: UInt16? = qos == .atMostOnce ? nil : try reader.packetId()
            packet = .publish(MQTTPublish(topic: topic, payload: reader.rest(), qos: qos, retain: flags & 0x01 != 0,
                                          dup: flags & 0x08 != 0, packetId: id))
        case 4, 5, 6, 7, 11:
            guard body.count == 2 else { throw .invalidLength(packet: name, length: body.count) }
            let id = try reader.packetId()
            switch type {
            case 4: packet = .puback(packetId: id)
            case 5: packet = .pubrec(packetId: id)
            case 6: packet = .pubrel(packetId: id)
            case 7: packet = .pubcomp(packetId: id)
            default: packet = .unsuback(packetId: id)
            }
        case 8:
            let id = try reader.packetId()
            var subscriptions: [MQTTSubscription] = []
            while !reader.isAtEnd {
                let filter = try reader.string(field: "topic filter")
                let requested = try reader.byte()
                // §3.8.3.1 (MQTT-3.8.3-4): upper six bits reserved, QoS 3 malformed.
                guard requested <= 2, let qos = MQTTQoS(rawValue: requested) else {
                    throw .invalidQoS(packet: name, value: requested)
                }
                subscriptions.append(MQTTSubscription(filter, qos: qos))
            }
            guard !subscriptions.isEmpty else { throw .emptyPayload(packet: name) }
            packet = .subscribe(packetId: id, subscriptions: subscriptions)
        case 9:
            let id = try reader.packetId()
            var results: [MQTTSubscribeResult] = []
            while !reader.isAtEnd {
                let code = try reader.byte()
                switch code {
                case 0, 1, 2: results.append(.granted(MQTTQoS(rawValue: code)!))
                case 0x80: results.append(.failure)
                default: throw .invalidSubackCode(code)
                }
            }
            guard !results.isEmpty else { throw .emptyPayload(packet: name) }
            packet = .suback(packetId: id, results: results)
        case 10:
            let id = try reader.packetId()
            var filters: [String] = []
            while !reader.isAtEnd { filters.append(try reader.string(field: "topic filter")) }
            guard !filters.isEmpty else { throw .emptyPayload(packet: name) }
            packet = .unsubscribe(packetId: id, filters: filters)
        case 12, 13, 14:
            guard body.isEmpty else { throw .invalidLength(packet: name, length: body.count) }
            packet = type == 12 ? .pingreq : type == 13 ? .pingresp : .disconnect
        default:
            throw .reservedPacketType(type)
        }
        guard reader.isAtEnd else { throw .invalidLength(packet: name, length: body.count) }
        return packet
    }

    /// §3.1.2 variable header, §3.1.3 payload.
    static func decodeConnect(_ reader: inout Reader) throws(MQTTDecodeError) -> MQTTConnectOptions {
        let protocolName = try reader.string(field: "protocol name")
        let level = try reader.byte()
        guard protocolName == "MQTT", level == 4 else { throw .unsupportedProtocol(name: protocolName, level: level) }
        let flags = try reader.byte()
        let hasWill = flags & 0x04 != 0
        let willQoSBits = (flags >> 3) & 0x03
        let willRetain = flags & 0x20 != 0
        let hasUser = flags & 0x80 != 0
        let hasPassword = flags & 0x40 != 0
        guard flags & 0x01 == 0, willQoSBits != 3, hasWill || (willQoSBits == 0 && !willRetain), hasUser || !hasPassword else {
            throw .invalidConnectFlags(flags)
        }
        let keepAlive = UInt16(try reader.byte()) << 8 | UInt16(try reader.byte())
        let clientId = try reader.string(field: "client id")
        var will: MQTTWill?
        if hasWill {
            let topic = try reader.string(field: "will topic")
            let payload = try reader.binary()
            will = MQTTWill(topic: topic, payload: payload, qos: MQTTQoS(rawValue: willQoSBits)!, retain: willRetain)
        }
        let username: String? = hasUser ? try reader.string(field: "user name") : nil
        let password: [UInt8]? = hasPassword ? try reader.binary() : nil
        return MQTTConnectOptions(clientId: clientId, cleanSession: flags & 0x02 != 0, keepAlive: keepAlive, will: will,
                                  username: username, password: password)
    }

    /// Reads fields off one packet's body; running past its end is a length error.
    struct Reader {
        private let bytes: ArraySlice<UInt8>
        private var index: Int
        private let packet: String

        init(_ bytes: ArraySlice<UInt8>, packet: String) {
            self.bytes = bytes
            self.index = bytes.startIndex
            self.packet = packet
        }

        var isAtEnd: Bool { index == bytes.endIndex }

        mutating func byte() throws(MQTTDecodeError) -> UInt8 {
            guard index < bytes.endIndex else { throw .invalidLength(packet: packet, length: bytes.count) }
            defer { index += 1 }
            return bytes[index]
        }

        /// §2.3.1: two bytes, most significant first, non-zero.
        mutating func packetId() throws(MQTTDecodeError) -> UInt16 {
            let id = UInt16(try byte()) << 8 | UInt16(try byte())
            guard id != 0 else { throw .zeroPacketId(packet: packet) }
            return id
        }

        /// §1.5.3 length-prefixed bytes.
        mutating func binary() throws(MQTTDecodeError) -> [UInt8] {
            let count = Int(try byte()) << 8 | Int(try byte())
            guard bytes.endIndex - index >= count else { throw .invalidLength(packet: packet, length: bytes.count) }
            defer { index += count }
            return Array(bytes[index..<(index + count)])
        }

        /// §1.5.3: a length-prefixed, well-formed UTF-8 string without U+0000.
        mutating func string(field: String) throws(MQTTDecodeError) -> String {
            let utf8 = try binary()
            if utf8.contains(0) { throw .nulInString(field: field) }
            guard MQTTUTF8.isWellFormed(utf8) else { throw .invalidUTF8(field: field) }
            return String(decoding: utf8, as: UTF8.self)
        }

        /// The rest of the body (a PUBLISH payload).
        mutating func rest() -> [UInt8] {
            defer { index = bytes.endIndex }
            return Array(bytes[index...])
        }
    }
}

/// The UTF-8 rules of §1.5.3 for bytes that arrive: well-formed (RFC 3629: no overlong forms,
/// no surrogates U+D800–U+DFFF, nothing above U+10FFFF).
public enum MQTTUTF8 {
    public static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: return false
            }
            guard n - i > count else { return false }
            let second = bytes[i + 1]
            guard second >= low && second <= high else { return false }
            var k = 2
            while k <= count {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += count + 1
        }
        return true
    }
}
