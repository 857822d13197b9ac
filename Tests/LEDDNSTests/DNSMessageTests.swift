import LEDDNS
import Testing

/// The wire format of RFC 1035 §4, checked against bytes worked out by hand from the RFC.
@Suite struct DNSMessageTests {
    @Test func anAQueryIsTheRFCsLayout() throws {
        let bytes = try DNSMessage.query(id: 0x1234, name: "broker.lan", type: .a)
        // ID, flags with RD only, QDCOUNT 1, the other counts 0; the name's labels; QTYPE A, QCLASS IN.
        #expect(bytes == [0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
                          6, 0x62, 0x72, 0x6F, 0x6B, 0x65, 0x72, 3, 0x6C, 0x61, 0x6E, 0,
                          0, 1, 0, 1])
    }

    @Test func aMulticastQueryHasNoRecursionAndTheQUBit() throws {
        let bytes = try DNSMessage.query(id: 7, name: "homeassistant.local.", type: .aaaa, recursion: false, unicastResponse: true)
        #expect(Array(bytes.prefix(4)) == [0, 7, 0, 0])
        #expect(Array(bytes.suffix(4)) == [0, 28, 0x80, 0x01])
    }

    @Test(arguments: ["", "a..b", String(repeating: "x", count: 64) + ".lan",
                      Array(repeating: String(repeating: "y", count: 60), count: 5).joined(separator: ".")])
    func namesThatCannotBeAskedAreRefused(_ name: String) {
        #expect(throws: DNSMessage.Failure.badName(name)) { try DNSMessage.query(id: 1, name: name, type: .a) }
    }

    /// dnsmasq 2.90's answer for `alias.lan` with `--cname=alias.lan,broker.lan` (captured from it):
    /// the CNAME, then broker.lan's A record named by a pointer into the CNAME's data.
    static let dnsmasqAnswer: [UInt8] = hex(
        "12348580000100020000000005616c696173036c616e0000010001c00c0005000100000000000c0662726f6b6572036c616e00c02700010001000000000004c0a80114")

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test func anAliasIsFollowedToItsAddress() throws {
        let answer = try DNSMessage.answer(DNSMessageTests.dnsmasqAnswer, name: "ALIAS.lan.", type: .a)
        #expect((answer.id, answer.responseCode, answer.truncated) == (0x1234, 0, false))
        #expect(answer.addresses == [[192, 168, 1, 20]])
        // The same bytes asked about another name give nothing.
        #expect(try DNSMessage.answer(DNSMessageTests.dnsmasqAnswer, name: "other.lan", type: .a).addresses.isEmpty)
    }

    /// A response built by hand with the RFC's compression: the answer's owner is a pointer to the
    /// question's name (offset 12), and the class has multicast DNS's cache-flush bit.
    @Test func compressedNamesAndTheCacheFlushBitAreRead() throws {
        var bytes: [UInt8] = [0, 9, 0x84, 0x00, 0, 1, 0, 2, 0, 0, 0, 0]
        bytes += [4, 0x68, 0x6F, 0x73, 0x74, 5, 0x6C, 0x6F, 0x63, 0x61, 0x6C, 0, 0, 1, 0x80, 0x01]   // host.local A
        bytes += [0xC0, 12, 0, 1, 0x80, 0x01, 0, 0, 0, 120, 0, 4, 10, 0, 0, 7]                       // host.local A 10.0.0.7
        bytes += [0xC0, 12, 0, 28, 0x80, 0x01, 0, 0, 0, 120, 0, 16] + [0xFD] + Array(repeating: 0, count: 14) + [1]
        #expect(try DNSMessage.answer(bytes, name: "host.local", type: .a).addresses == [[10, 0, 0, 7]])
        #expect(try DNSMessage.answer(bytes, name: "host.local", type: .aaaa).addresses == [[0xFD] + Array(repeating: 0, count: 14) + [1]])
    }

    @Test func brokenAnswersAreMalformedNotACrash() {
        let header: [UInt8] = [0, 1, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]
        let cases: [[UInt8]] = [
            [0, 1, 0x81],                                           // shorter than a header
            [0, 1, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0],              // a query, not a response
            header + [0xC0, 12],                                     // a name pointing at itself
            header + [9, 0x61],                                      // a label past the end
            header + [1, 0x61, 0, 0, 1, 0, 1, 0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 9, 1, 2],  // data past the end
            header + [0x40, 0],                                      // a label type RFC 1035 has not
        ]
        for bytes in cases {
            #expect(throws: DNSMessage.Failure.self) { try DNSMessage.answer(bytes, name: "a", type: .a) }
        }
        // Every prefix of a good answer fails cleanly too.
        for count in 0..<DNSMessageTests.dnsmasqAnswer.count {
            _ = try? DNSMessage.answer(Array(DNSMessageTests.dnsmasqAnswer.prefix(count)), name: "alias.lan", type: .a)
        }
    }

    @Test func aHostsFileIsReadAsGlibcReadsIt() {
        let hosts = """
        127.0.0.1\tlocalhost
        # 192.168.1.9 broker
        192.168.1.5 broker.lan  Broker mqtt # the Pi in the hall
        fd00::5 broker
        """
        #expect(HostsFile.addresses(of: "BROKER", in: hosts) == ["192.168.1.5", "fd00::5"])
        #expect(HostsFile.addresses(of: "mqtt.", in: hosts) == ["192.168.1.5"])
        #expect(HostsFile.addresses(of: "hall", in: hosts).isEmpty)
    }

    @Test func resolvConfHasGlibcsDefaultsAndLimits() {
        let empty = ResolverConfiguration(parsing: "")
        #expect(empty.nameservers == ["127.0.0.1"])
        #expect((empty.timeout, empty.attempts, empty.ndots) == (5, 2, 1))
        let file = ResolverConfiguration(parsing: """
        # generated by NetworkManager
        domain home
        search lan home.arpa
        nameserver 192.168.1.1
        nameserver fd00::1
        nameserver 9.9.9.9
        nameserver 1.1.1.1
        options timeout:1 attempts:9 rotate ndots:2
        """)
        #expect(file.nameservers == ["192.168.1.1", "fd00::1", "9.9.9.9"])
        #expect(file.search == ["lan", "home.arpa"])
        #expect((file.timeout, file.attempts, file.ndots) == (1, 5, 2))
        #expect(file.candidates(for: "broker") == ["broker.lan", "broker.home.arpa", "broker"])
        #expect(file.candidates(for: "a.b.c") == ["a.b.c", "a.b.c.lan", "a.b.c.home.arpa"])
        #expect(file.candidates(for: "broker.") == ["broker"])
    }
}
