import RingRender

extension Renderer {
    /// The one frame builder: draws what `controller` shows at `t` — its brightness, its rings'
    /// values (transitions, spinners, timers), their looks and the notifications over them — and
    /// returns the values drawn. The daemon, the one-shot command, the test double and the
    /// benchmark all render here, so what is tested and measured is the path the LEDs get.
    ///
    /// Dithering (`.auto`) follows the controller's pace: a frame of an animation at the full
    /// frame rate dithers; a frame of a slow timer (spaced out to when its ring changes a level)
    /// does not, since the refreshes dithering needs would bring back the frame rate the spacing
    /// saves.
    @discardableResult
    public mutating func render(_ controller: Controller, at t: Double) -> [RingValue] {
        pipeline.brightness = Float(controller.brightness)
        if extraLookNames != controller.extraLookNames { setExtraLooks(controller.extraLooks) }
        let values = controller.values(self.values(for: controller.states, at: t), at: t)
        render(values, paints: controller.paints(at: t), at: t, animating: controller.frameSpacing(at: t) == 0)
        return values
    }
}
