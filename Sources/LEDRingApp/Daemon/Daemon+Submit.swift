import LEDRingControl

extension Daemon {
    /// Where a request came from, as the log says it.
    enum RequestSource: String {
        case socket = "socket request"
        case network = "network request"
        case source = "a source"
        case button = "the button"
        case knob = "the knob"
    }

    /// The one way a request reaches the rings, whoever sent it (the socket and standard input,
    /// HTTP and MQTT, a source, the button and knob): the controller applies it, and its outcome
    /// has the same effects for all — a frame and a save when it changed anything, the LED supply
    /// following the controller's power — and the reply to send back.
    @discardableResult
    func submit(_ request: Request, from source: RequestSource, at now: Double) -> Controller.Outcome {
        // The status reads the daemon as it is, before anything changes.
        if request == .status { return Controller.Outcome(reply: .status(status(at: now)), changed: false) }
        let outcome = controller.apply(request, at: now, status: { status(at: now) })
        if outcome.changed {
            needsFrame = true
            stateDirty = true
        }
        followPower(at: now, by: source)
        return outcome
    }

    /// Switches the LED supply to what the controller says: off shows one blank frame first, then
    /// cuts the supply; on switches it on, then draws the picture again. Values are kept.
    func followPower(at now: Double, by source: RequestSource) {
        guard controller.power != supplyOn else { return }
        supplyOn = controller.power
        stateDirty = true
        Log.info(supplyOn ? "lights on (\(source.rawValue))" : "lights off (\(source.rawValue))")
        if supplyOn {
            power.setPower(true)
            needsFrame = true
        } else {
            renderFrame(at: now)
            power.setPower(false)
        }
    }
}
