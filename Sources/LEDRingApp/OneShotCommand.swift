import LEDHardware
import LEDPresentation
import LEDRingControl
import RingModel

/// `ledring --simulate …`: renders frames of the rings at t = k / fps and prints them.
struct OneShotCommand {
    let options: OneShotOptions
    let layout: RingLayout
    /// The rings at t = 0: `--set` and `--spin` (or the demo) applied, as the service applies a
    /// `set` and a `spin`, so frames come from the one frame builder the service uses.
    let controller: Controller
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
        let known = layout.rings.map { $0.name }.joined(separator: ", ")
        var requests: [Request] = []
        if options.sets.isEmpty && options.spins.isEmpty {
            var demo: [String: Double] = [:]
            for ring in layout.rings { demo[ring.name] = OneShotCommand.demoValues[ring.name] ?? 0.8 }
            requests.append(.set(demo, duration: options.duration ?? OneShotCommand.demoDuration, curve: options.curve))
        }
        var values: [String: Double] = [:]
        for (ring, value) in options.sets {
            guard layout.index(of: ring) != nil else {
                throw .usage("--set \(ring)=…: no ring called \"\(ring)\"; the rings are \(known)")
            }
            values[ring] = value
        }
        if !values.isEmpty { requests.append(.set(values, duration: options.duration ?? 0, curve: options.curve)) }
        for ring in options.spins {
            guard layout.index(of: ring) != nil else {
                throw .usage("--spin \(ring): no ring called \"\(ring)\"; the rings are \(known)")
            }
        }
        if !options.spins.isEmpty { requests.append(.spin(rings: options.spins)) }
        let settings = FrameSettings(color: options.color, fps: options.fps)
        var controller = Controller(layout: layout, brightness: settings.brightness)
        for request in requests {
            do throws(RequestError) {
                // Only a `status` request reads the report; these are `set` and `spin`.
                _ = try controller.perform(request, at: 0, status: { StatusReport.withoutOutput("one-shot") })
            } catch {
                throw .usage(error.message)
            }
        }
        self.controller = controller
        session = FrameSession(layout: layout, driver: options.chipDriver, settings: settings)
    }

    /// The index of the last frame of a run without `--frames`: the first frame at which every
    /// transition has settled, or the last frame of one spinner period.
    var settledFrame: Int {
        var last = 0
        for (state, ring) in zip(controller.states, layout.rings) {
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
        controller.isAnimating(at: t)
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
            let frame = session.render(controller, at: t)
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
