import Foundation
import Glibc
import LEDDNS
import LEDRingNetTesting
import LEDSystem
import Testing

/// HostLookup against a real name server: Debian's dnsmasq on a loopback port, serving a hosts
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

    /// Runs `lookup` to its end over a real UDP socket with poll, as the daemon's loop will.
    static func run(_ lookup: inout HostLookup, clock: ContinuousClock.Instant) throws -> HostLookup.Outcome {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        func now() -> Double { let d = ContinuousClock.now - clock; return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        while lookup.outcome == nil {
            for datagram in lookup.takeDatagrams() {
                let sent = datagram.bytes.withUnsafeBytes { bytes in
                    datagram.to.withSocketAddress { sendto(fd, bytes.baseAddress, bytes.count, 0, $0, $1) }
                }
                try #require(sent == datagram.bytes.count)
            }
            guard let deadline = lookup.deadline else { break }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(max(0, (deadline - now()) * 1000)))
            if fds[0].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 1500)
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let count = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length) }
                    }
                }
                if count > 0, let source = IPEndpoint(storage) { lookup.receive(Array(buffer.prefix(count)), from: source, now: now()) }
            } else {
                lookup.expire(now: now())
            }
        }
        return try #require(lookup.outcome)
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
        let start = ContinuousClock.now
        // dnsmasq may take a moment to listen: the lookup's own retries cover that.
        for (name, expected) in [("broker", HostLookup.Outcome.found([IPEndpoint(numeric: "192.168.1.20", port: 1883)!])),
                                 ("alias.lan", .found([IPEndpoint(numeric: "192.168.1.20", port: 1883)!])),
                                 ("six", .found([IPEndpoint(numeric: "fd00::20", port: 1883)!])),
                                 ("nobody.lan", .failed("no such host"))] {
            var lookup = HostLookup(name: name, port: 1883, hosts: "", configuration: configuration,
                                    idSeed: UInt16.random(in: 0...UInt16.max), now: 0)
            let outcome = try DnsmasqInteropTests.run(&lookup, clock: start)
            #expect(outcome == expected, "\(name): \((try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? "")")
        }
    }
}
