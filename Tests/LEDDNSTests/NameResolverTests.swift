import Glibc
import LEDDNS
import LEDRingTesting
import LEDSystem
import Testing

/// `NameResolver` on the fake kernel's UDP: a test's socket plays the name server; the files come
/// from the fake's file system. The real name server is DnsmasqInteropTests' part.
@Suite struct NameResolverTests {
    static let server = IPEndpoint(numeric: "127.0.0.53", port: 53)!

    static func fake(resolv: String = "nameserver 127.0.0.53\noptions timeout:2 attempts:2\n", hosts: String = "") -> FakeSystemCalls {
        let fake = FakeSystemCalls()
        fake.addFile("/etc/resolv.conf", resolv)
        fake.addFile("/etc/hosts", hosts)
        return fake
    }

    /// One turn of a poll loop.
    static func turn(_ resolver: NameResolver, _ fake: FakeSystemCalls, now: Double) throws {
        var fds = resolver.pollRequests
        if !fds.isEmpty, try fake.poll(&fds, timeout: 0) > 0 {
            for entry in fds { resolver.handle(entry.fd, revents: entry.revents, now: now) }
        }
        resolver.tick(now: now)
    }

    @Test func theHostsFileAnswersWithoutASocket() throws {
        let fake = NameResolverTests.fake(hosts: "10.0.0.9 broker broker.lan\n")
        let resolver = NameResolver(name: "broker", port: 1883, system: fake, idSeed: 7, now: 0)
        #expect(resolver.outcome == .found([IPEndpoint(numeric: "10.0.0.9", port: 1883)!]))
        #expect(resolver.pollRequests.isEmpty && resolver.nextDeadline == nil)
        #expect(!fake.calls.contains { $0.syscall == .ipSocket })
    }

    @Test func aNameServerAnswersOverUDPAndTheSocketIsClosed() throws {
        let fake = NameResolverTests.fake()
        let server = fake.addDatagramSocket(NameResolverTests.server)
        let resolver = NameResolver(name: "broker", port: 1883, system: fake, idSeed: 7, now: 0)
        #expect(resolver.outcome == nil && resolver.nextDeadline == 2)
        let socket = try #require(resolver.pollRequests.first?.fd)
        #expect(fake.calls.contains { $0 == .ipSocket(family: AF_INET, kind: .datagram, flags: O_NONBLOCK) })
        let queries = fake.peerDatagrams(server)
        #expect(queries.count == 1)
        let query = try #require(queries.first)
        #expect(query.bytes == (try DNSMessage.query(id: 8, name: "broker", type: .a)))
        let answer = try HostLookupTests.response(to: query.bytes, records: [("broker", 1, [192, 168, 1, 20])])
        #expect(fake.peerSend(server, answer, to: query.from))
        try NameResolverTests.turn(resolver, fake, now: 0.1)
        #expect(resolver.outcome == .found([IPEndpoint(numeric: "192.168.1.20", port: 1883)!]))
        #expect(!fake.openEndpoints.contains(socket) && resolver.pollRequests.isEmpty)
    }

    @Test func aSilentServerIsAskedAgainAtItsTimeoutThenGivenUp() throws {
        let fake = NameResolverTests.fake()
        let server = fake.addDatagramSocket(NameResolverTests.server)
        let resolver = NameResolver(name: "broker", port: 1883, system: fake, idSeed: 7, now: 0)
        #expect(fake.peerDatagrams(server).count == 1)
        try NameResolverTests.turn(resolver, fake, now: 1.9)
        #expect(fake.peerDatagrams(server).isEmpty, "nothing before the timeout")
        try NameResolverTests.turn(resolver, fake, now: 2)
        #expect(fake.peerDatagrams(server).count == 1, "attempts:2 asks again")
        try NameResolverTests.turn(resolver, fake, now: 4)
        #expect(resolver.outcome == .failed("no answer from 127.0.0.53"))
        #expect(resolver.pollRequests.isEmpty)
    }

    @Test func aSendTheKernelRefusesCountsAsNoAnswer() throws {
        let fake = NameResolverTests.fake(resolv: "nameserver 127.0.0.53\noptions timeout:1 attempts:1\n")
        fake.fail(.sendDatagram, with: Errno(rawValue: ENETUNREACH))
        let resolver = NameResolver(name: "broker", port: 1883, system: fake, idSeed: 7, now: 0)
        #expect(resolver.lastSendFailure == "cannot send to 127.0.0.53:53: \(Errno(rawValue: ENETUNREACH))")
        try NameResolverTests.turn(resolver, fake, now: 1)
        #expect(resolver.outcome == .failed("no answer from 127.0.0.53"))
    }

    /// UDP as Linux has it: an unbound socket's first sendto binds it to an ephemeral port,
    /// the reply comes from the server's address, and a datagram longer than the buffer is cut.
    @Test func fakeUDPBindsOnFirstSendAndCutsLongDatagrams() throws {
        let fake = FakeSystemCalls()
        let server = fake.addDatagramSocket(NameResolverTests.server)
        let client = try fake.ipSocket(family: AF_INET, kind: .datagram, flags: O_NONBLOCK)
        var empty = [UInt8](repeating: 0, count: 4)
        let nothing = empty.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> (count: Int, from: IPEndpoint) in try fake.receiveDatagram(client, into: raw) }
        }
        #expect(nothing.map { $0.count } == .failure(Errno(rawValue: EAGAIN)))
        let bytes: [UInt8] = [1, 2, 3]
        _ = try bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) -> Int in try fake.sendDatagram(client, raw, to: NameResolverTests.server) }
        }.get()
        let got = try #require(fake.peerDatagrams(server).first)
        #expect(got.bytes == [1, 2, 3] && got.from.address == [127, 0, 0, 1] && (32768...60999).contains(got.from.port))
        #expect(fake.peerSend(server, Array(0..<10), to: got.from))
        var buffer = [UInt8](repeating: 0, count: 4)
        let received = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> (count: Int, from: IPEndpoint) in try fake.receiveDatagram(client, into: raw) }
        }.get()
        #expect(received.count == 4 && buffer == [0, 1, 2, 3] && received.from == NameResolverTests.server)
        // The rest of that datagram is gone: the queue is empty again.
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0)]
        _ = try fake.poll(&fds, timeout: 0)
        #expect(fds[0].revents & Int16(POLLIN) == 0)
    }
}
