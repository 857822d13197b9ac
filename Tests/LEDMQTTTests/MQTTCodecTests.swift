import LEDMQTT
import Testing

/// Bytes written as the spec's figures write them: hex pairs separated by spaces.
func hex(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Every packet the client speaks or hears, with its bytes worked out by hand from MQTT 3.1.1
/// (fixed header §2.2, each packet's section in §3), not taken from the encoder.
let goldenPackets: [(name: String, packet: MQTTPacket, bytes: [UInt8])] = [
    // §3.1: 0x10; remaining 10 (variable header) + 2 + 7 (client id) = 19. Protocol name "MQTT"
    // (§3.1.2.1), level 4, flags 0x02 = clean session only, keep-alive 60 = 00 3C.
    ("CONNECT, clean session, client id only",
     .connect(MQTTConnectOptions(clientId: "ledring", cleanSession: true, keepAlive: 60)),
     hex("10 13 00 04 4D 51 54 54 04 02 00 3C 00 07 6C 65 64 72 69 6E 67")),
    // The flags of §3.1.2.11's example (Figure 3.6): user name, password, will QoS 1, will,
    // clean session = 0xCE, keep-alive 10; then the payload in §3.1.3's order: client id "c1",
    // will topic "a/b", will message "off", user name "u", password "pw". 10 + 4 + 5 + 5 + 3 + 4 = 31.
    ("CONNECT, will QoS 1, user name and password",
     .connect(MQTTConnectOptions(clientId: "c1", cleanSession: true, keepAlive: 10,
                                 will: MQTTWill(topic: "a/b", payload: utf8("off"), qos: .atLeastOnce, retain: false),
                                 username: "u", password: utf8("pw"))),
     hex("10 1F 00 04 4D 51 54 54 04 CE 00 0A 00 02 63 31 00 03 61 2F 62 00 03 6F 66 66 00 01 75 00 02 70 77")),
    // Flags user name 0x80 | will retain 0x20 | will 0x04, clean session 0, will QoS 0; keep-alive
    // 0; an empty will message is its two length bytes. 10 + 3 + 3 + 2 + 4 = 22.
    ("CONNECT, retained will, user name without password, session kept",
     .connect(MQTTConnectOptions(clientId: "x", cleanSession: false, keepAlive: 0,
                                 will: MQTTWill(topic: "t", payload: [], qos: .atMostOnce, retain: true),
                                 username: "me")),
     hex("10 16 00 04 4D 51 54 54 04 A4 00 00 00 01 78 00 01 74 00 00 00 02 6D 65")),
    // A will at QoS 2 (bits 4–3 = 10) and retained, password binary with a zero byte:
    // flags 0x80 | 0x40 | 0x20 | 0x10 | 0x04 | 0x02 = 0xF6. 10 + 2 + 3 + 3 + 3 + 4 = 25.
    ("CONNECT, will QoS 2 retained, binary password",
     .connect(MQTTConnectOptions(clientId: "", cleanSession: true, keepAlive: 0x0102,
                                 will: MQTTWill(topic: "w", payload: [0x01], qos: .exactlyOnce, retain: true),
                                 username: "u", password: [0x00, 0xFF])),
     hex("10 19 00 04 4D 51 54 54 04 F6 01 02 00 00 00 01 77 00 01 01 00 01 75 00 02 00 FF")),
    // §3.2: 0x20, remaining 2: acknowledge flags (bit 0 session present), return code (Table 3.1).
    ("CONNACK accepted", .connack(sessionPresent: false, returnCode: .accepted), hex("20 02 00 00")),
    ("CONNACK accepted, session present", .connack(sessionPresent: true, returnCode: .accepted), hex("20 02 01 00")),
    ("CONNACK 1 unacceptable protocol version", .connack(sessionPresent: false, returnCode: .unacceptableProtocolVersion), hex("20 02 00 01")),
    ("CONNACK 2 identifier rejected", .connack(sessionPresent: false, returnCode: .identifierRejected), hex("20 02 00 02")),
    ("CONNACK 3 server unavailable", .connack(sessionPresent: false, returnCode: .serverUnavailable), hex("20 02 00 03")),
    ("CONNACK 4 bad user name or password", .connack(sessionPresent: false, returnCode: .badUsernameOrPassword), hex("20 02 00 04")),
    ("CONNACK 5 not authorized", .connack(sessionPresent: false, returnCode: .notAuthorized), hex("20 02 00 05")),
    // §3.3: 0x30 | DUP 0x08 | QoS << 1 | RETAIN 0x01. QoS 0: topic, no packet id, payload.
    ("PUBLISH QoS 0", .publish(MQTTPublish(topic: "a/b", payload: utf8("hi"))), hex("30 07 00 03 61 2F 62 68 69")),
    ("PUBLISH QoS 0 retained", .publish(MQTTPublish(topic: "a/b", payload: utf8("hi"), retain: true)), hex("31 07 00 03 61 2F 62 68 69")),
    // §3.3.2.3's example: topic "a/b", packet id 10. DUP | QoS 1 | RETAIN = 0x3B; 5 + 2 + 2 = 9.
    ("PUBLISH QoS 1 DUP retained",
     .publish(MQTTPublish(topic: "a/b", payload: utf8("hi"), qos: .atLeastOnce, retain: true, dup: true, packetId: 10)),
     hex("3B 09 00 03 61 2F 62 00 0A 68 69")),
    ("PUBLISH QoS 1, empty payload",
     .publish(MQTTPublish(topic: "a/b", payload: [], qos: .atLeastOnce, packetId: 1)), hex("32 07 00 03 61 2F 62 00 01")),
    ("PUBLISH QoS 2", .publish(MQTTPublish(topic: "a/b", payload: [], qos: .exactlyOnce, packetId: 0x1234)),
     hex("34 07 00 03 61 2F 62 12 34")),
    // §1.5.3: the length prefix counts UTF-8 bytes, not characters ("é/€" is 2 + 1 + 3 bytes).
    ("PUBLISH with a non-ASCII topic", .publish(MQTTPublish(topic: "é/€", payload: [])), hex("30 08 00 06 C3 A9 2F E2 82 AC")),
    // §3.4–§3.7: two-byte packet id; PUBREL's flags are 0010 (§3.6.1).
    ("PUBACK", .puback(packetId: 0x1234), hex("40 02 12 34")),
    ("PUBREC", .pubrec(packetId: 0xFFFF), hex("50 02 FF FF")),
    ("PUBREL", .pubrel(packetId: 1), hex("62 02 00 01")),
    ("PUBCOMP", .pubcomp(packetId: 0x0100), hex("70 02 01 00")),
    // §3.8: flags 0010; id, then each filter and its requested QoS. 2 + 6 + 6 = 14.
    ("SUBSCRIBE two filters",
     .subscribe(packetId: 1, subscriptions: [MQTTSubscription("a/b", qos: .atLeastOnce), MQTTSubscription("c/#", qos: .atMostOnce)]),
     hex("82 0E 00 01 00 03 61 2F 62 01 00 03 63 2F 23 00")),
    // §3.9: a return code per filter: granted QoS 0, 1, 2, and 0x80 failure.
    ("SUBACK with a failure", .suback(packetId: 1, results: [.granted(.atMostOnce), .granted(.atLeastOnce), .granted(.exactlyOnce), .failure]),
     hex("90 06 00 01 00 01 02 80")),
    // §3.10: flags 0010; id, then the filters. 2 + 5 + 5 = 12.
    ("UNSUBSCRIBE two filters", .unsubscribe(packetId: 2, filters: ["a/b", "c/+"]), hex("A2 0C 00 02 00 03 61 2F 62 00 03 63 2F 2B")),
    ("UNSUBACK", .unsuback(packetId: 2), hex("B0 02 00 02")),
    // §3.12–§3.14: a fixed header alone.
    ("PINGREQ", .pingreq, hex("C0 00")),
    ("PINGRESP", .pingresp, hex("D0 00")),
    ("DISCONNECT", .disconnect, hex("E0 00")),
    // §2.2.3, Table 2.4: 128 is the first length of two bytes (80 01). Topic "t" (3) + 125 bytes.
    ("PUBLISH, remaining length 128",
     .publish(MQTTPublish(topic: "t", payload: [UInt8](repeating: 0x55, count: 125))),
     hex("30 80 01 00 01 74") + [UInt8](repeating: 0x55, count: 125)),
    // 16383 is the last of two bytes (FF 7F).
    ("PUBLISH, remaining length 16383",
     .publish(MQTTPublish(topic: "t", payload: [UInt8](repeating: 0xAA, count: 16380))),
     hex("30 FF 7F 00 01 74") + [UInt8](repeating: 0xAA, count: 16380)),
    // 16384 is the first of three (80 80 01).
    ("PUBLISH, remaining length 16384",
     .publish(MQTTPublish(topic: "t", payload: [UInt8](repeating: 0x01, count: 16381))),
     hex("30 80 80 01 00 01 74") + [UInt8](repeating: 0x01, count: 16381)),
]

/// Decodes `chunks` fed one after another; every packet, or the error that stopped it.
func decodeAll(_ chunks: [ArraySlice<UInt8>], maximumPacketSize: Int = 1 << 20) -> (decoded: [MQTTDecoded], error: MQTTDecodeError?) {
    var decoder = MQTTDecoder(maximumPacketSize: maximumPacketSize)
    var found: [MQTTDecoded] = []
    for chunk in chunks {
        decoder.feed(chunk)
        do {
            while let next = try decoder.next() { found.append(next) }
        } catch {
            return (found, error)
        }
    }
    return (found, nil)
}

@Suite struct MQTTEncoderTests {
    @Test(arguments: goldenPackets.indices)
    func encodesTheSpecBytes(_ index: Int) throws {
        let golden = goldenPackets[index]
        #expect(try MQTTEncoder.encode(golden.packet) == golden.bytes, "\(golden.name)")
    }

    /// §2.2.3, Table 2.4: the first and last length of each byte count.
    @Test func remainingLengthTable() throws {
        let table: [(Int, String)] = [
            (0, "00"), (127, "7F"), (128, "80 01"), (16_383, "FF 7F"), (16_384, "80 80 01"),
            (2_097_151, "FF FF 7F"), (2_097_152, "80 80 80 01"), (268_435_455, "FF FF FF 7F"),
        ]
        for (length, bytes) in table {
            #expect(try MQTTRemainingLength.encode(length) == hex(bytes), "\(length)")
        }
        #expect(throws: MQTTEncodeError.packetTooLarge(bytes: 268_435_456)) { try MQTTRemainingLength.encode(268_435_456) }
    }

    /// §1.5.3: strings are at most 65535 bytes and carry no U+0000; the rules of topics,
    /// filters, packet ids and CONNECT are refused before anything reaches a broker.
    @Test func refusesWhatTheSpecForbids() {
        func refuses(_ packet: MQTTPacket, _ error: MQTTEncodeError, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: error, sourceLocation: sourceLocation) { try MQTTEncoder.encode(packet) }
        }
        let long = String(repeating: "a", count: 65536)
        refuses(.publish(MQTTPublish(topic: "a\u{0}b", payload: [])), .nulInString(field: "PUBLISH topic"))
        refuses(.publish(MQTTPublish(topic: long, payload: [])), .stringTooLong(field: "PUBLISH topic", bytes: 65536))
        // 65535 bytes is still allowed (21845 three-byte characters).
        #expect((try? MQTTEncoder.encode(.publish(MQTTPublish(topic: String(repeating: "€", count: 21845), payload: [])))) != nil)
        refuses(.publish(MQTTPublish(topic: String(repeating: "€", count: 21846), payload: [])), .stringTooLong(field: "PUBLISH topic", bytes: 65538))
        refuses(.publish(MQTTPublish(topic: "", payload: [])), .emptyTopic(field: "PUBLISH topic"))
        refuses(.publish(MQTTPublish(topic: "a/+", payload: [])), .wildcardInTopic(field: "PUBLISH topic", topic: "a/+"))
        refuses(.publish(MQTTPublish(topic: "a/#", payload: [])), .wildcardInTopic(field: "PUBLISH topic", topic: "a/#"))
        refuses(.publish(MQTTPublish(topic: "a", payload: [], dup: true)), .dupAtQoS0)
        refuses(.publish(MQTTPublish(topic: "a", payload: [], packetId: 1)), .packetIdMismatch(qos: .atMostOnce))
        refuses(.publish(MQTTPublish(topic: "a", payload: [], qos: .atLeastOnce)), .packetIdMismatch(qos: .atLeastOnce))
        refuses(.publish(MQTTPublish(topic: "a", payload: [], qos: .atLeastOnce, packetId: 0)), .zeroPacketId)
        refuses(.puback(packetId: 0), .zeroPacketId)
        refuses(.connect(MQTTConnectOptions(clientId: "a\u{0}")), .nulInString(field: "client id"))
        refuses(.connect(MQTTConnectOptions(clientId: "c", username: "u\u{0}")), .nulInString(field: "user name"))
        refuses(.connect(MQTTConnectOptions(clientId: "c", password: [1])), .passwordWithoutUsername)
        refuses(.connect(MQTTConnectOptions(clientId: "", cleanSession: false)), .emptyClientIdNeedsCleanSession)
        refuses(.connect(MQTTConnectOptions(clientId: "c", will: MQTTWill(topic: "w/#", payload: []))), .wildcardInTopic(field: "will topic", topic: "w/#"))
        refuses(.connect(MQTTConnectOptions(clientId: "c", will: MQTTWill(topic: "w", payload: [UInt8](repeating: 0, count: 65536)))),
                .stringTooLong(field: "will payload", bytes: 65536))
        refuses(.subscribe(packetId: 1, subscriptions: []), .noFilters(packet: "SUBSCRIBE"))
        refuses(.unsubscribe(packetId: 1, filters: []), .noFilters(packet: "UNSUBSCRIBE"))
        for bad in ["a/#/b", "a#", "a/b+", "+a/b", "#/"] {
            refuses(.subscribe(packetId: 1, subscriptions: [MQTTSubscription(bad)]), .invalidFilter(bad))
        }
        refuses(.subscribe(packetId: 1, subscriptions: [MQTTSubscription("")]), .emptyTopic(field: "topic filter"))
        for good in ["#", "+", "a/+/c", "+/+", "a/#", "/", "sport/tennis/#"] {
            #expect((try? MQTTEncoder.encode(.subscribe(packetId: 1, subscriptions: [MQTTSubscription(good)]))) != nil, "\(good)")
        }
    }
}

