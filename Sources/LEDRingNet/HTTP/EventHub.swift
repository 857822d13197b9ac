// Threads and locks: the full build's front ends. The Embedded build has neither; its daemon
// runs the network on its poll loop instead.
#if !hasFeature(Embedded)
import LEDRingControl
import LEDSystem

/// Tells server-sent event streams that the rings changed. It keeps only a version number: a
/// stream takes the current snapshot when it sends, so it always sends the newest picture (the
/// snapshots observers are handed may arrive out of order) and coalesces bursts into one event.
final class EventHub: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` held.
    // @unchecked: `version` and `closed` are read and written only with `condition` locked.
    private let condition = ConditionLock()
    private var version: UInt64 = 0
    private var closed = false
    /// The current snapshot, from the control.
    let snapshot: @Sendable () -> RingSnapshot

    /// What a waiting stream gets.
    enum Next {
        /// Something changed after the stream's last version; send the current snapshot.
        case changed(version: UInt64)
        /// Nothing changed before the deadline (time for a keep-alive comment).
        case idle
        /// The server is stopping.
        case closed
    }

    init(snapshot: @escaping @Sendable () -> RingSnapshot) { self.snapshot = snapshot }

    /// The current version.
    var current: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return version
    }

    /// Records a change and wakes every stream.
    func changed() {
        condition.lock()
        version &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every stream for good.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (until `deadline` at most) for a version after `seen`, then holds it back until
    /// `notBefore` (the throttle, so changes in between are merged into one event); both are
    /// seconds on `MonotonicClock`.
    func next(after seen: UInt64, notBefore: Double, deadline: Double) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while !closed && version == seen {
            if !condition.wait(until: deadline) { break }
        }
        if closed { return .closed }
        if version == seen { return .idle }
        while !closed && MonotonicClock.seconds() < notBefore {
            _ = condition.wait(until: notBefore)
        }
        return closed ? .closed : .changed(version: version)
    }
}
#endif
