import RingRender

/// Where the daemon's frames go: LEDs through a driver, or text on standard output.
protocol FrameOutput: AnyObject {
    /// The driver's name for `status`.
    var name: String { get }
    /// The device or file, for `status`.
    var device: String? { get }
    /// Whether frames are going out (false while a failed driver waits to be re-opened).
    var isUp: Bool { get }
    /// Shortest time between frames the wire allows (frame time plus latch), seconds.
    var minimumFrameInterval: Double { get }
    /// Frames sent since start.
    var framesSent: Int { get }
    /// Errors since start.
    var errorCount: Int { get }
    /// The last error.
    var lastError: String? { get }
    /// When a failed driver is next tried, on the daemon's clock; nil when none is pending.
    var retryAt: Double? { get }

    /// Sends one frame at time `now`; failures are recorded, logged and retried, never thrown.
    func show(_ frame: [RGB8], values: [RingValue], states: [RingState], at now: Double)
    /// Sends one frame with what the power limiter made of it (the simulated output prints it)
    /// and, for APA102 HDR, the same frame at 16 bits.
    func show(_ frame: [RGB8], frame16: [RGB16]?, values: [RingValue], states: [RingState], power: PowerReport,
              at now: Double)
    /// Re-opens a failed driver when its retry is due; true when it just came back.
    func retryIfDue(at now: Double) -> Bool
    /// Releases the device.
    func close()
}

extension FrameOutput {
    /// Outputs that use neither the power estimate nor a wide frame send the frame as it is.
    func show(_ frame: [RGB8], frame16: [RGB16]?, values: [RingValue], states: [RingState], power: PowerReport,
              at now: Double) {
        show(frame, values: values, states: states, at: now)
    }
}
