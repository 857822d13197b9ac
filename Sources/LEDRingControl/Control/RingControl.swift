import RingRender

/// What the network front ends (MQTT, HTTP) need from whoever owns the rings: the socket verbs,
/// a snapshot of what is shown, and change notifications. The daemon conforms; tests use
/// `InMemoryRingControl`.
///
/// Every method may be called from any thread (libmosquitto's and libmicrohttpd's threads call
/// in), and a refused request changes nothing.
public protocol RingControl: Sendable {
    /// Heads each named ring for its value (1 = one lap) over `duration` seconds (nil: jump) with
    /// `curve` (nil: the default); checks every name and value before changing anything.
    func set(_ values: [String: Double], duration: Double?, curve: Curve?) throws(ControlError)
    /// Every ring back to 0 with its spinner stopped.
    func reset()
    /// Starts the indeterminate spinner on `ring`.
    func spin(_ ring: String) throws(ControlError)
    /// Stops the spinner on `ring`; it shows its value again.
    func stop(_ ring: String) throws(ControlError)
    /// Overall brightness, 0…1.
    func setBrightness(_ brightness: Double) throws(ControlError)
    /// Turns the LEDs on or off (off keeps the values for when they come back on).
    func setPower(_ on: Bool)
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
