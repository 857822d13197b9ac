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

    /// Sends one frame of the frame session at time `now` (the simulated output prints its
    /// description; a driver sends its levels, 16-bit for APA102 HDR); failures are recorded,
    /// logged and retried, never thrown.
    func show(_ frame: RenderedFrame, at now: Double)
    /// Re-opens a failed driver when its retry is due; true when it just came back.
    func retryIfDue(at now: Double) -> Bool
    /// Releases the device.
    func close()
}
