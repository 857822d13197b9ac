import Glibc
@testable import LEDRingNet
import Testing

/// The HTTP connection bookkeeping with times passed in (descriptor -1: nothing to cut).
@Suite struct ConnectionTableTests {
    @Test func deadlinesByPhase() {
        let table = ConnectionTable(limit: 4, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        table.opened(1, socket: -1, at: 0)          // never finishes its headers
        table.opened(2, socket: -1, at: 0)
        #expect(table.started(2, at: 1))             // headers in at 1, body never finishes
        table.opened(3, socket: -1, at: 0)
        #expect(table.started(3, at: 1))
        table.bodyReceived(3)                        // being answered: no deadline
        table.opened(4, socket: -1, at: 0)
        #expect(table.started(4, at: 1) && table.startStream(4))
        #expect(table.sweep(at: 10) == 0)
        // Cut connections stay listed until libmicrohttpd reports them closed (never, here), so
        // each sweep counts the earlier ones again.
        #expect(table.sweep(at: 10.5) == 1)          // 1: headers past 10 s
        #expect(table.sweep(at: 11.5) == 2)          // + 2: body past 10 s after its headers
        table.finished(3, at: 12)
        #expect(table.sweep(at: 31) == 2)            // 3: idle 10 s + 10 s for the next headers, not yet
        #expect(table.sweep(at: 32.5) == 3)          // + 3
    }

    @Test func streamsHaveTheirOwnQuotaAndAFullTableSaysBusy() {
        let table = ConnectionTable(limit: 3, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        for key in UInt(1)...3 {
            table.opened(key, socket: -1, at: 0)
            #expect(table.started(key, at: 0))
        }
        #expect(table.startStream(1) && table.startStream(2))
        #expect(!table.startStream(3))
        table.opened(4, socket: -1, at: 1)
        #expect(!table.started(4, at: 1))            // 4 answering at once > limit 3: 503
        #expect(table.counts.open == 4 && table.counts.streams == 2)
        table.closed(4)
        #expect(table.counts.open == 3)
    }

    /// Issue 28: one host sending bodies slowly on every connection (each under its deadline,
    /// reconnecting when cut) cannot lock the others out: a newcomer from another host takes the
    /// place of that host's oldest body still arriving, up to its own share; the host holding
    /// the room gets 503 for more.
    @Test func aHostSendingSlowBodiesCannotLockOthersOut() {
        let table = ConnectionTable(limit: 8, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        let attacker: [UInt8] = [10, 0, 0, 9], other: [UInt8] = [10, 0, 0, 7]
        for key in UInt(1)...8 {
            table.opened(key, socket: -1, peer: attacker, at: Double(key))
            #expect(table.started(key, at: Double(key)))
        }
        table.opened(9, socket: -1, peer: attacker, at: 9)
        #expect(!table.started(9, at: 9), "the host that holds the room gets no more")
        table.closed(9)
        table.opened(20, socket: -1, peer: other, at: 10)
        #expect(table.started(20, at: 10), "a newcomer is served")
        table.opened(21, socket: -1, peer: other, at: 10)
        #expect(table.started(21, at: 10))
        table.opened(22, socket: -1, peer: other, at: 10)
        #expect(!table.started(22, at: 10), "past its own share of \(table.peerShare), the newcomer waits too")
        // The two cut were the attacker's oldest (1 and 2): past the deadline, only the rest are cut.
        #expect(table.sweep(at: 11.5) == 0)
        #expect(table.sweep(at: 13.5) == 1, "3, whose body started at 3")
    }

    /// The peer of a real accepted loopback connection is 127.0.0.1, the port left out.
    @Test func thePeerIsTheAddressWithoutThePort() throws {
        #expect(ConnectionTable.peerAddress(of: -1).isEmpty)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        #expect(bound == 0 && listen(listener, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        #expect(connected == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        #expect(ConnectionTable.peerAddress(of: accepted) == [127, 0, 0, 1])
    }

}
