import LEDHardware
import LEDRingControl
import RingModel
import RingRender

/// Frames of one layout for one output: builds the renderer once from the colour and power
/// settings (pipeline, current limit for the chip, dithering, HDR), renders each frame, and hands
/// out what every output needs — the drive levels, APA102's 16-bit frame, the driver settings
/// with RGBW white and HDR, and the frame's description (values, milliamps, limiter scale). The
/// one-shot command and the daemon both render through it, so an option is applied in one place.
struct FrameSession {
    /// The rings on the chain.
    let layout: RingLayout
    /// The chip the frames are for (its power model, whether it has HDR); `.simulate` when none.
    let driver: DriverKind
    /// The settings the renderer was built from.
    let settings: FrameSettings
    /// The renderer: its last frame, power report and dithering state.
    private(set) var renderer: Renderer

    /// A session for `layout` on `driver` (nil: the simulated output) with `settings`.
    init(layout: RingLayout, driver: DriverKind?, settings: FrameSettings) {
        self.layout = layout
        self.driver = driver ?? .simulate
        self.settings = settings
        var pipeline = ColorPipeline(brightness: Float(settings.brightness), gamma: Float(settings.gamma))
        pipeline.correction = settings.correction.factors
        let limiter = CurrentLimiter(model: self.driver.powerModel,
                                     maxMilliamps: settings.maxMilliamps ?? CurrentLimiter.piFivePinMilliamps)
        renderer = Renderer(layout: layout, pipeline: pipeline, limiter: limiter, dithering: settings.dither)
        renderer.wideFrame = settings.usesHDR(on: driver)
        renderer.framesPerSecond = settings.fps
    }

    /// Said once, at start, when the budget cannot light a single LED: the chips' idle current
    /// alone takes all of it (`--max-milliamps 50` on 52 LEDs), so every frame would be black
    /// without a word. nil when frames can light.
    var darkBudgetWarning: String? {
        guard let (idle, budget) = renderer.limiter.idleOverBudget(ledCount: layout.ledCount) else { return nil }
        let needed = Int(idle.rounded(.up))
        return "the LEDs stay dark: their idle current alone (\(needed) mA, \(layout.ledCount) LEDs at "
            + "\(renderer.limiter.model.idle) mA) takes the whole \(Int(budget)) mA budget; raise maxMilliamps "
            + "(--max-milliamps) above \(needed), e.g. to \(Int(CurrentLimiter.piFivePinMilliamps)) on the Pi's 5 V pin"
    }

    /// Whether frames go out with APA102 high dynamic range.
    var usesHDR: Bool { renderer.wideFrame }

    /// Overall light, 0…1: the daemon's controller changes it while running.
    var brightness: Double {
        get { Double(renderer.pipeline.brightness) }
        set { renderer.pipeline.brightness = Float(newValue) }
    }

    /// `base` (the output's driver settings) with the white extraction and HDR of this session,
    /// so the encoder turns the rendered frame into the wire bytes these settings mean.
    func driverSettings(_ base: DriverSettings) -> DriverSettings {
        var out = base
        if let white = settings.white { out.whiteExtraction = white }
        out.highDynamicRange = usesHDR
        return out
    }

    /// Renders the frame `controller` shows at `t` (its `scene`, drawn by `Renderer.render(_:)`,
    /// the one frame builder) and describes it.
    mutating func render(_ controller: Controller, at t: Double) -> RenderedFrame {
        let scene = controller.scene(at: t)
        renderer.render(scene)
        return described(scene.values, states: controller.states)
    }

    private func described(_ values: [RingValue], states: [RingState]) -> RenderedFrame {
        return RenderedFrame(layout: layout, values: values, states: states, pixels: renderer.frame,
                             frame16: usesHDR ? renderer.frame16 : nil, power: renderer.power)
    }

    /// `frame` with the LEDs off (the network switched the lights off): black, drawing only the
    /// chips' idle current, still describing the rings' values.
    func dark(_ frame: RenderedFrame) -> RenderedFrame {
        let idle = frame.power.idleMilliamps
        return RenderedFrame(layout: layout, values: frame.values, states: frame.states,
                             pixels: [RGB8](repeating: .black, count: layout.ledCount), frame16: nil,
                             power: PowerReport(milliamps: idle, scale: 1, idleMilliamps: idle, withinBudget: true))
    }

    /// The last frame before stopping: every LED black and every ring at 0.
    func blank() -> RenderedFrame {
        RenderedFrame(layout: layout, values: [RingValue](repeating: .progress(0), count: layout.rings.count),
                      states: [], pixels: [RGB8](repeating: .black, count: layout.ledCount), frame16: nil, power: .empty)
    }
}
