import Foundation

/// The latest snapshot for server-sent event streams, with a version so each stream sends only
/// what is new and coalesces bursts into the latest picture.
final class EventHub: @unchecked Sendable {
    // @unchecked: every stored property is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var version: UInt64 = 0
    private var latest: RingSnapshot
    private var closed = false

    /// What a waiting stream gets.
    enum Next {
        /// A snapshot newer than the stream's last.
        case snapshot(version: UInt64, RingSnapshot)
        /// Nothing changed before the deadline (time for a keep-alive comment).
        case idle
        /// The server is stopping.
        case closed
    }

    init(initial: RingSnapshot) { latest = initial }

    /// The current version and snapshot.
    func current() -> (UInt64, RingSnapshot) {
        condition.lock()
        defer { condition.unlock() }
        return (version, latest)
    }

    /// Stores a new snapshot and wakes every stream.
    func publish(_ snapshot: RingSnapshot) {
        condition.lock()
        latest = snapshot
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
    /// `notBefore` (the throttle) and returns the latest snapshot at that moment.
    func next(after seen: UInt64, notBefore: Date, deadline: Date) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while !closed && version == seen {
            if !condition.wait(until: deadline) { break }
        }
        if closed { return .closed }
        if version == seen { return .idle }
        while !closed && Date() < notBefore {
            _ = condition.wait(until: notBefore)
        }
        if closed { return .closed }
        return .snapshot(version: version, latest)
    }
}
