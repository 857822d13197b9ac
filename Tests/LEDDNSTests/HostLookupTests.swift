import LEDDNS
import LEDSystem
import Testing

/// The lookup's order and clock, step by step: what it sends, what it accepts, when it gives up.
@Suite struct HostLookupTests {
    static let configuration = ResolverConfiguration(parsing: "search lan\nnameserver 192.168.1.1\nnameserver 192.168.1.2\noptions timeout:2 attempts:2\n")
    static let first = IPEndpoint(numeric: "192.168.1.1", port: 53)!
    static let second = IPEndpoint(numeric: "192.168.1.2", port: 53)!

    /// An answer to `query` (its id and question) with `records` (name, type, data) and `code`.
    static func response(to query: [UInt8], code: UInt8 = 0, records: [(String, UInt16, [UInt8])] = []) throws -> [UInt8] {
        var bytes = Array(query.prefix(12))
        bytes[2] = 0x81
        bytes[3] = 0x80 | code
        bytes[6] = 0
        bytes[7] = UInt8(records.count)
        bytes += query.dropFirst(12)
        for (name, type, data) in records {
            bytes += try DNSMessage.encodeName(name)
            bytes += [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 60, 0, UInt8(data.count)] + data
        }
        return bytes
    }

    static func lookup(_ name: String, hosts: String = "") -> HostLookup {
        HostLookup(name: name, port: 1883, hosts: hosts, configuration: configuration, idSeed: 100, now: 0)
    }

    @Test(arguments: [("10.0.0.2", "10.0.0.2"), ("[::1]", "::1"), ("pi", "10.0.0.9"), ("PI.", "10.0.0.9"),
                      ("localhost", "127.0.0.1"), ("box.localhost", "127.0.0.1")])
    func numbersHostsAndLocalhostNeedNoServer(_ name: String, _ address: String) {
        var lookup = HostLookupTests.lookup(name, hosts: "10.0.0.9 pi\n")
        #expect(lookup.outcome == .found([IPEndpoint(numeric: address, port: 1883)!]))
        #expect(lookup.takeDatagrams().isEmpty)
        #expect(lookup.deadline == nil)
    }

    @Test func theSearchListThenAAAAThenTheAnswer() throws {
        var lookup = HostLookupTests.lookup("broker")
        var sent = lookup.takeDatagrams()
        #expect(sent.map(\.to) == [HostLookupTests.first])
        #expect(sent[0].bytes == (try DNSMessage.query(id: 101, name: "broker.lan", type: .a)))
        #expect(lookup.deadline == 2)
        // broker.lan does not exist: the name as it is, from the first server again.
        lookup.receive(try HostLookupTests.response(to: sent[0].bytes, code: 3), from: HostLookupTests.first, now: 0.1)
        sent = lookup.takeDatagrams()
        #expect(sent[0].bytes == (try DNSMessage.query(id: 102, name: "broker", type: .a)))
        // No A record (no error, no answer): ask for AAAA.
        lookup.receive(try HostLookupTests.response(to: sent[0].bytes), from: HostLookupTests.first, now: 0.2)
        sent = lookup.takeDatagrams()
        #expect(sent[0].bytes == (try DNSMessage.query(id: 103, name: "broker", type: .aaaa)))
        let address: [UInt8] = [0xFD] + Array(repeating: 0, count: 14) + [5]
        lookup.receive(try HostLookupTests.response(to: sent[0].bytes, records: [("broker", 28, address)]), from: HostLookupTests.first, now: 0.3)
        #expect(lookup.outcome == .found([IPEndpoint(address: address, port: 1883)!]))
        #expect(lookup.deadline == nil)
    }

    @Test func answersFromElsewhereOrWithAnotherIdAreIgnored() throws {
        var lookup = HostLookupTests.lookup("broker.lan")
        let query = lookup.takeDatagrams()[0].bytes
        let good = try HostLookupTests.response(to: query, records: [("broker.lan", 1, [10, 0, 0, 1])])
        // A spoofer on another host, another port, or guessing the id wrong.
        lookup.receive(good, from: IPEndpoint(numeric: "192.168.1.66", port: 53)!, now: 0.1)
        lookup.receive(good, from: IPEndpoint(numeric: "192.168.1.1", port: 5353)!, now: 0.1)
        var wrongID = good
        wrongID[1] ^= 0xFF
        lookup.receive(wrongID, from: HostLookupTests.first, now: 0.1)
        lookup.receive([1, 2, 3], from: HostLookupTests.first, now: 0.1)
        #expect(lookup.outcome == nil)
        lookup.receive(good, from: HostLookupTests.first, now: 0.2)
        #expect(lookup.outcome == .found([IPEndpoint(numeric: "10.0.0.1", port: 1883)!]))
    }

    @Test func silenceMovesThroughTheServersAndRoundsThenGivesUp() throws {
        var lookup = HostLookupTests.lookup("broker.lan")
        var asked: [IPEndpoint] = []
        var now = 0.0
        while lookup.outcome == nil {
            asked += lookup.takeDatagrams().map(\.to)
            let deadline = try #require(lookup.deadline)
            lookup.expire(now: deadline - 0.001)   // early: nothing happens
            #expect(lookup.takeDatagrams().isEmpty)
            now = deadline
            lookup.expire(now: now)
        }
        #expect(asked == [HostLookupTests.first, HostLookupTests.second, HostLookupTests.first, HostLookupTests.second])
        #expect(now == 8)
        #expect(lookup.outcome == .failed("no answer from 192.168.1.1, 192.168.1.2"))
    }

    @Test func aServerFailureAsksTheNextServer() throws {
        var lookup = HostLookupTests.lookup("broker.lan")
        let query = lookup.takeDatagrams()[0].bytes
        lookup.receive(try HostLookupTests.response(to: query, code: 2), from: HostLookupTests.first, now: 0.1)
        #expect(lookup.takeDatagrams().map(\.to) == [HostLookupTests.second])
    }

    @Test func aLocalNameIsAOneShotMulticastQueryAnsweredByAnyone() throws {
        var lookup = HostLookupTests.lookup("HomeAssistant.local")
        let sent = lookup.takeDatagrams()
        #expect(sent.map(\.to) == [HostLookup.multicastGroup, HostLookup.multicastGroup])
        #expect(sent.map { Array($0.bytes.suffix(4)) } == [[0, 1, 0x80, 0x01], [0, 28, 0x80, 0x01]])
        #expect(lookup.deadline == 1)
        // The responder answers from its own address, by unicast (RFC 6762 §6.7).
        let answer = try HostLookupTests.response(to: sent[0].bytes, records: [("homeassistant.local", 1, [192, 168, 1, 40])])
        lookup.receive(answer, from: IPEndpoint(numeric: "192.168.1.40", port: 5353)!, now: 0.05)
        #expect(lookup.outcome == .found([IPEndpoint(numeric: "192.168.1.40", port: 1883)!]))
    }
}
