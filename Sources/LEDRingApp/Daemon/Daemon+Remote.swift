import LEDRingControl
import LEDRingNet
import RingRender

extension Daemon {
    /// Applies what the network front ends queued (on the loop's thread, like socket requests),
    /// then publishes the new snapshot and releases the callers.
    func applyRemoteCommands(at now: Double) {
        let commands = network.remote.takeCommands()
        guard !commands.isEmpty else { return }
        for pending in commands {
            switch pending.command {
            case .request(let request):
                let outcome = controller.apply(request, at: now, status: { status(at: now) })
                if outcome.changed {
                    needsFrame = true
                    stateDirty = true
                } else if case .error(let message) = outcome.reply {
                    // Checked by the remote already; only a reload in between gets here.
                    Log.info("network request refused: \(message)")
                }
            case .power(let on):
                setLights(on, at: now)
            }
        }
        publishSnapshot(at: now)
        for pending in commands { pending.done.signal() }
    }

    /// LEDs on or off (the network's `setPower`, the button's long press): off shows one blank
    /// frame, then switches the supply off; on switches it on, then draws the picture again.
    /// Values are kept either way.
    func setLights(_ on: Bool, at now: Double, by source: String = "network request") {
        guard on != lightsOn else { return }
        lightsOn = on
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
    /// colours (black while the lights are off). Built only while a front end runs.
    func publishSnapshot(at now: Double) {
        guard network.isActive else { return }
        let frame = lightsOn ? renderer.frame : [RGB8](repeating: .black, count: config.layout.ledCount)
        let colours = RingSnapshot.ledColors(of: frame, layout: config.layout)
        var rings: [RingSnapshot.Ring] = []
        for (index, (name, state)) in zip(controller.names, controller.states).enumerated() {
            rings.append(RingSnapshot.Ring(name: name, value: state.shown(at: now), target: state.target,
                                           spinning: state.spinningSince != nil,
                                           leds: index < colours.count ? colours[index] : []))
        }
        network.remote.publish(RingSnapshot(rings: rings, brightness: controller.brightness, power: lightsOn))
    }
}
