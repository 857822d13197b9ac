/// Input lines requested together with edge events on both edges.
public protocol GPIOInputLines: AnyObject {
    /// The requested lines, in request order.
    var lines: [GPIOResolvedLine] { get }
    /// The descriptors that become readable when events are queued, for `poll(2)` in a loop
    /// that also waits on other things (libgpiod 1.6 has one per line, 2.x one per request).
    var pollDescriptors: [Int32] { get }
    /// The current levels: bit i is line i.
    func readValues() throws(HardwareError) -> UInt64
    /// Reads the events queued on `descriptor` (one of `pollDescriptors` that `poll` reported
    /// readable); does not block when called only then.
    func readEvents(ready descriptor: Int32) throws(HardwareError) -> [GPIOEdgeEvent]
    /// Waits up to `timeoutNanoseconds` (negative: forever) for events on any line and returns
    /// them in kernel order; empty when the time ran out.
    func waitForEvents(timeoutNanoseconds: Int64) throws(HardwareError) -> [GPIOEdgeEvent]
    /// Gives the lines back to the kernel; safe to call twice.
    func release()
}
