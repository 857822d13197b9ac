import RingModel

/// Renders a layout's rings into one frame of drive levels, in physical chain order.
///
/// Per frame: the mapper draws linear light; the colour pipeline turns it into drive levels;
/// the current limiter scales them uniformly if the frame would exceed its budget; the dither
/// stage quantises to 8 bits; the same drive levels also give the 16-bit frame.
/// Owns its buffers: after `init` a frame allocates nothing.
public struct Renderer: Sendable {
    /// The rings on the chain.
    public let layout: RingLayout
    /// Colour output stages.
    public var pipeline: ColorPipeline
    /// The current budget and power model; the Pi 5 V pin default unless told otherwise.
    public var limiter: CurrentLimiter
    /// When the 8-bit output is temporally dithered.
    public var dithering: Dithering
    /// Linear light of every LED on the chain, from the last `render`.
    public private(set) var light: [LinearRGB]
    /// Drive levels of every LED on the chain (0…1, after limiting), from the last `render`.
    public private(set) var drive: [LinearRGB]
    /// 8-bit drive levels of every LED on the chain, from the last `render`.
    public private(set) var frame: [RGB8]
    /// 16-bit drive levels of every LED on the chain (for APA102/SK9822 HDR), from the last
    /// `render`: the same light as `frame`, with more steps near black.
    public private(set) var frame16: [RGB16]
    /// What the current limiter did to the last frame.
    public private(set) var power: PowerReport = .empty

    private let mappers: [ProgressMapper]
    // Per ring: one mapper per colour zone (empty without zones), built once so switching
    // allocates nothing.
    private let zoneMappers: [[ProgressMapper]]
    private let zoneEnds: [[Double]]
    // Per ring: the mapper of the look it showed last (nil: none yet, or the look has no
    // gradient), made when the ring's look changes. Looks are kept once, in the layout and
    // `extraLooks`, not once per ring: 512 rings × 100 looks used to hold 51 200 mappers and
    // 650 MB. Making one copies the ring's appearance and shares the look's gradient table, so a
    // look switch allocates nothing either.
    private var lookMappers: [(look: Int, mapper: ProgressMapper?)?]
    private var blendScratch: [LinearRGB]
    // Looks made at run time (a notification's colour): a paint's look index past the layout's
    // looks points here. Replaced only when the names change.
    private var extraLooks: [Look] = []
    /// Frames per second the frames are shown at: decides which levels are worth dithering
    /// (`TemporalDither.minimumLevel(fps:)`) in `.auto` mode.
    public var framesPerSecond: Double = 30
    /// Whether `render` also fills `frame16` (for APA102's high-dynamic-range mode).
    public var wideFrame = false
    private var scratch: [LinearRGB]
    private var dither: TemporalDither

    /// A renderer for `layout` with `pipeline`, a current limiter (default: WS2812B at the Pi
    /// 5 V pin budget) and a dithering mode (default: while animating).
    public init(layout: RingLayout, pipeline: ColorPipeline = ColorPipeline(),
                limiter: CurrentLimiter = CurrentLimiter(), dithering: Dithering = .auto) {
        self.layout = layout
        self.pipeline = pipeline
        self.limiter = limiter
        self.dithering = dithering
        self.mappers = layout.rings.map { ProgressMapper(appearance: $0.appearance) }
        self.zoneMappers = layout.rings.map { ring in
            ring.appearance.zones.map { zone in
                var appearance = ring.appearance
                appearance.gradient = zone.gradient.with(span: ring.appearance.gradient.span)
                return ProgressMapper(appearance: appearance)
            }
        }
        self.zoneEnds = layout.rings.map { ring in ring.appearance.zones.map { $0.upTo } }
        self.lookMappers = Array(repeating: nil, count: layout.rings.count)
        self.light = Array(repeating: .black, count: layout.ledCount)
        self.drive = Array(repeating: .black, count: layout.ledCount)
        self.frame = Array(repeating: .black, count: layout.ledCount)
        self.frame16 = Array(repeating: .black, count: layout.ledCount)
        self.dither = TemporalDither(count: layout.ledCount)
        let widest = layout.rings.flatMap { $0.segments }.map { $0.ledCount }.max() ?? 0
        self.scratch = Array(repeating: .black, count: widest)
        self.blendScratch = Array(repeating: .black, count: widest)
    }

