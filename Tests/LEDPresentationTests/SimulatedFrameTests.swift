import LEDPresentation
import RingModel
import RingRender
import Testing

/// A frame's description: each ring's value and LEDs, the power estimate, from the layout alone.
@Suite struct SimulatedFrameTests {
    @Test func describesEachRingsValueAndPlaceOnTheChain() throws {
        let layout = try RingLayout(rings: [
            RingSpec(name: "a", segments: [Segment(ledCount: 12)], appearance: RingAppearance(gradient: Palette.move)),
            RingSpec(name: "b", segments: [Segment(ledCount: 8)], appearance: RingAppearance(gradient: Palette.stand)),
            RingSpec(name: "c", segments: [Segment(ledCount: 4)], appearance: RingAppearance(gradient: Palette.stand)),
        ])
        var spinning = RingState()
        spinning.set(0.7, at: 0, duration: 0, curve: .linear)
        spinning.spin(at: 0)
        let power = PowerReport(milliamps: 120, scale: 0.5, idleMilliamps: 10, withinBudget: true)
        // The third ring has no value: it shows 0.
        let frame = SimulatedFrame(index: 4, time: 0.25, layout: layout, values: [.progress(1.3), .spinner(tail: 0.1)],
                                   states: [RingState(), spinning], power: power)
        #expect(frame.index == 4 && frame.time == 0.25 && frame.milliamps == 120 && frame.scale == 0.5)
        #expect(frame.rings.map { $0.name } == ["a", "b", "c"])
        #expect(frame.rings.map { $0.range } == [0..<12, 12..<20, 20..<24])
        #expect(frame.rings.map { $0.progress } == [1.3, 0.7, 0])
        #expect(frame.rings.map { $0.spinning } == [false, true, false])
    }
}
