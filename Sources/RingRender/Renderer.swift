/// What one ring shows in a frame.
public enum RingValue: Hashable, Sendable {
    /// A progress value (1 = one full lap).
    case progress(Double)
    /// The indeterminate spinner, with its tail this many turns from 12 o'clock.
    case spinner(tail: Double)
}

/// Renders a layout's rings into one frame of drive levels, in physical chain order.
///
/// Owns its buffers: after `init` a frame allocates nothing.
public struct Renderer: Sendable {
    /// The rings on the chain.
    public let layout: RingLayout
    /// Colour output stages.
    public var pipeline: ColorPipeline
    /// Linear light of every LED on the chain, from the last `render`.
    public private(set) var light: [LinearRGB]
    /// Drive levels of every LED on the chain, from the last `render`.
    public private(set) var frame: [RGB8]

    private let mappers: [ProgressMapper]
    private var scratch: [LinearRGB]

    /// A renderer for `layout` with `pipeline`.
    public init(layout: RingLayout, pipeline: ColorPipeline = ColorPipeline()) {
        self.layout = layout
        self.pipeline = pipeline
        self.mappers = layout.rings.map { ProgressMapper(appearance: $0.appearance) }
        self.light = Array(repeating: .black, count: layout.ledCount)
        self.frame = Array(repeating: .black, count: layout.ledCount)
        let widest = layout.rings.flatMap(\.segments).map(\.ledCount).max() ?? 0
        self.scratch = Array(repeating: .black, count: widest)
    }

    /// What each ring shows at time `t`, from its state.
    public func values(for states: [RingState], at t: Double) -> [RingValue] {
        zip(states, layout.rings).map { state, ring in
            if let since = state.spinningSince {
                return .spinner(tail: ring.appearance.spinner.tailPosition(at: t - since))
            }
            return .progress(state.shown(at: t))
        }
    }

    /// Renders one frame: `values[i]` is what ring i shows (missing values show 0).
    public mutating func render(_ values: [RingValue]) {
        for (index, ring) in layout.rings.enumerated() {
            let value = index < values.count ? values[index] : .progress(0)
            var offset = layout.offsets[index]
            for segment in ring.segments {
                drawSegment(segment, of: ring.shape, value: value, mapper: mappers[index], at: offset)
                offset += segment.ledCount
            }
        }
        let pipeline = self.pipeline
        light.withUnsafeBufferPointer { input in
            frame.withUnsafeMutableBufferPointer { output in pipeline.process(input, into: output) }
        }
    }

    /// Renders the frame for `states` at time `t`.
    public mutating func render(states: [RingState], at t: Double) {
        render(values(for: states, at: t))
    }

    private mutating func drawSegment(_ segment: Segment, of shape: RingShape, value: RingValue,
                                      mapper: ProgressMapper, at offset: Int) {
        let n = segment.ledCount
        scratch.withUnsafeMutableBufferPointer { whole in
            guard let base = whole.baseAddress else { return }
            let positions = UnsafeMutableBufferPointer(start: base, count: n)
            switch (value, shape) {
            case (.spinner(let tail), _): mapper.drawSpinner(tail: tail, into: positions)
            case (.progress(let p), .bar): mapper.drawBar(progress: p, into: positions)
            case (.progress(let p), _): mapper.drawCircle(progress: p, into: positions)
            }
            // Walk the chain index alongside the position instead of a modulo per LED.
            let step = segment.direction == .clockwise ? 1 : n - 1
            light.withUnsafeMutableBufferPointer { chain in
                var index = segment.physicalIndex(ofPosition: 0)
                for k in 0..<n {
                    chain[offset + index] = positions[k]
                    index += step
                    if index >= n { index -= n }
                }
            }
        }
    }
}
