/// Drops every frame: for benchmarks that measure rendering and encoding without I/O.
public final class DiscardTransport: Transport {
    /// Frames sent so far, so a benchmark can check it ran.
    public private(set) var framesSent = 0
    /// Bytes sent so far.
    public private(set) var bytesSent = 0

    /// Creates a transport that sends nowhere.
    public init() {}

    /// Counts the frame and drops it.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        framesSent += 1
        bytesSent += bytes.count
    }

    /// Nothing to release.
    public func close() throws(HardwareError) {}
}
