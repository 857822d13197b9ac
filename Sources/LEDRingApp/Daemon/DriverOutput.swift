import LEDHardware
import LEDJSON
import LEDRingControl
import LEDWire

/// Frames to LEDs through an `LEDDriver`, re-opening the device with back-off when it fails
/// (unplugged, EIO), so rendering resumes on its own when the device returns.
final class DriverOutput: FrameOutput {
    /// Builds a driver; `DriverSettings.makeDriver` in the daemon, a fake in tests.
    typealias Factory = () throws(HardwareError) -> LEDDriver

    let name: String
    let device: String?
    private let factory: Factory
    private var driver: LEDDriver?
    private var backoff = Backoff()
    private(set) var retryAt: Double?
    private(set) var framesSent = 0
    private(set) var errorCount = 0
    private(set) var lastError: String?
    private(set) var minimumFrameInterval = 0.0

    /// An output named `name` on `device`; the driver is opened by `open(at:)`.
    init(name: String, device: String?, factory: @escaping Factory) {
        self.name = name
        self.device = device
        self.factory = factory
    }

    var isUp: Bool { driver != nil }

    /// Opens the driver. Errors a user must fix (configuration, permission, frame too large) are
    /// thrown; a missing, busy or failing device is retried with back-off instead, since at boot
    /// the device may appear after the service starts.
    func open(at now: Double) throws(HardwareError) {
        do {
            try connect()
        } catch {
            switch error.kind {
            case .invalidConfiguration, .permissionDenied, .frameTooLarge: throw error
            default: fail(error, at: now)
            }
        }
    }

    private func connect() throws(HardwareError) {
        let made = try factory()
        driver = made
        minimumFrameInterval = made.encoder.wireTimeMicroseconds(ledCount: made.ledCount) / 1e6
        retryAt = nil
    }

    func show(_ frame: RenderedFrame, at now: Double) {
        guard let driver else { return }
        do {
            try driver.show(frame)
            framesSent += 1
            backoff.reset()
        } catch {
            fail(error, at: now)
        }
    }

    func retryIfDue(at now: Double) -> Bool {
        guard driver == nil, let due = retryAt, now >= due else { return false }
        do {
            try connect()
            Log.info("\(name): \(device ?? "output") is back after \(errorCount) error(s); rendering resumes")
            return true
        } catch {
            fail(error, at: now)
            return false
        }
    }

    private func fail(_ error: HardwareError, at now: Double) {
        errorCount += 1
        lastError = error.description
        if let driver { try? driver.close() }
        driver = nil
        let delay = backoff.delay()
        retryAt = now + delay
        Log.info("\(name): \(error.description); retrying in \(JSONValue.format(delay)) s")
    }

    func close() {
        if let driver { try? driver.close() }
        driver = nil
        retryAt = nil
    }
}
