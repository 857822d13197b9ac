import RingRender

extension RingSnapshot {
    /// What `controller`'s rings show at `t` in `frame` (chain order, as `Renderer.frame`
    /// rendered for that time): shown and target values, spinners, and each LED's colour (all
    /// black while the power is off). The daemon and the test double both build snapshots here.
    public init(controller: Controller, frame: [RGB8], layout: RingLayout, at t: Double) {
        let lit = controller.power ? frame : [RGB8](repeating: .black, count: layout.ledCount)
        let colours = RingSnapshot.ledColors(of: lit, layout: layout)
        var rings: [Ring] = []
        for (index, (name, state)) in zip(controller.names, controller.states).enumerated() {
            rings.append(Ring(name: name, value: controller.shownValue(of: index, at: t), target: state.target,
                              spinning: state.spinningSince != nil,
                              leds: index < colours.count ? colours[index] : []))
        }
        for i in rings.indices {
            rings[i].look = controller.look(of: i)
            if i < controller.ringsOn.count { rings[i].on = controller.ringsOn[i] }
            if i < controller.rings.count, let range = controller.rings[i].range {
                rings[i].units = range.min + rings[i].target * (range.max - range.min)
            }
            if i < controller.timers.count, let timer = controller.timers[i] { rings[i].timer = Timer(timer, at: t) }
            rings[i].notice = controller.notice(for: i, at: t).map { ShownNotice($0, at: t) }
            // Only while the LEDs show the spinner: not under a notification, nor dark.
            if let since = controller.states[i].spinningSince, i < controller.rings.count,
               rings[i].notice == nil, rings[i].on, controller.power {
                let ring = controller.rings[i]
                rings[i].spin = Spin(ring.appearance.spinner, elapsed: t - since, segments: ring.segments.map { $0.ledCount })
            }
        }
        self.init(rings: rings, brightness: controller.brightness, power: controller.power)
        looks = controller.looks.map { $0.name }
    }
}
