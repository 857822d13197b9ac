import LEDRingControl
import RingRender

extension Daemon {
    /// Applies what the network front ends queued (on the loop's thread, like socket requests)
    /// and the MQTT sources' messages, then publishes the new snapshot and releases the callers.
    func applyRemoteCommands(at now: Double) {
        network.applyQueued({ request in
            let outcome = controller.apply(request, at: now, status: { status(at: now) })
            if outcome.changed {
                needsFrame = true
                stateDirty = true
            } else if case .error(let message) = outcome.reply {
                // Checked by the remote already; only a reload in between gets here, or the end
                // of a notification that is not showing, which is routine (Alertmanager repeats a
                // group's resolved alerts in every delivery) and not logged.
                if case .endNotice = request {} else { Log.info("network request refused: \(message)") }
            }
            followPower(at: now)
        }, sources: { index, payload, retained in
            // An MQTT source's message: the same path as a file source's read.
            for request in sources.received(payload, source: index, retained: retained, at: now, log: { Log.info($0) }) {
                apply(request, at: now)
            }
        }, then: { publishSnapshot(at: now) })
    }

    /// Switches the lights to what the controller now says (a `power` request from the network
    /// or the socket changed it).
    func followPower(at now: Double, by source: String = "network request") {
        if controller.power != lightsOn { setLights(controller.power, at: now, by: source) }
    }

    /// LEDs on or off (a `power` request, the button's long press): off shows one blank frame,
    /// then switches the supply off; on switches it on, then draws the picture again. Values are
    /// kept either way, and the controller is told, so snapshots and replies say the same.
    func setLights(_ on: Bool, at now: Double, by source: String = "network request") {
        if controller.power != on { _ = controller.apply(.power(on), at: now, status: { status(at: now) }) }
        guard on != lightsOn else { return }
        lightsOn = on
        stateDirty = true
        Log.info(on ? "lights on (\(source))" : "lights off (\(source))")
        if on {
            power.setPower(true)
            needsFrame = true
        } else {
            renderFrame(at: now)
            power.setPower(false)
        }
    }

    /// The picture as the network front ends see it: values and targets now, the last frame's
    /// colours (black while the lights are off). Built only while a front end runs, or `always`:
    /// before the front ends start (at start and on a reload), so the MQTT bridge's first connect,
    /// which may come before the loop's first frame, publishes discovery for these rings and
    /// looks, not for an empty or an old layout.
    func publishSnapshot(at now: Double, always: Bool = false) {
        guard network.isActive || always else { return }
        network.publish(RingSnapshot(controller: controller, frame: renderer.frame, layout: config.layout, at: now))
    }
}
