import LEDHardware
import LEDPresentation
import RingModel
import RingRender

/// One frame as a `FrameSession` rendered it: everything an output needs, whichever it is — the
/// drive levels for the wire, APA102's 16-bit twin, and what the frame shows for the simulated
/// formats (described only when asked, so a driver output allocates nothing for it).
struct RenderedFrame {
    /// The rings on the chain.
    let layout: RingLayout
    /// What each ring shows.
    let values: [RingValue]
    /// The rings' states (a spinning ring is described by its target).
    let states: [RingState]
    /// 8-bit drive levels in chain order.
    let pixels: [RGB8]
    /// The same frame at 16 bits when the output uses APA102 high dynamic range; nil otherwise.
    let frame16: [RGB16]?
    /// What the power limiter made of the frame.
    let power: PowerReport

    /// The frame's description for the simulated formats: frame `index`, showing time `time`.
    func described(index: Int, time: Double) -> SimulatedFrame {
        SimulatedFrame(index: index, time: time, layout: layout, values: values, states: states, power: power)
    }
}

extension LEDDriver {
    /// Sends `frame`: its 16-bit twin where the output uses HDR, else its 8-bit levels.
    func show(_ frame: RenderedFrame) throws(HardwareError) {
        try show(frame.pixels, frame16: frame.frame16)
    }
}