@Suite struct MQTTDecoderTests {
    @Test(arguments: goldenPackets.indices)
    func decodesTheSpecBytes(_ index: Int) {
        let golden = goldenPackets[index]
        let (decoded, error) = decodeAll([golden.bytes[...]])
        #expect(error == nil && decoded == [.packet(golden.packet)], "\(golden.name)")
    }

    /// A packet split anywhere (a partial fixed header, length or field) decodes the same.
    @Test(arguments: goldenPackets.indices.filter { goldenPackets[$0].bytes.count < 200 })
    func decodesEverySplit(_ index: Int) {
        let golden = goldenPackets[index]
        let bytes = golden.bytes
        for cut in 0...bytes.count {
            let (decoded, error) = decodeAll([bytes[..<cut], bytes[cut...]])
            #expect(error == nil && decoded == [.packet(golden.packet)], "\(golden.name) split at \(cut)")
        }
        // And a byte at a time: nothing comes out before the last byte.
        var decoder = MQTTDecoder()
        for (offset, byte) in bytes.enumerated() {
            decoder.feed([byte])
            let next = try? decoder.next()
            if offset < bytes.count - 1 { #expect(next == nil, "\(golden.name): a packet after \(offset + 1) bytes") }
            else { #expect(next == .packet(golden.packet), "\(golden.name) fed a byte at a time") }
        }
    }

    /// The large ones split at the offsets that matter: inside the header, at its end, mid-payload.
    @Test(arguments: goldenPackets.indices.filter { goldenPackets[$0].bytes.count >= 200 })
    func decodesLargeOnesSplitAnywhereNearTheHeader(_ index: Int) {
        let golden = goldenPackets[index]
        let bytes = golden.bytes
        for cut in Array(0...12) + [bytes.count / 2, bytes.count - 1, bytes.count] {
            let (decoded, error) = decodeAll([bytes[..<cut], bytes[cut...]])
            #expect(error == nil && decoded == [.packet(golden.packet)], "\(golden.name) split at \(cut)")
        }
    }

    /// Several packets in one chunk come out one by one, in order, wherever the chunk is cut.
    @Test func decodesSeveralPacketsPerChunkSplitAnywhere() {
        let small = goldenPackets.filter { $0.bytes.count < 200 }
        let stream = small.flatMap { $0.bytes }
        let expected = small.map { MQTTDecoded.packet($0.packet) }
        let (all, error) = decodeAll([stream[...]])
        #expect(error == nil && all == expected)
        for cut in 0...stream.count {
            let (decoded, error) = decodeAll([stream[..<cut], stream[cut...]])
            #expect(error == nil && decoded == expected, "split at \(cut)")
        }
        // Three chunks, cut at every pair of offsets seven bytes apart.
        for cut in 0..<(stream.count - 7) {
            let (decoded, error) = decodeAll([stream[..<cut], stream[cut..<(cut + 7)], stream[(cut + 7)...]])
            #expect(error == nil && decoded == expected, "split at \(cut) and \(cut + 7)")
        }
    }

    /// §2.2.3: four length bytes at most; a continuation bit on the fourth is malformed, seen as
    /// soon as the fourth byte is there (not after waiting for a fifth or for a body).
    @Test func aFifthLengthByteIsMalformed() {
        #expect(decodeAll([hex("30 FF FF FF FF 01")[...]]).error == .malformedRemainingLength)
        #expect(decodeAll([hex("30 80 80 80 80")[...]]).error == .malformedRemainingLength)
        // Four bytes, the last without continuation, is the largest length: it just waits for the body.
        let (decoded, error) = decodeAll([hex("30 FF FF FF 7F 00 01 74")[...]], maximumPacketSize: Int.max)
        #expect(decoded.isEmpty && error == nil)
        // The decoder stays failed.
        var decoder = MQTTDecoder()
        decoder.feed(hex("30 FF FF FF FF"))
        #expect(throws: MQTTDecodeError.malformedRemainingLength) { try decoder.next() }
        decoder.feed(hex("D0 00"))
        #expect(throws: MQTTDecodeError.malformedRemainingLength) { try decoder.next() }
    }

    @Test func refusesMalformedPackets() {
        let cases: [(String, MQTTDecodeError)] = [
            ("00 00", .reservedPacketType(0)),
            ("F0 00", .reservedPacketType(15)),
            ("41 02 00 01", .invalidFlags(packet: "PUBACK", flags: 1)),
            ("80 08 00 01 00 03 61 2F 62 00", .invalidFlags(packet: "SUBSCRIBE", flags: 0)),
            ("60 02 00 01", .invalidFlags(packet: "PUBREL", flags: 0)),
            ("D1 00", .invalidFlags(packet: "PINGRESP", flags: 1)),
            ("36 05 00 01 74 00 01", .invalidQoS(packet: "PUBLISH", value: 3)),
            ("38 03 00 01 74", .dupAtQoS0),
            ("40 03 00 01 00", .invalidLength(packet: "PUBACK", length: 3)),
            ("40 01 00", .invalidLength(packet: "PUBACK", length: 1)),
            ("D0 01 00", .invalidLength(packet: "PINGRESP", length: 1)),
            ("20 03 00 00 00", .invalidLength(packet: "CONNACK", length: 3)),
            ("40 02 00 00", .zeroPacketId(packet: "PUBACK")),
            ("32 05 00 01 74 00 00", .zeroPacketId(packet: "PUBLISH")),
            ("20 02 02 00", .invalidConnackFlags(2)),
            ("20 02 00 06", .invalidConnectReturnCode(6)),
            ("90 03 00 01 03", .invalidSubackCode(3)),
            ("90 02 00 01", .emptyPayload(packet: "SUBACK")),
            ("A2 02 00 01", .emptyPayload(packet: "UNSUBSCRIBE")),
            ("82 07 00 01 00 02 61 62 03", .invalidQoS(packet: "SUBSCRIBE", value: 3)),
            // Topic length beyond the packet.
            ("30 03 00 05 74", .invalidLength(packet: "PUBLISH", length: 3)),
            // §1.5.3: an overlong NUL (C0 80), a surrogate (ED A0 80), a lone continuation byte,
            // a truncated sequence, and U+0000 itself.
            ("30 04 00 02 C0 80", .invalidUTF8(field: "PUBLISH topic")),
            ("30 05 00 03 ED A0 80", .invalidUTF8(field: "PUBLISH topic")),
            ("30 03 00 01 80", .invalidUTF8(field: "PUBLISH topic")),
            ("30 04 00 02 E2 82", .invalidUTF8(field: "PUBLISH topic")),
            ("30 06 00 04 F4 90 80 80", .invalidUTF8(field: "PUBLISH topic")),
            ("30 05 00 03 61 00 62", .nulInString(field: "PUBLISH topic")),
            ("10 0C 00 04 4D 51 54 54 03 02 00 3C 00 00", .unsupportedProtocol(name: "MQTT", level: 3)),
            ("10 0C 00 04 4D 51 54 54 04 03 00 3C 00 00", .invalidConnectFlags(3)),
            ("10 0C 00 04 4D 51 54 54 04 42 00 3C 00 00", .invalidConnectFlags(0x42)),
            ("10 0C 00 04 4D 51 54 54 04 22 00 3C 00 00", .invalidConnectFlags(0x22)),
        ]
        for (bytes, error) in cases {
            #expect(decodeAll([hex(bytes)[...]]).error == error, "\(bytes)")
        }
        // Four-byte characters are fine (U+1F600).
        #expect(decodeAll([hex("30 06 00 04 F0 9F 98 80")[...]]).decoded == [.packet(.publish(MQTTPublish(topic: "😀", payload: [])))])
    }

    /// A packet over the maximum is reported once, as soon as its header (and for a PUBLISH its
    /// topic and packet id) is read, then dropped as it streams in: the decoder never holds more
    /// than the header, and the packet after it decodes.
    @Test func anOversizedPacketIsSkippedWithoutBufferingIt() {
        // PUBLISH QoS 1 retained: remaining 2 + 3 + 2 + 200 = 207 = CF 01; 210 bytes in all.
        let big = hex("33 CF 01 00 03 62 69 67 00 07") + [UInt8](repeating: 0x42, count: 200)
        let stream = big + hex("D0 00")
        let report = MQTTDecoded.oversized(MQTTOversizedPacket(type: 3, size: 210, topic: "big", qos: .atLeastOnce, retain: true, packetId: 7))
        for cut in 0...stream.count {
            let (decoded, error) = decodeAll([stream[..<cut], stream[cut...]], maximumPacketSize: 64)
            #expect(error == nil && decoded == [report, .packet(.pingresp)], "split at \(cut)")
        }
        var decoder = MQTTDecoder(maximumPacketSize: 64)
        var found: [MQTTDecoded] = []
        var most = 0
        for byte in stream {
            decoder.feed([byte])
            while let next = try? decoder.next() { found.append(next) }
            most = max(most, decoder.bufferedCount)
        }
        #expect(found == [report, .packet(.pingresp)])
        #expect(most <= 10, "held \(most) bytes of a packet it skips")
        // Fed in chunks of 64 bytes: at most one chunk is ever held.
        decoder = MQTTDecoder(maximumPacketSize: 64)
        found = []
        most = 0
        let huge = hex("30 80 80 04 00 01 74") + [UInt8](repeating: 0, count: 65536 - 3) + hex("D0 00")
        var offset = 0
        while offset < huge.count {
            decoder.feed(huge[offset..<min(offset + 64, huge.count)])
            offset += 64
            while let next = try? decoder.next() { found.append(next) }
            most = max(most, decoder.bufferedCount)
        }
        #expect(found == [.oversized(MQTTOversizedPacket(type: 3, size: 65540, topic: "t", qos: .atMostOnce)), .packet(.pingresp)])
        #expect(most <= 64)
        // Not a PUBLISH: type and size only.
        let (decoded, _) = decodeAll([(hex("90 C8 01 00 01") + [UInt8](repeating: 0, count: 198) + hex("D0 00"))[...]], maximumPacketSize: 64)
        #expect(decoded == [.oversized(MQTTOversizedPacket(type: 9, size: 203)), .packet(.pingresp)])
    }
}
