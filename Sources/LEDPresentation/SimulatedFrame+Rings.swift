import RingModel
import RingRender

extension SimulatedFrame {
    /// Describes a frame of `layout` showing `values` (what each ring shows; a missing value
    /// shows 0), with what the power limiter made of it. A spinning ring is described by its
    /// ring's target in `states`.
    public init(index: Int, time: Double, layout: RingLayout, values: [RingValue], states: [RingState],
                power: PowerReport) {
        self.init(index: index, time: time, rings: SimulatedFrame.rings(of: layout, values: values, states: states),
                  milliamps: power.milliamps, scale: power.scale)
    }

    /// What each ring of `layout` shows for `values`: its name, its value and its LEDs' place on
    /// the chain.
    public static func rings(of layout: RingLayout, values: [RingValue], states: [RingState]) -> [Ring] {
        var rings: [Ring] = []
        rings.reserveCapacity(layout.rings.count)
        for (i, ring) in layout.rings.enumerated() {
            let range = layout.offsets[i]..<(layout.offsets[i] + ring.ledCount)
            switch i < values.count ? values[i] : .progress(0) {
            case .progress(let p):
                rings.append(Ring(name: ring.name, progress: p, spinning: false, range: range))
            case .spinner:
                rings.append(Ring(name: ring.name, progress: i < states.count ? states[i].target : 0, spinning: true,
                                  range: range))
            }
        }
        return rings
    }
}
