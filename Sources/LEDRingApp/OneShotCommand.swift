import LEDHardware
import LEDPresentation
import RingRender

/// `ledring --simulate …`: renders frames of the rings at t = k / fps and prints them.
struct OneShotCommand {
    let options: OneShotOptions
    let layout: RingLayout
    /// The rings' states at t = 0.
    let states: [RingState]
    /// How frames are printed.
    let format: SimulatedFormat
    /// The frame session every run starts from: the renderer these options ask for, not yet used.
    let session: FrameSession

    /// The demo values when none are given: one ring past 100 % so the lap and shadow show.
    static let demoValues: [String: Double] = ["move": 1.3, "exercise": 0.75, "stand": 0.45, "progress": 0.8]
    /// Seconds the demo takes to fill the rings.
    static let demoDuration = 2.5

    /// `escapesAllowed` false (NO_COLOR, TERM=dumb) makes the default on a terminal the text
    /// format, not the picture drawn with 24-bit colour escapes.
    init(options: OneShotOptions, stdoutIsTerminal: Bool, escapesAllowed: Bool = true) throws(CommandError) {
        guard options.simulate || options.driver != nil else {
            throw .usage("choose an output: --simulate prints frames here; --driver ws2812-spi (or another, see --help) drives LEDs")
        }

        self.options = options
        layout = try options.layout()
        format = options.format ?? (stdoutIsTerminal && escapesAllowed ? .ansi : .text)
        var states = [RingState](repeating: RingState(), count: layout.rings.count)
        let known = layout.rings.map { $0.name }.joined(separator: ", ")
        if options.sets.isEmpty && options.spins.isEmpty {
            for (i, ring) in layout.rings.enumerated() {
                states[i].set(OneShotCommand.demoValues[ring.name] ?? 0.8, at: 0,
                              duration: options.duration ?? OneShotCommand.demoDuration, curve: options.curve)
            }
        }
        for (ring, value) in options.sets {
            guard let i = layout.index(of: ring) else {
                throw .usage("--set \(ring)=…: no ring called \"\(ring)\"; the rings are \(known)")
            }
            states[i].set(value, at: 0, duration: options.duration ?? 0, curve: options.curve)
        }
        for ring in options.spins {
            guard let i = layout.index(of: ring) else {
                throw .usage("--spin \(ring): no ring called \"\(ring)\"; the rings are \(known)")
            }
            states[i].spin(at: 0)
        }
        self.states = states
        session = FrameSession(layout: layout, driver: options.chipDriver,
                               settings: FrameSettings(color: options.color, fps: options.fps))
    }

    /// The index of the last frame of a run without `--frames`: the first frame at which every
    /// transition has settled, or the last frame of one spinner period.
    var settledFrame: Int {
        var last = 0
        for (state, ring) in zip(states, layout.rings) {
            if state.spinningSince != nil {
                last = max(last, Int((ring.appearance.spinner.period * options.fps).rounded(.up)) - 1)
            }
            // The first frame at or after the transition's end shows the settled value.
            last = max(last, Int((state.transitionEnd * options.fps - 1e-9).rounded(.up)))
        }
        return last
    }

    /// Whether anything still moves after time `t`.
    func isAnimating(at t: Double) -> Bool {
        states.contains { $0.isAnimating(at: t) }
    }

    /// Renders frames and hands each one to `emit` with its description; stops early when `emit`
    /// returns false or `shouldStop` says so. `pace(k)` waits until frame k is due (a no-op when
    /// unpaced). `holdOpen` keeps going past the settled frame (a terminal without `--frames`),
    /// calling `hold` once the picture is still.
    func run(holdOpen: Bool, emit: (SimulatedFrame, RenderedFrame) -> Bool, pace: (Int) -> Void,
             shouldStop: () -> Bool, hold: () -> Void) {
        var session = self.session
        let lastFrame = options.frames.map { $0 - 1 } ?? (holdOpen ? Int.max : settledFrame)
        var k = 0
        while k <= lastFrame && !shouldStop() {
            pace(k)
            let t = Double(k) / options.fps
            let frame = session.render(states, at: t, animating: isAnimating(at: t))
            guard emit(frame.described(index: k, time: t), frame) else {
                return
            }
            if holdOpen && options.frames == nil && !isAnimating(at: t) {
                hold()
                return
            }
            k += 1
        }
    }

    /// The text of one frame in the chosen format.
    func text(_ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        format.render(frame, pixels: pixels, layout: layout)
    }
}
