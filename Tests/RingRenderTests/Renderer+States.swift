import RingModel
import RingRender

extension Renderer {
    /// Renders the frame for `states` at time `t`, animating while any ring is in a transition
    /// or spinning: the rings' own pictures without looks or notifications, for tests of the
    /// renderer alone (the product renders a `Controller` through `render(_:at:)`).
    mutating func render(states: [RingState], at t: Double) {
        let animating = states.contains { $0.spinningSince != nil || $0.isAnimating(at: t) }
        render(layout.values(of: states, at: t), animating: animating)
    }
}
