import Foundation
import Glibc
import LEDDNS
import LEDRingNetTesting
import LEDSystem
import Testing

/// NameResolver (HostLookup on the real UDP system calls) against a real name server: Debian's dnsmasq on a loopback port, serving a hosts
/// file, an alias and a name with only an IPv6 address, and refusing others (`--local=/lan/`).
/// CI installs dnsmasq-base; elsewhere the test is skipped when dnsmasq is missing.
@Suite(.serialized) struct DnsmasqInteropTests {
    static let dnsmasq = ["/usr/sbin/dnsmasq", "/usr/bin/dnsmasq"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A UDP port nobody uses right now on 127.0.0.1.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        let bound = IPEndpoint.loopback(port: 0).withSocketAddress { Glibc.bind(fd, $0, $1) }
        try #require(bound == 0)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return try #require(IPEndpoint(storage)).port
    }

    /// Runs the product's `NameResolver` to its end over the real system calls, in a poll(2)
    /// loop as the daemon's.
    static func run(_ resolver: NameResolver, clock: ContinuousClock.Instant) throws -> HostLookup.Outcome {
        let system = RetryingSystemCalls(LinuxSystemCalls())
        func now() -> Double { let d = ContinuousClock.now - clock; return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        while resolver.outcome == nil {
            let deadline = try #require(resolver.nextDeadline)
            var fds = resolver.pollRequests
            _ = try system.poll(&fds, timeout: Int32(max(0, (deadline - now()) * 1000).rounded(.up)))
            for entry in fds { resolver.handle(entry.fd, revents: entry.revents, now: now()) }
            resolver.tick(now: now())
        }
        #expect(resolver.pollRequests.isEmpty, "the sockets are closed once the lookup ends")
        return try #require(resolver.outcome)
    }

    @Test func namesAliasesIPv6OnlyAndMissingNamesFromDnsmasq() throws {
        guard let dnsmasq = DnsmasqInteropTests.dnsmasq else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("dnsmasq is missing: .ci/run installs dnsmasq-base") }
            return
        }
        let directory = NSTemporaryDirectory() + "ledring-dns-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "192.168.1.20 broker.lan\n".write(toFile: directory + "/hosts", atomically: true, encoding: .utf8)
        let port = try DnsmasqInteropTests.freePort()
        // ChildProcess, not Foundation's Process: the child starts with no signals blocked, so
        // SIGTERM ends it (a mask inherited from the test process kept dnsmasq alive and the
        // test waiting for it).
        let server = try ChildProcess(dnsmasq, ["--keep-in-foreground", "--port=\(port)", "--listen-address=127.0.0.1", "--bind-interfaces",
                                                "--no-resolv", "--no-hosts", "--addn-hosts=\(directory)/hosts", "--local=/lan/",
                                                "--cname=alias.lan,broker.lan", "--host-record=six.lan,fd00::20", "--pid-file=",
                                                "--user=\(NSUserName())", "--log-facility=\(directory)/log"],
                                      stdout: .null, stderr: .null)
        defer {
            server.send(SIGTERM)
            if server.wait(timeout: 5) == nil { server.send(SIGKILL) }
        }
        var configuration = ResolverConfiguration(parsing: "search lan\nnameserver 127.0.0.1\noptions timeout:1 attempts:3\n")
        configuration.port = port
        // dnsmasq may take a moment to listen: the lookup's own retries cover that.
        for (name, expected) in [("broker", HostLookup.Outcome.found([IPEndpoint(numeric: "192.168.1.20", port: 1883)!])),
                                 ("alias.lan", .found([IPEndpoint(numeric: "192.168.1.20", port: 1883)!])),
                                 ("six", .found([IPEndpoint(numeric: "fd00::20", port: 1883)!])),
                                 ("nobody.lan", .failed("no such host"))] {
            let start = ContinuousClock.now
            let resolver = NameResolver(name: name, port: 1883, hosts: "", configuration: configuration,
                                        system: RetryingSystemCalls(LinuxSystemCalls()), idSeed: UInt16.random(in: 0...UInt16.max),
                                        now: 0)
            let outcome = try DnsmasqInteropTests.run(resolver, clock: start)
            #expect(outcome == expected, "\(name): \((try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? "")")
        }
    }
}
