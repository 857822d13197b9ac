// Only the network front ends drive the daemon through this (threads), so the Embedded
// build, which has none of them, leaves it out with them (see NetworkFrontEnds.swift).
#if !hasFeature(Embedded)
import Glibc
import LEDRingControl
import LEDSystem
import RingModel
import Synchronization

/// The daemon as a `RingControl` for the network front ends, whose thread (libmosquitto's)
/// calls it. It never touches daemon state: a request is checked here against a
/// copy of the ring names (`Request.validate(rings:)`, the controller's own check), queued under
/// a lock, and the poll loop is woken through a self-pipe; the loop applies it on its own thread
/// through the same `Controller.apply` as socket requests, then hands back a fresh snapshot and
/// signals the caller.
///
/// Checking here, not waiting for the loop's verdict, is what lets HTTP answer 404 or 400 at once
/// and keeps a refused command out of the queue. The caller then waits (bounded) until the loop
/// has applied its command, so an HTTP reply's snapshot already shows the change; the wait never
/// blocks the loop, and `close()` releases every waiter so stopping the servers (which waits for
/// open requests) cannot hang on it.
final class DaemonRemote: RingControl {
    /// A queued request and the semaphore its caller waits on.
    struct Pending: Sendable {
        /// What to do, for `Controller.apply`.
        var request: Request
        /// Signalled once the loop has applied it (or the remote is closed).
        var done: Completion
    }

    private struct Shared: ~Copyable {
        var queue: [Pending] = []
        /// The latest message for each MQTT source (by its index in the config's `sources`): a
        /// burst collapses into the newest, which is what the ring should show. With it, whether
        /// it was retained.
        var sourceMessages: [Int: (payload: [UInt8], retained: Bool)] = [:]
        var names: [String]
        /// Rings that take values in their own units, and the looks: what the controller's
        /// `validate` checks besides the names.
        var ranged: Set<String> = []
        var looks: [String] = []
        var snapshot: RingSnapshot
        var closed = false
        /// Whether callers wait for the loop to apply their command (not while a reload stops
        /// and starts the front ends, which waits for their threads).
        var waiting = true
    }

    /// Longest a caller waits for the loop to apply its command; the command still applies later.
    static let applyWait = 2.0
    /// This remote's wait (tests make it long, to show a wait would never end by itself).
    let applyWait: Double

    /// The read end of the wake pipe, for the daemon's `poll`.
    let readEnd: Int32
    private let writeEnd: Int32
    private let system: any SystemCalls
    private let shared: Mutex<Shared>
    private let observers = ObserverList()

    /// A remote for rings called `names`, showing `snapshot` until the loop publishes another.
    init(names: [String], snapshot: RingSnapshot, applyWait: Double = DaemonRemote.applyWait,
         system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(SystemError) {
        self.applyWait = applyWait
        self.system = system
        do {
            (readEnd, writeEnd) = try system.pipe(flags: O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw SystemError(operation: "creating", path: "the network wake-up pipe", code: error.rawValue)
        }
        shared = Mutex(Shared(names: names, snapshot: snapshot))
    }

    deinit {
        try? system.close(readEnd)
        try? system.close(writeEnd)
    }

    // MARK: RingControl (any thread)

    func submit(_ request: Request) throws(RequestError) {
        let (names, ranged, looks) = shared.withLock { ($0.names, $0.ranged, $0.looks) }
        try request.validate(rings: names, ranged: ranged, looks: looks)
        try enqueue(request)
    }

    func snapshot() -> RingSnapshot {
        shared.withLock { $0.snapshot }
    }

    func addObserver(_ observer: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID {
        observers.add(observer)
    }

    func removeObserver(_ id: ObserverID) {
        observers.remove(id)
    }

    // MARK: The daemon's side (its thread only)

    /// Whether anyone watches the snapshots (so the loop can skip building them).
    var isObserved: Bool { observers.count > 0 }

    /// Empties the wake pipe and returns the queued commands, oldest first. The pipe is drained
    /// before the queue is taken, so a command queued in between wakes the loop again.
    func takeCommands() -> [Pending] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while case .data = system.readAvailable(readEnd, into: &buffer) {}
        return shared.withLock { s in
            defer { s.queue.removeAll() }
            return s.queue
        }
    }

    /// Takes the source messages queued since the last call, by source index.
    func takeSourceMessages() -> [(index: Int, payload: [UInt8], retained: Bool)] {
        shared.withLock { s in
            defer { s.sourceMessages.removeAll() }
            return s.sourceMessages.sorted { $0.key < $1.key }.map { (index: $0.key, payload: $0.value.payload, retained: $0.value.retained) }
        }
    }

    /// Replaces the snapshot and tells the observers, outside the lock.
    func publish(_ snapshot: RingSnapshot) {
        shared.withLock { $0.snapshot = snapshot }
        observers.notify(snapshot)
    }

    /// The rings after a config reload (names only: no ranges, no looks).
    func updateNames(_ names: [String]) {
        shared.withLock { $0.names = names }
    }

    /// The rings, their ranges and the looks of `layout` (at start and after a reload).
    func updateRings(_ layout: RingLayout) {
        shared.withLock { s in
            s.names = layout.rings.map { $0.name }
            s.ranged = Set(layout.rings.filter { $0.range != nil }.map { $0.name })
            s.looks = layout.looks.map { $0.name }
        }
    }

    /// Commands queued and not yet taken by the loop.
    var queuedCount: Int { shared.withLock { $0.queue.count } }

    /// Releases every caller waiting for the loop and lets new ones return at once (their
    /// commands stay queued and apply when the loop comes back): a reload calls this before it
    /// stops a front end, which waits for that front end's threads, so the loop never waits for
    /// a thread that is waiting for the loop.
    func releaseWaiters() {
        let waiting = shared.withLock { s in
            s.waiting = false
            return s.queue
        }
        for pending in waiting { pending.done.signal() }
    }

    /// Callers wait for the loop again (the reload is over).
    func resumeWaiting() {
        shared.withLock { $0.waiting = true }
    }

    /// Refuses commands from now on and releases every caller still waiting (the daemon is
    /// stopping; commands not applied yet are dropped).
    func close() {
        let waiting = shared.withLock { s in
            s.closed = true
            defer { s.queue.removeAll() }
            return s.queue
        }
        for pending in waiting { pending.done.signal() }
    }

    /// A message for the source at `index` (the MQTT bridge's thread): kept as that source's
    /// latest, and the loop is woken. Nobody waits for it; after `close()` it is dropped.
    func queueSource(_ index: Int, _ payload: [UInt8], retained: Bool = false) {
        let accepted = shared.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.sourceMessages[index] = (payload, retained)
            return true
        }
        if accepted { _ = system.sendAvailable(writeEnd, [1][...], socket: false) }
    }

    // MARK: Private

    /// Queues `request`, wakes the loop and waits (bounded) until the loop has applied it.
    private func enqueue(_ request: Request) throws(RequestError) {
        let pending = Pending(request: request, done: Completion())
        let accepted = shared.withLock { s -> Bool? in
            guard !s.closed else { return nil }
            s.queue.append(pending)
            return s.waiting
        }
        guard let wait = accepted else { throw .unavailable("ledring is stopping; try again once it has restarted") }
        // A full pipe (EAGAIN) already holds a wake-up; the loop drains the whole queue on one.
        _ = system.sendAvailable(writeEnd, [1][...], socket: false)
        if wait { pending.done.wait(seconds: applyWait) }
    }
}
#endif
