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
}
