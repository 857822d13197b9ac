import Glibc
import LEDHardware
import RingRender

/// Frames printed on standard output (`--simulate`): one JSON object or text block per frame,
/// the same formats as the one-shot command.
final class SimulatedOutput: FrameOutput {
    let name = "simulate"
    let device: String? = nil
    let isUp = true
    let minimumFrameInterval = 0.0
    let errorCount = 0
    let lastError: String? = nil
    let retryAt: Double? = nil
    private(set) var framesSent = 0
    private let layout: RingLayout
    private let format: SimulatedFormat
    private let start: Double

    /// Prints frames of `layout` in `format`; frame times are counted from `start`.
    init(layout: RingLayout, format: SimulatedFormat, start: Double) {
        self.layout = layout
        self.format = format
        self.start = start
    }

    func show(_ frame: [RGB8], values: [RingValue], states: [RingState], at now: Double) {
        show(frame, frame16: nil, values: values, states: states, power: .empty, at: now)
    }

    func show(_ frame: [RGB8], frame16: [RGB16]?, values: [RingValue], states: [RingState], power: PowerReport,
              at now: Double) {
        var rings: [SimulatedFrame.Ring] = []
        for (i, ring) in layout.rings.enumerated() {
            let range = layout.offsets[i]..<(layout.offsets[i] + ring.ledCount)
            let value = i < values.count ? values[i] : .progress(0)
            switch value {
            case .progress(let p): rings.append(.init(name: ring.name, progress: p, spinning: false, range: range))
            case .spinner: rings.append(.init(name: ring.name, progress: i < states.count ? states[i].target : 0,
                                              spinning: true, range: range))
            }
        }
        let text = format.render(SimulatedFrame(index: framesSent, time: now - start, rings: rings,
                                                 milliamps: power.milliamps, scale: power.scale), pixels: frame, layout: layout)
        Terminal.write(text)
        framesSent += 1
    }

    func retryIfDue(at now: Double) -> Bool { false }

    func close() {}
}
