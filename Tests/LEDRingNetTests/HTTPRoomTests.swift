@testable import LEDRingNet
import Testing

/// The HTTP server's room rules with times passed in: deadlines by phase, the quotas, and one
/// host's share when slow bodies fill the room.
@Suite struct HTTPRoomTests {
    @Test func deadlinesByPhase() {
        var room = HTTPRoom(limit: 4, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        _ = room.opened(1, at: 0)                    // never finishes its headers
        _ = room.opened(2, at: 0)
        let r1 = room.started(2, at: 1)
        #expect(r1.serve)        // headers in at 1, body never finishes
        _ = room.opened(3, at: 0)
        let r2 = room.started(3, at: 1)
        #expect(r2.serve)
        room.bodyReceived(3)                         // being answered: no deadline
        _ = room.opened(4, at: 0)
        let r3 = room.started(4, at: 1)
        let r4 = room.startStream(4)
        #expect(r3.serve && r4)
        #expect(room.expired(at: 10).isEmpty)
        #expect(room.nextDeadline == 10)
        #expect(room.expired(at: 10.5) == [1])       // headers past 10 s
        #expect(room.expired(at: 11.5) == [1, 2])    // body past 10 s after its headers
        room.finished(3, at: 12)
        #expect(room.expired(at: 31) == [1, 2])      // 3: idle 10 s + 10 s for the next headers, not yet
        #expect(room.expired(at: 32.5) == [1, 2, 3])
        room.closed(1)
        room.closed(2)
        room.closed(3)
        #expect(room.nextDeadline == nil, "a stream alone has no deadline")
    }

    @Test func streamsHaveTheirOwnQuotaAndAFullRoomSaysBusy() {
        var room = HTTPRoom(limit: 3, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        for key in 1...3 {
            let r5 = room.opened(key, at: 0)
            #expect(r5 == nil)
            let r6 = room.started(key, at: 0)
            #expect(r6.serve)
        }
        let r7 = room.startStream(1)
        let r8 = room.startStream(2)
        #expect(r7 && r8)
        let r9 = room.startStream(3)
        #expect(!r9)
        let r10 = room.opened(4, at: 1)
        #expect(r10 == nil, "nobody only waiting: nothing to cut")
        let r11 = room.started(4, at: 1)
        #expect(!r11.serve)       // 4 answering at once > limit 3: 503
        #expect(room.counts.open == 4 && room.counts.streams == 2)
        room.closed(4)
        #expect(room.counts.open == 3)
    }

    @Test func theOldestWaitingConnectionMakesRoom() {
        var room = HTTPRoom(limit: 2, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        _ = room.opened(1, at: 0)
        _ = room.opened(2, at: 1)
        let r12 = room.opened(3, at: 2)
        #expect(r12 == 1)
        #expect(room.phase(1) == .cut)
        room.closed(1)
        let r13 = room.started(3, at: 2)
        #expect(r13.serve)
    }

    /// Issue 28: one host sending bodies slowly on every connection (each under its deadline,
    /// reconnecting when cut) cannot lock the others out: a newcomer from another host takes the
    /// place of that host's oldest body still arriving, up to its own share; the host holding
    /// the room gets 503 for more.
    @Test func aHostSendingSlowBodiesCannotLockOthersOut() {
        var room = HTTPRoom(limit: 8, streamLimit: 2, headerTimeout: 10, idleTimeout: 10)
        let attacker: [UInt8] = [10, 0, 0, 9], other: [UInt8] = [10, 0, 0, 7]
        for key in 1...8 {
            _ = room.opened(key, peer: attacker, at: Double(key))
            #expect(room.started(key, at: Double(key)).serve)
        }
        _ = room.opened(9, peer: attacker, at: 9)
        let r14 = room.started(9, at: 9)
        #expect(!r14.serve, "the host that holds the room gets no more")
        room.closed(9)
        _ = room.opened(20, peer: other, at: 10)
        let r15 = room.started(20, at: 10)
        #expect(r15 == (true, 1), "a newcomer is served, in the place of the oldest body")
        _ = room.opened(21, peer: other, at: 10)
        let r16 = room.started(21, at: 10)
        #expect(r16 == (true, 2))
        _ = room.opened(22, peer: other, at: 10)
        let r17 = room.started(22, at: 10)
        #expect(!r17.serve, "past its own share of \(room.peerShare), the newcomer waits too")
        // The two cut (1 and 2) wait to be closed; past the deadline, 3 is next.
        room.closed(1)
        room.closed(2)
        #expect(room.expired(at: 13.5) == [3], "3, whose body started at 3")
    }
}
