// Threads serve only the network front ends (LEDRingNet and DaemonRemote), which the Embedded
// Swift build leaves out (see NetworkFrontEnds.swift); so does it these.
#if !hasFeature(Embedded)
import Glibc

/// A detached POSIX thread: what the MQTT loop and the HTTP sweeper need from Foundation's
/// `Thread`, without linking Foundation. (The name is for readers only: `pthread_setname_np` is a
/// GNU extension Swift's Glibc module does not export.)
public enum DetachedThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new thread (`name` says which in the code); false when the system has no
    /// thread to give (the caller's feature then stays off, as with `Thread`).
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
            start.body()
            return nil
        }, start)
        if rc != 0 { Unmanaged<Start>.fromOpaque(start).release() }
        return rc == 0
    }
}
#endif