    /// The estimated current of the last frame after limiting, in mA, idle included.
    public var milliamps: Double { power.milliamps }
    /// The uniform scale the limiter applied to the last frame (1: not limited).
    public var scale: Float { power.scale }
    /// True while the last frame was dithered and showing more frames still brings some LED
    /// closer to its exact level: a daemon keeps refreshing, at a low rate, only while this holds.
    public var needsRefresh: Bool { dither.needsRefresh }

    /// Renders what `scene` shows: the one way a frame is built, called by the daemon, the
    /// one-shot command, the test double and the benchmark alike, so what is tested and measured
    /// is the path the LEDs get. Dithering (`.auto`) follows the scene's pace (`animating`).
    public mutating func render(_ scene: Scene) {
        pipeline.brightness = Float(scene.brightness)
        // The run-time looks' gradients are built only when the looks change, not every frame.
        if scene.extraLooks.map({ $0.name }) != extraLookNames { setExtraLooks(scene.extraLooks.map { $0.look }) }
        render(scene.values, paints: scene.paints, at: scene.time, animating: scene.animating)
    }

    /// Renders one still frame: `values[i]` is what ring i shows (missing values show 0).
    public mutating func render(_ values: [RingValue]) {
        render(values, animating: false)
    }

    /// Renders one frame; `animating` says whether it is part of an animation, which decides
    /// dithering in `.auto` mode (a still frame is rounded plainly, so it never shimmers).
    public mutating func render(_ values: [RingValue], animating: Bool) {
        render(values, paints: [], at: 0, animating: animating)
    }

    /// The names of the looks made at run time, as last set.
    public var extraLookNames: [String] { extraLooks.map { $0.name } }

    /// Sets the looks made at run time (`RingPaint.look` indices past the layout's looks); builds
    /// their gradients only when the names differ from the last call.
    public mutating func setExtraLooks(_ looks: [Look]) {
        guard looks.map({ $0.name }) != extraLooks.map({ $0.name }) else { return }
        extraLooks = looks
        // A ring showing a run-time look by index may now mean another look.
        for index in lookMappers.indices where (lookMappers[index]?.look ?? -1) >= layout.looks.count {
            lookMappers[index] = nil
        }
    }

    /// Ring `index`'s mapper for look `look` (an index into the layout's looks, then
    /// `extraLooks`): nil when that look has no gradient. Made only when the ring's look changed.
    private mutating func lookMapper(ring index: Int, look: Int) -> ProgressMapper? {
        if let cached = lookMappers[index], cached.look == look { return cached.mapper }
        let chosen = look < layout.looks.count ? layout.looks[look] : extraLooks[look - layout.looks.count]
        let ring = layout.rings[index]
        let mapper = chosen.gradient.map { gradient in
            var appearance = ring.appearance
            appearance.gradient = gradient.with(span: ring.appearance.gradient.span)
            return ProgressMapper(appearance: appearance)
        }
        lookMappers[index] = (look, mapper)
        return mapper
    }

