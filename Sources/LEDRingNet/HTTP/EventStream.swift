// Threads and locks: the full build's front ends. The Embedded build has neither; its daemon
// runs the network on its poll loop instead.
#if !hasFeature(Embedded)
import LEDRingControl
import LEDSystem

/// One client's server-sent event stream: waits for snapshots from the hub and hands their bytes
/// to libmicrohttpd in pieces as big as it asks for.
final class EventStream: @unchecked Sendable {
    // @unchecked: libmicrohttpd calls `read` for one connection from that connection's thread
    // only (thread-per-connection mode), one call at a time; nothing else touches the stream.
    private let hub: EventHub
    private let interval: Double
    private var seen: UInt64
    private var lastSent = -Double.infinity
    private var pending: [UInt8] = []

    /// Seconds without a change before a keep-alive comment is sent.
    static let keepAlive = HTTPServing.eventKeepAlive

    /// A stream that starts with the hub's current snapshot.
    init(hub: EventHub, interval: Double) {
        self.hub = hub
        self.interval = interval
        seen = hub.current
        pending = HTTPServing.streamStart(hub.snapshot())
        lastSent = MonotonicClock.seconds()
    }


    /// Fills `buffer` with up to `capacity` bytes, waiting for the next snapshot when nothing is
    /// pending; nil when the stream ends (server stopping).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        while pending.isEmpty {
            switch hub.next(after: seen, notBefore: lastSent + interval,
                            deadline: MonotonicClock.seconds() + EventStream.keepAlive) {
            case .closed:
                return nil
            case .idle:
                pending = HTTPServing.keepAliveComment
            case .changed(let version):
                seen = version
                lastSent = MonotonicClock.seconds()
                pending = HTTPServing.event(hub.snapshot())
            }
        }
        let count = min(capacity, pending.count)
        pending.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: count) }
        }
        pending.removeFirst(count)
        return count
    }
}
#endif
