import Dispatch
import Glibc
import LEDRingNet
import RingRender
import Synchronization

/// The daemon as a `RingControl` for the network front ends, whose threads (libmicrohttpd's,
/// libmosquitto's) call it. It never touches daemon state: a command is checked here against a
/// copy of the ring names, queued under a lock, and the poll loop is woken through a self-pipe;
/// the loop applies it on its own thread as a `Request`, through the same `Controller.apply` as
/// socket requests, then hands back a fresh snapshot and signals the caller.
///
/// Checking here, not waiting for the loop's verdict, is what lets HTTP answer 404 or 400 at once
/// and keeps a refused command out of the queue. The caller then waits (bounded) until the loop
/// has applied its command, so an HTTP reply's snapshot already shows the change; the wait never
/// blocks the loop, and `close()` releases every waiter so stopping the servers (which waits for
/// open requests) cannot hang on it.
final class DaemonRemote: RingControl {
    /// One queued command, as the loop applies it.
    enum Command: Sendable {
        /// A request for `Controller.apply`.
        case request(Request)
        /// LEDs on or off (blanks the picture and switches the supply; not a socket verb).
        case power(Bool)
    }

    /// A queued command and the semaphore its caller waits on.
    struct Pending: Sendable {
        /// What to do.
        var command: Command
        /// Signalled once the loop has applied it (or the remote is closed).
        var done: DispatchSemaphore
    }

    private struct Shared: ~Copyable {
        var queue: [Pending] = []
        var names: [String]
        var snapshot: RingSnapshot
        var closed = false
    }

    /// Longest a caller waits for the loop to apply its command; the command still applies later.
    static let applyWait = 2.0

    /// The read end of the wake pipe, for the daemon's `poll`.
    let readEnd: Int32
    private let writeEnd: Int32
    private let shared: Mutex<Shared>
    private let observers = ObserverList()

    /// A remote for rings called `names`, showing `snapshot` until the loop publishes another.
    init(names: [String], snapshot: RingSnapshot) throws(SystemError) {
        (readEnd, writeEnd) = try Posix.wakePipe("the network wake-up pipe")
        shared = Mutex(Shared(names: names, snapshot: snapshot))
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    // MARK: RingControl (any thread)

    func set(_ values: [String: Double], duration: Double?, curve: Curve?) throws(ControlError) {
        let names = shared.withLock { $0.names }
        var updates: [Request.RingValueUpdate] = []
        for (ring, value) in values.sorted(by: { $0.key < $1.key }) {
            guard names.contains(ring) else { throw .unknownRing(ring, known: names) }
            guard value.isFinite, (0...Request.maxValue).contains(value) else { throw .badValue(ring: ring, value: value) }
            updates.append(Request.RingValueUpdate(ring: ring, value: value))
        }
        if let duration, !(duration.isFinite && (0...Request.maxDuration).contains(duration)) {
            throw .badDuration(duration)
        }
        try submit(.request(.set(values: updates, duration: duration ?? 0, curve: curve ?? .easeInOut)))
    }

    func reset() {
        try? submit(.request(.reset(duration: 0, curve: .easeInOut)))
    }

    func spin(_ ring: String) throws(ControlError) {
        try checkRing(ring)
        try submit(.request(.spin(rings: [ring])))
    }

    func stop(_ ring: String) throws(ControlError) {
        try checkRing(ring)
        try submit(.request(.stop(rings: [ring])))
    }

    func setBrightness(_ brightness: Double) throws(ControlError) {
        guard brightness.isFinite, (0...1).contains(brightness) else { throw .badBrightness(brightness) }
        try submit(.request(.brightness(brightness)))
    }

    func setPower(_ on: Bool) {
        try? submit(.power(on))
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
        while let n = Posix.read(readEnd, into: &buffer), n > 0 {}
        return shared.withLock { s in
            defer { s.queue.removeAll() }
            return s.queue
        }
    }

    /// Replaces the snapshot and tells the observers, outside the lock.
    func publish(_ snapshot: RingSnapshot) {
        shared.withLock { $0.snapshot = snapshot }
        observers.notify(snapshot)
    }

    /// The rings after a config reload.
    func updateNames(_ names: [String]) {
        shared.withLock { $0.names = names }
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

    // MARK: Private

    private func checkRing(_ ring: String) throws(ControlError) {
        let names = shared.withLock { $0.names }
        guard names.contains(ring) else { throw .unknownRing(ring, known: names) }
    }

    /// Queues `command`, wakes the loop and waits (bounded) until the loop has applied it.
    private func submit(_ command: Command) throws(ControlError) {
        let pending = Pending(command: command, done: DispatchSemaphore(value: 0))
        let accepted = shared.withLock { s in
            guard !s.closed else { return false }
            s.queue.append(pending)
            return true
        }
        guard accepted else { throw .unavailable("ledring is stopping; try again once it has restarted") }
        var byte: UInt8 = 1
        // A full pipe (EAGAIN) already holds a wake-up; the loop drains the whole queue on one.
        _ = Glibc.write(writeEnd, &byte, 1)
        _ = pending.done.wait(timeout: .now() + DaemonRemote.applyWait)
    }
}