    /// Renders one frame with each ring's look (`paints[i]`, missing: none) at time `t`: the
    /// look's gradient, or the colour zone of the value shown, then the look's effect.
    public mutating func render(_ values: [RingValue], paints: [RingPaint], at t: Double, animating: Bool) {
        for (index, ring) in layout.rings.enumerated() {
            let value = index < values.count ? values[index] : .progress(0)
            let paint = index < paints.count ? paints[index] : .plain
            var mapper = mappers[index]
            var second: ProgressMapper?
            var amount: Float = 0
            var level: Float = 1
            let total = layout.looks.count + extraLooks.count
            let look = paint.look.flatMap { $0 >= 0 && $0 < total ? $0 : nil }
            var lookMapper: ProgressMapper?
            if let look { lookMapper = self.lookMapper(ring: index, look: look) }
            if let lookMapper {
                mapper = lookMapper
            } else if !zoneMappers[index].isEmpty, case .progress(let p) = value {
                // Chosen from the value shown in this frame, so a transition recolours as it crosses.
                let choice = ColorZone.choice(for: p, upTo: zoneEnds[index])
                mapper = zoneMappers[index][choice.first]
                if choice.amount > 0 && choice.second != choice.first {
                    second = zoneMappers[index][choice.second]
                    amount = choice.amount
                }
            }
            var whole = false
            if let look {
                let chosen = look < layout.looks.count ? layout.looks[look] : extraLooks[look - layout.looks.count]
                level = chosen.effect.level(at: t - paint.since)
                // A status look lights the whole ring, whatever the value (a spinner spins on).
                if chosen.fill == .ring, !paint.showsValue, case .progress = value { whole = true }
            }
            level *= Swift.max(0, Swift.min(1, paint.level))
            var offset = layout.offsets[index]
            for segment in ring.segments {
                drawSegment(segment, of: ring.shape, value: value, whole: whole, mapper: mapper, blend: second,
                            amount: amount, level: level, at: offset)
                offset += segment.ledCount
            }
        }
        let pipeline = self.pipeline
        let limiter = self.limiter
        let dithered = dithering.applies(animating: animating)
        // `.auto` dithers only LEDs that are changing, and only at levels where one step cannot
        // be seen flickering at this frame rate; `.on` dithers everything, still LEDs too.
        dither.dithersStillLEDs = dithering == .on
        dither.minimumLevel = dithering == .on ? 0 : TemporalDither.minimumLevel(fps: framesPerSecond)
        let wideFrame = self.wideFrame
        light.withUnsafeBufferPointer { input in
            drive.withUnsafeMutableBufferPointer { levels in
                for i in 0..<Swift.min(input.count, levels.count) { levels[i] = pipeline.clampedDrive(input[i]) }
                power = frame.withUnsafeMutableBufferPointer { output in
                    limiter.apply(to: levels, dither: &dither, dithered: dithered, into: output)
                }
                // Only APA102's high-dynamic-range output reads it: skip a third of the
                // quantising work for everyone else.
                if wideFrame {
                    frame16.withUnsafeMutableBufferPointer { wide in
                        for i in 0..<Swift.min(levels.count, wide.count) { wide[i] = ColorPipeline.quantise16(levels[i]) }
                    }
                }
            }
        }
    }

    private mutating func drawSegment(_ segment: Segment, of shape: RingShape, value: RingValue, whole: Bool = false,
                                      mapper: ProgressMapper, blend: ProgressMapper? = nil, amount: Float = 0,
                                      level: Float = 1, at offset: Int) {
        let n = segment.ledCount
        func draw(_ mapper: ProgressMapper, _ positions: UnsafeMutableBufferPointer<LinearRGB>) {
            if whole { return mapper.drawWhole(into: positions, wraps: shape != .bar) }
            switch (value, shape) {
            case (.spinner(let tail), _): mapper.drawSpinner(tail: tail, into: positions)
            case (.progress(let p), .bar): mapper.drawBar(progress: p, into: positions)
            case (.progress(let p), .pie): mapper.drawWedge(progress: p, into: positions)
            case (.progress(let p), _): mapper.drawCircle(progress: p, into: positions)
            }
        }
        var other = blendScratch
        blendScratch = []
        scratch.withUnsafeMutableBufferPointer { whole in
            guard let base = whole.baseAddress else { return }
            let positions = UnsafeMutableBufferPointer(start: base, count: n)
            draw(mapper, positions)
            if let blend {
                other.withUnsafeMutableBufferPointer { second in
                    guard let secondBase = second.baseAddress else { return }
                    let mixedIn = UnsafeMutableBufferPointer(start: secondBase, count: n)
                    draw(blend, mixedIn)
                    for k in 0..<n { positions[k] = positions[k].mixed(with: mixedIn[k], amount: amount) }
                }
            }
            // Effects scale the light itself, so a pulse dims in linear light and keeps the hue.
            if level != 1 {
                for k in 0..<n { positions[k] = positions[k].scaled(by: level) }
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
        blendScratch = other
    }
}
