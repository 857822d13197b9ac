import RingModel

extension Controller {
    /// Ring `index` as every front end reports it at `t`: its shown and target value, spinner,
    /// look, power, units, timer and notification. The socket's reply (`report(at:)`) is these
    /// alone; a snapshot (`RingSnapshot(controller:frame:layout:at:)`) adds the LEDs the frame
    /// shows. One place builds a ring's report, so the two views cannot drift.
    public func report(ofRing index: Int, at t: Double) -> RingSnapshot.Ring {
        let slot = slots[index]
        var ring = RingSnapshot.Ring(name: names[index], value: shownValue(of: index, at: t), target: slot.state.target,
                                     spinning: slot.state.spinningSince != nil, leds: [])
        ring.look = look(of: index)
        ring.on = slot.on
        if index < rings.count, let range = rings[index].range {
            ring.units = range.min + ring.target * (range.max - range.min)
        }
        ring.timer = slot.timer.map { RingSnapshot.Timer($0, at: t) }
        ring.notice = notice(for: index, at: t).map { ShownNotice($0, at: t) }
        return ring
    }
}

extension RingSnapshot {
    /// What `controller`'s rings show at `t` in `frame` (chain order, as `Renderer.frame`
    /// rendered for that time): each ring's report (`Controller.report(ofRing:at:)`) with each
    /// LED's colour (all black while the power is off) and how its spinner moves. The daemon and
    /// the test double both build snapshots here.
    public init(controller: Controller, frame: [RGB8], layout: RingLayout, at t: Double) {
        let lit = controller.power ? frame : [RGB8](repeating: .black, count: layout.ledCount)
        let colours = RingSnapshot.ledColors(of: lit, layout: layout)
        var rings: [Ring] = []
        for index in controller.names.indices {
            var ring = controller.report(ofRing: index, at: t)
            ring.leds = index < colours.count ? colours[index] : []
            ring.display = Ring.display(of: ring.leds)
            // Only while the LEDs show the spinner: not under a notification, nor dark.
            if let since = controller.slots[index].state.spinningSince, index < controller.rings.count,
               ring.notice == nil, ring.on, controller.power {
                let spec = controller.rings[index]
                ring.spin = Spin(spec.appearance.spinner, elapsed: t - since, segments: spec.segments.map { $0.ledCount })
            }
            rings.append(ring)
        }
        self.init(rings: rings, brightness: controller.brightness, power: controller.power)
        looks = controller.looks.map { $0.name }
    }
}
