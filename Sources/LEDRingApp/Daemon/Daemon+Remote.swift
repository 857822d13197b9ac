import LEDRingControl

extension Daemon {
    /// Applies what the network front ends queued (on the loop's thread, like socket requests)
    /// and the MQTT sources' messages, then publishes the new snapshot and releases the callers.
    func applyRemoteCommands(at now: Double) {
        network.applyQueued({ request in
            let outcome = submit(request, from: .network, at: now)
            if !outcome.changed, case .error(let message) = outcome.reply {
                // Checked by the remote already; only a reload in between gets here, or the end
                // of a notification that is not showing, which is routine (Alertmanager repeats a
                // group's resolved alerts in every delivery) and not logged.
                if case .endNotice = request {} else { Log.info("network request refused: \(message)") }
            }
        }, sources: { index, payload, retained in
            // An MQTT source's message: the same path as a file source's read.
            for request in sources.received(payload, source: index, retained: retained, at: now, log: { Log.info($0) }) {
                submit(request, from: .source, at: now)
            }
        }, then: { publishSnapshot(at: now) })
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
