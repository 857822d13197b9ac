import Glibc
import LEDHardware
import LEDPresentation

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
    private let format: SimulatedFormat
    private let start: Double

    /// Prints frames in `format`; frame times are counted from `start`.
    init(format: SimulatedFormat, start: Double) {
        self.format = format
        self.start = start
    }

    func show(_ frame: RenderedFrame, at now: Double) {
        let text = format.render(frame.described(index: framesSent, time: now - start), pixels: frame.pixels,
                                 layout: frame.layout)
        Terminal.write(text)
        framesSent += 1
    }

    func retryIfDue(at now: Double) -> Bool { false }

    func close() {}
}
