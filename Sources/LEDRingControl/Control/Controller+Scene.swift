import RingModel

extension Controller {
    /// What the rings show at `t`: the brightness, each ring's value (transitions, spinners,
    /// timers, a notification's value), its look and light, and the pace. The renderer draws it
    /// (`Renderer.render(_:)`); the daemon, the one-shot command, the test double and the
    /// benchmark all build their frames from it, so what is tested and measured is the path the
    /// LEDs get.
    ///
    /// The pace follows the controller: a frame of an animation at the full frame rate is
    /// `animating` (and dithers); a frame of a slow timer (spaced out to when its ring changes a
    /// level) is not, since the refreshes dithering needs would bring back the frame rate the
    /// spacing saves.
    public func scene(at t: Double) -> Scene {
        // A controller made from names alone (no layout) spins with the default spinner.
        let own = slots.indices.map { i in slots[i].state.value(at: t, spinner: i < rings.count ? rings[i].appearance.spinner : Spinner()) }
        let extras = extraLooks
        return Scene(brightness: brightness, values: values(own, at: t), paints: paints(at: t, extras: extras.map { $0.name }),
                     extraLooks: extras, time: t, animating: frameSpacing(at: t) == 0)
    }
}
