import Synchronization

#if hasFeature(Embedded)
/// Embedded Swift's Synchronization has no `Mutex`; the Embedded build is single-threaded (the
/// threads are all in the network front ends it leaves out), so the list's lock there is a box with
/// the same `withLock` shape, and the code below reads the same in both builds.
private final class EntriesLock<Value>: @unchecked Sendable {
    private var value: Value
    init(_ value: consuming Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { body(&value) }
}
#else
private typealias EntriesLock = Mutex
#endif

/// Thread-safe observers of snapshots: what a `RingControl` conformer (the daemon, the in-memory
/// control) keeps to tell MQTT and HTTP about changes.
public final class ObserverList: Sendable {
    private struct Entries {
        var next: UInt64 = 0
        var handlers: [UInt64: @Sendable (RingSnapshot) -> Void] = [:]
    }

    private let entries = EntriesLock(Entries())

    /// An empty list.
    public init() {}

    /// Adds `handler`; it is called with every snapshot passed to `notify`.
    public func add(_ handler: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID {
        entries.withLock { e in
            e.next += 1
            e.handlers[e.next] = handler
            return ObserverID(rawValue: e.next)
        }
    }

    /// Removes an observer; unknown ids are ignored (removing twice is harmless).
    public func remove(_ id: ObserverID) {
        _ = entries.withLock { $0.handlers.removeValue(forKey: id.rawValue) }
    }

    /// How many observers there are.
    public var count: Int { entries.withLock { $0.handlers.count } }

    /// Calls every observer with `snapshot`, outside the lock so an observer may add, remove or
    /// call back into the control without deadlocking.
    public func notify(_ snapshot: RingSnapshot) {
        let handlers = entries.withLock { e in e.handlers.sorted { $0.key < $1.key }.map { $0.value } }
        for handler in handlers { handler(snapshot) }
    }
}
