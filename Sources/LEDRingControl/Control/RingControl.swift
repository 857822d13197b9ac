
/// What the network front ends (MQTT, HTTP) need from whoever owns the rings: one entry for
/// every command (`submit`, the same `Request` the socket speaks), a snapshot of what is shown,
/// and change notifications. The daemon conforms (`DaemonRemote` for libmosquitto's thread, `LoopControl` on its own loop); tests use the real
/// `Controller` behind `RecordingRingControl` in LEDRingControlTesting.
///
/// Every method may be called from any thread (libmosquitto's thread calls
/// in), and a refused request changes nothing. Class-bound, so `any RingControl` also works where
/// only class existentials do (Embedded Swift).
public protocol RingControl: AnyObject, Sendable {
    /// Checks `request` against the rings (`Request.validate(rings:)`) and carries it out; throws
    /// without changing anything when it is refused.
    func submit(_ request: Request) throws(RequestError)
    /// What is shown now.
    func snapshot() -> RingSnapshot
    /// Calls `observer` with a fresh snapshot after every change (from any thread, and without
    /// holding any lock the other methods take: observers call `snapshot()` themselves, because
    /// snapshots handed to racing observers may arrive out of order). Observers return quickly;
    /// front ends coalesce and throttle themselves.
    func addObserver(_ observer: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID
    /// Stops calling an observer.
    func removeObserver(_ id: ObserverID)
}

extension RingControl {
    /// Every ring back to 0 over `Request.defaultResetDuration` s, linear, spinners stopped
    /// (`Request.defaultReset`, as every front end resets).
    public func reset() throws(RequestError) {
        try submit(.defaultReset)
    }
}
