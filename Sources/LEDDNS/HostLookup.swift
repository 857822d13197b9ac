import LEDSystem

/// One name lookup as glibc's resolver does it, without blocking: the caller sends the datagrams
/// it asks for from one UDP socket, hands back what arrives, and calls `expire` at `deadline`.
/// So the daemon's single poll loop keeps drawing frames while a name server is slow, where
/// `getaddrinfo(3)` would stop it for `timeout × attempts` seconds.
///
/// The order: a numeric address at once; `/etc/hosts`; a name under `.local` as a one-shot
/// multicast DNS query (RFC 6762 §5.1: from an ordinary port, so responders answer by unicast
/// to it); else each candidate name (`ResolverConfiguration.candidates`) from the name servers,
/// A first and AAAA when the name has no A record. An answer counts only from the server asked
/// (from any host for multicast DNS) with the query's id.
public struct HostLookup: Sendable {
    /// How the lookup ended.
    public enum Outcome: Equatable, Sendable {
        /// The name's addresses, with the port asked for.
        case found([IPEndpoint])
        /// Why not, in words for the log: "no such host", "no answer from 10.0.0.1".
        case failed(String)
    }

    /// A datagram to send.
    public struct Datagram: Equatable, Sendable {
        /// The query.
        public var bytes: [UInt8]
        /// The name server (or the multicast DNS group) to send it to.
        public var to: IPEndpoint
    }

    /// The multicast DNS group's IPv4 address and port (RFC 6762 §3).
    public static let multicastGroup = IPEndpoint(address: [224, 0, 0, 251], port: 5353)!
    /// How long a multicast DNS query waits before it is sent again, and how often.
    public static let multicastTimeout = 1.0
    public static let multicastTries = 3

    /// The outcome, once there is one.
    public private(set) var outcome: Outcome?
    /// When `expire` must be called (nil once there is an outcome).
    public private(set) var deadline: Double?

    let port: UInt16
    let candidates: [String]
    let servers: [IPEndpoint]
    let multicast: Bool
    let timeout: Double
    let rounds: Int
    var candidate = 0
    var type = DNSMessage.RecordType.a
    var round = 0
    var server = 0
    var id: UInt16
    var outgoing: [Datagram] = []

    /// Starts looking `name` up; `hosts` is `/etc/hosts`'s text, `configuration` what
    /// `/etc/resolv.conf` says, `idSeed` a random number (the first query's id), `now` seconds
    /// on a monotonic clock.
    public init(name: String, port: UInt16, hosts: String, configuration: ResolverConfiguration, idSeed: UInt16, now: Double) {
        self.port = port
        id = idSeed
        let canonical = DNSMessage.canonical(name)
        multicast = canonical.hasSuffix(".local")
        candidates = multicast ? [canonical] : configuration.candidates(for: name)
        servers = multicast ? [HostLookup.multicastGroup]
            : configuration.nameservers.compactMap { IPEndpoint(numeric: $0, port: configuration.port) }
        timeout = multicast ? HostLookup.multicastTimeout : Double(configuration.timeout)
        rounds = multicast ? HostLookup.multicastTries : configuration.attempts
        if let numeric = IPEndpoint(numeric: name, port: port) {
            outcome = .found([numeric])
            return
        }
        let listed = HostsFile.addresses(of: name, in: hosts).compactMap { IPEndpoint(numeric: $0, port: port) }
        if !listed.isEmpty {
            outcome = .found(listed)
            return
        }
        if canonical == "localhost" || canonical.hasSuffix(".localhost") {
            // RFC 6761 §6.3: localhost names are the loopback, never asked of a server.
            outcome = .found([IPEndpoint.loopback(port: port)])
            return
        }
        guard !servers.isEmpty, !candidates.isEmpty else {
            outcome = .failed("no name server in /etc/resolv.conf")
            return
        }
        ask(now: now)
    }

    /// The datagrams to send now, taken out.
    public mutating func takeDatagrams() -> [Datagram] {
        defer { outgoing = [] }
        return outgoing
    }

    /// Sends the query for the current candidate, type and server.
    mutating func ask(now: Double) {
        id &+= 1
        do throws(DNSMessage.Failure) {
            let name = candidates[candidate]
            if multicast {
                // Both types in one go: a responder answers only what it has, and silence
                // cannot say "no A record".
                outgoing.append(Datagram(bytes: try DNSMessage.query(id: id, name: name, type: .a, recursion: false,
                                                                     unicastResponse: true), to: servers[server]))
                outgoing.append(Datagram(bytes: try DNSMessage.query(id: id, name: name, type: .aaaa, recursion: false,
                                                                     unicastResponse: true), to: servers[server]))
            } else {
                outgoing.append(Datagram(bytes: try DNSMessage.query(id: id, name: name, type: type), to: servers[server]))
            }
            deadline = now + timeout
        } catch {
            nextCandidate(now: now, reason: "not a name that can be looked up")
        }
    }

    /// A datagram that came to the lookup's socket from `source`.
    public mutating func receive(_ bytes: [UInt8], from source: IPEndpoint, now: Double) {
        guard outcome == nil else { return }
        if !multicast && source != servers[server] { return }
        let name = candidates[candidate]
        var answer: DNSMessage.Answer?
        for asked in multicast ? [DNSMessage.RecordType.a, .aaaa] : [type] {
            if let parsed = try? DNSMessage.answer(bytes, name: name, type: asked), parsed.id == id {
                if answer == nil || !parsed.addresses.isEmpty { answer = parsed }
            }
        }
        guard let answer else { return }
        if !answer.addresses.isEmpty {
            finish(.found(answer.addresses.compactMap { IPEndpoint(address: $0, port: port) }))
            return
        }
        if multicast { return }  // another responder may still answer
        switch answer.responseCode {
        case 0 where answer.truncated:
            // Too big for a datagram and no TCP here: the next server may answer shorter.
            nextServer(now: now)
        case 0 where type == .a:
            type = .aaaa
            ask(now: now)
        case 0, 3:
            nextCandidate(now: now, reason: "no such host")
        default:
            nextServer(now: now)
        }
    }

    /// The deadline passed with no answer: the next server, round or try.
    public mutating func expire(now: Double) {
        guard outcome == nil, let deadline, now >= deadline else { return }
        nextServer(now: now)
    }

    mutating func nextServer(now: Double) {
        server += 1
        if server == servers.count {
            server = 0
            round += 1
        }
        guard round < rounds else {
            let asked = servers.map { $0.host }.joined(separator: ", ")
            finish(.failed(multicast ? "no answer to multicast DNS" : "no answer from \(asked)"))
            return
        }
        ask(now: now)
    }

    mutating func nextCandidate(now: Double, reason: String) {
        candidate += 1
        type = .a
        round = 0
        server = 0
        guard candidate < candidates.count else {
            finish(.failed(reason))
            return
        }
        ask(now: now)
    }

    mutating func finish(_ result: Outcome) {
        outcome = result
        deadline = nil
        outgoing = []
    }
}
