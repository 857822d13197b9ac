import Glibc
import LEDHardware
import LEDRingTesting
import Testing

/// The fake kernel's TCP sockets answer as Linux does: each scenario runs on the real kernel's
/// loopback and on `FakeSystemCalls`, with the same expectations, so the MQTT and HTTP tests on
/// the fake cannot pass on behaviour Linux does not have.
@Suite struct TCPSemanticsTests {
    typealias Kernel = SocketSemanticsTests.Kernel

    static func seam(_ kernel: Kernel) -> any SystemCalls {
        kernel == .linux ? LinuxSystemCalls() : FakeSystemCalls()
    }

    static func outcome(_ body: () throws(Errno) -> Void) -> String {
        SocketSemanticsTests.outcome { () throws(Errno) -> Int in
            try body()
            return 0
        }
    }

    /// A listener on 127.0.0.1 at a port the kernel chose.
    static func listener(_ seam: any SystemCalls) throws -> (fd: Int32, endpoint: IPEndpoint) {
        let fd = try seam.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        try seam.setSocketOption(fd, .reuseAddress, true)
        try seam.bind(fd, to: .loopback(port: 0))
        try seam.listen(fd, backlog: 4)
        return (fd, try seam.localEndpoint(fd))
    }

    @Test(arguments: Kernel.allCases)
    func aNonBlockingConnectCompletesThroughPollAndSOError(_ kernel: Kernel) throws {
        let seam = TCPSemanticsTests.seam(kernel)
        let (listener, endpoint) = try TCPSemanticsTests.listener(seam)
        defer { try? seam.close(listener) }
        #expect(endpoint.host == "127.0.0.1")
        #expect(endpoint.port != 0)
        let client = try seam.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        // Closed once: the test closes it half way, and a second close(2) on a real kernel would
        // close whatever descriptor another test running beside this one had opened meanwhile.
        var clientOpen = true
        defer { if clientOpen { try? seam.close(client) } }
        // connect(2): a non-blocking TCP socket is EINPROGRESS even on the loopback.
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, to: endpoint) } == "errno \(EINPROGRESS)")
        var fds = [pollfd(fd: client, events: Int16(POLLOUT), revents: 0)]
        #expect(try seam.poll(&fds, timeout: 2000) == 1)
        #expect(fds[0].revents == Int16(POLLOUT))
        #expect(try seam.socketError(client) == nil)
        // __inet_stream_connect: the next connect of a socket whose handshake is done says 0 and
        // makes it SS_CONNECTED; only then is it EISCONN.
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, to: endpoint) } == "0")
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, to: endpoint) } == "errno \(EISCONN)")
        fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        #expect(try seam.poll(&fds, timeout: 2000) == 1)
        let server = try seam.accept(listener, flags: O_NONBLOCK | O_CLOEXEC)
        defer { try? seam.close(server) }
        // Each end names the other.
        #expect(try seam.peerEndpoint(server) == seam.localEndpoint(client))
        #expect(try seam.peerEndpoint(client) == endpoint)
        try seam.setSocketOption(server, .noDelay, true)
        #expect(SocketSemanticsTests.read(seam, server) == "errno \(EAGAIN)")
        #expect(SocketSemanticsTests.send(seam, client, "CONNECT") == "7")
        fds = [pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 2000)
        #expect(SocketSemanticsTests.read(seam, server) == "7")
        clientOpen = false
        try seam.close(client)
        fds = [pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 2000)
        #expect(fds[0].revents & Int16(POLLIN) != 0)
        #expect(SocketSemanticsTests.read(seam, server) == "0")
    }

    @Test(arguments: Kernel.allCases)
    func aRefusedConnectIsPollErrorThenECONNREFUSEDOnce(_ kernel: Kernel) throws {
        let seam = TCPSemanticsTests.seam(kernel)
        // A port held by a bound socket that does not listen: nothing answers there.
        let holder = try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0)
        defer { try? seam.close(holder) }
        try seam.bind(holder, to: .loopback(port: 0))
        let closed = try seam.localEndpoint(holder)
        let client = try seam.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        defer { try? seam.close(client) }
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, to: closed) } == "errno \(EINPROGRESS)")
        var fds = [pollfd(fd: client, events: Int16(POLLIN | POLLOUT), revents: 0)]
        #expect(try seam.poll(&fds, timeout: 2000) == 1)
        // tcp_poll: the reset closed it (POLLHUP) with sk_err set (POLLERR), and it is readable
        // and writable too; a connect is finished when any of these come.
        #expect(fds[0].revents == Int16(POLLIN | POLLOUT | POLLERR | POLLHUP))
        #expect(try seam.socketError(client) == Errno(rawValue: ECONNREFUSED))
        #expect(try seam.socketError(client) == nil)
        // A blocking socket hears it at once.
        let blocking = try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0)
        defer { try? seam.close(blocking) }
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(blocking, to: closed) } == "errno \(ECONNREFUSED)")
    }

    @Test(arguments: Kernel.allCases)
    func aTakenPortIsEADDRINUSEAndAWrongFamilyIsRefused(_ kernel: Kernel) throws {
        let seam = TCPSemanticsTests.seam(kernel)
        let (listener, endpoint) = try TCPSemanticsTests.listener(seam)
        defer { try? seam.close(listener) }
        let second = try seam.ipSocket(family: AF_INET, kind: .stream, flags: 0)
        defer { try? seam.close(second) }
        try seam.setSocketOption(second, .reuseAddress, true)
        // SO_REUSEADDR does not let two sockets listen on one port (inet_csk_bind_conflict).
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.bind(second, to: endpoint) } == "errno \(EADDRINUSE)")
        let any = IPEndpoint(numeric: "0.0.0.0", port: endpoint.port)!
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.bind(second, to: any) } == "errno \(EADDRINUSE)")
        // An IPv4 socket given an IPv6 address (inet_bind checks sin_family).
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.bind(second, to: IPEndpoint(numeric: "::1", port: 0)!) }
            == "errno \(EAFNOSUPPORT)")
        // IPV6_V6ONLY is no option of an IPv4 socket (ip_setsockopt: ENOPROTOOPT).
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.setSocketOption(second, .ipv6Only, true) }
            == "errno \(ENOPROTOOPT)")
        // A Unix path is no address of an IP socket.
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.bind(second, path: "/tmp/ledring-no.sock") }
            == "errno \(EAFNOSUPPORT)")
        try seam.bind(second, to: .loopback(port: 0))
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.bind(second, to: .loopback(port: 0)) } == "errno \(EINVAL)")
    }

    @Test func anInterruptedConnectGoesOnAsEINPROGRESS() throws {
        let fake = FakeSystemCalls()
        let listener = fake.addListeningIPSocket(.loopback(port: 1883))
        #expect(fake.boundEndpoint(listener) == .loopback(port: 1883))
        fake.fail(.connect, with: .interrupted)
        let seam = RetryingSystemCalls(fake)
        let client = try seam.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        // Retrying would be EALREADY on Linux: the connect goes on, and says so.
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, to: .loopback(port: 1883)) }
            == "errno \(EINPROGRESS)")
        #expect(fake.calls.filter { $0.syscall == .connect }.count == 1)
    }

    @Test func aTestCanPlayTheServerAndResetTheConnection() throws {
        let fake = FakeSystemCalls()
        let listener = fake.addListeningIPSocket(.loopback(port: 0))
        let port = try #require(fake.boundEndpoint(listener)).port
        #expect((32768...60999).contains(port))
        let client = try fake.ipSocket(family: AF_INET, kind: .stream, flags: O_NONBLOCK)
        #expect(TCPSemanticsTests.outcome { () throws(Errno) in try fake.connect(client, to: .loopback(port: port)) } == "errno \(EINPROGRESS)")
        let server = try #require(fake.acceptClient(listener))
        fake.clientSend(server, "\u{20}\u{02}\u{00}\u{00}")
        #expect(SocketSemanticsTests.read(fake, client) == "4")
        fake.clientReset(server)
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0)]
        _ = try fake.poll(&fds, timeout: 0)
        #expect(fds[0].revents & Int16(POLLERR | POLLHUP) == Int16(POLLERR | POLLHUP))
        #expect(SocketSemanticsTests.read(fake, client) == "errno \(ECONNRESET)")
    }

    @Test(arguments: [
        ("192.168.1.10", "192.168.1.10:1883"), ("::1", "[::1]:1883"), ("[fd00::2]", "[fd00::2]:1883"),
        ("::ffff:10.0.0.1", "[::ffff:10.0.0.1]:1883"),
    ])
    func numericAddressesReadAndWriteBack(_ text: String, _ shown: String) throws {
        let endpoint = try #require(IPEndpoint(numeric: text, port: 1883))
        #expect(endpoint.description == shown)
        #expect(IPEndpoint(numeric: endpoint.host, port: 1883) == endpoint)
    }

    @Test(arguments: ["mqtt.local", "1.2.3", "256.1.1.1", "", "[::1", "1.2.3.4:80", "fe80::1%eth0"])
    func namesAndMalformedAddressesAreNotNumeric(_ text: String) {
        #expect(IPEndpoint(numeric: text, port: 1883) == nil)
    }
}
