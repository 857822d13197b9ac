import Glibc
import LEDSystem

/// One `HostLookup` on non-blocking UDP sockets through the `LEDSystem` seam: a name looked up
/// as descriptors and a deadline of the daemon's poll loop, so a slow name server never stops
/// the frames (where `getaddrinfo(3)` would block for `timeout × attempts` seconds), in the full
/// build and the static Embedded one alike (which has no NSS to call).
///
/// The caller's loop, each turn: poll `pollRequests`, hand each entry's `revents` to
/// `handle(_:revents:now:)`, call `tick(now:)` at `nextDeadline`; `outcome` is set once the
/// lookup ends, and the sockets are closed then. A numeric address, `/etc/hosts` and localhost
/// end it at once, with no socket.
public final class NameResolver {
    /// The answer, once there is one.
    public var outcome: HostLookup.Outcome? { lookup.outcome }
    /// When `tick` must run (a query's timeout); nil once there is an outcome.
    public var nextDeadline: Double? { lookup.deadline }

    /// The most a datagram answer may be here (RFC 1035 §4.2.1: 512 over UDP without EDNS;
    /// more room costs nothing and takes a server that sends more).
    public static let datagramSize = 4096

    private var lookup: HostLookup
    private let system: any SystemCalls
    /// The UDP socket of each family the queries went out on (IPv4 and IPv6 servers differ).
    private var sockets: [(family: Int32, fd: Int32)] = []
    private var buffer = [UInt8](repeating: 0, count: NameResolver.datagramSize)
    /// Why sending failed, when it did on every server: the outcome then says so.
    private var sendFailure: String?

    /// Starts looking `name` up for `port`. `/etc/hosts` and `/etc/resolv.conf` are read
    /// through `system` (missing ones count as empty: resolv.conf(5)'s defaults); `idSeed` is a
    /// random number (the first query's id), `now` seconds on a monotonic clock.
    public init(name: String, port: UInt16, system: any SystemCalls, idSeed: UInt16, now: Double,
                hostsPath: String = "/etc/hosts", resolverPath: String = "/etc/resolv.conf") {
        self.system = system
        let hosts = (try? system.readFile(hostsPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let resolver = (try? system.readFile(resolverPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        lookup = HostLookup(name: name, port: port, hosts: hosts, configuration: ResolverConfiguration(parsing: resolver),
                            idSeed: idSeed, now: now)
        send(now: now)
    }

    /// Starts a lookup with a resolver configuration given whole (a test's name server port).
    public init(name: String, port: UInt16, hosts: String, configuration: ResolverConfiguration,
                system: any SystemCalls, idSeed: UInt16, now: Double) {
        self.system = system
        lookup = HostLookup(name: name, port: port, hosts: hosts, configuration: configuration, idSeed: idSeed, now: now)
        send(now: now)
    }

    deinit { closeSockets() }

    /// The sockets to poll for reading.
    public var pollRequests: [pollfd] {
        sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    }

    /// Reads the answers that arrived on `fd`.
    public func handle(_ fd: Int32, revents: Int16, now: Double) {
        guard revents != 0, sockets.contains(where: { $0.fd == fd }) else { return }
        while lookup.outcome == nil {
            let received = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> (count: Int, from: IPEndpoint) in try system.receiveDatagram(fd, into: raw) }
            }
            guard case let .success(datagram) = received else { break }
            lookup.receive(Array(buffer[..<datagram.count]), from: datagram.from, now: now)
        }
        send(now: now)
    }

    /// Runs the query timeout due at `now` (the next server, round or name).
    public func tick(now: Double) {
        guard let deadline = lookup.deadline, now >= deadline else { return }
        lookup.expire(now: now)
        send(now: now)
    }

    /// Sends what the lookup asks for; closes the sockets once it has its outcome.
    private func send(now: Double) {
        for datagram in lookup.takeDatagrams() {
            do throws(Errno) {
                let fd = try socket(for: datagram.to.family)
                // Array.withUnsafeBytes only rethrows untyped errors: the call's own are kept in a Result.
                let sent = datagram.bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) -> Int in try system.sendDatagram(fd, raw, to: datagram.to) }
                }
                _ = try sent.get()
            } catch {
                // An unreachable server (ENETUNREACH without a route, EPERM from a firewall)
                // is like one that does not answer: its timeout moves on to the next.
                sendFailure = "cannot send to \(datagram.to): \(error)"
            }
        }
        if lookup.outcome != nil { closeSockets() }
    }

    private func socket(for family: Int32) throws(Errno) -> Int32 {
        if let open = sockets.first(where: { $0.family == family }) { return open.fd }
        let fd = try system.ipSocket(family: family, kind: .datagram, flags: O_NONBLOCK)
        sockets.append((family, fd))
        return fd
    }

    private func closeSockets() {
        for socket in sockets { try? system.close(socket.fd) }
        sockets = []
    }

    /// Why the last send failed, if one did (for the log beside a failed outcome).
    public var lastSendFailure: String? { sendFailure }
}
