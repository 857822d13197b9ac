import LEDHardware
import LEDWire
import RingRender

/// The colour and power settings a frame session renders with, resolved once: the command line's
/// colour options over the built-in defaults (the one-shot) or over the config file (the daemon).
struct FrameSettings: Sendable, Equatable {
    /// Overall light, 0…1 (the daemon's controller changes it at run time).
    var brightness = 1.0
    /// Output gamma.
    var gamma = Double(ColorPipeline.referenceGamma)
    /// Colour correction for the strip type (and colour temperature).
    var correction = ColorCorrection.uncorrected
    /// Temporal dithering.
    var dither = Dithering.auto
    /// Supply budget, mA; nil uses the limiter's default for a Pi's 5 V pin.
    var maxMilliamps: Double?
    /// How RGBW chips get their white level; nil keeps the driver's default.
    var white: WhiteExtraction?
    /// APA102/SK9822 high dynamic range, where the driver can do it.
    var hdr = false
    /// Frames per second the frames are shown at (decides which levels are worth dithering).
    var fps = 30.0
}

extension FrameSettings {
    /// The one-shot command's settings: `color` over the defaults, at `fps`.
    init(color: ColorOptions, fps: Double) {
        self = color.applied(to: FrameSettings(fps: fps))
    }

    /// The daemon's settings: `color` (the command line) over `config` (the file), at `fps`.
    init(config: DaemonConfig, color: ColorOptions, fps: Double) {
        self = color.applied(to: config.color.applied(to: FrameSettings(fps: fps)))
    }

    /// Whether frames go out with APA102 high dynamic range: asked for, on a driver that has it.
    func usesHDR(on driver: DriverKind?) -> Bool {
        hdr && driver?.apa102Variant != nil
    }
}

extension ColorOptions {
    /// `settings` with every option given here taking its place.
    func applied(to settings: FrameSettings) -> FrameSettings {
        var out = settings
        if let brightness { out.brightness = brightness }
        if let gamma { out.gamma = gamma }
        if let dither { out.dither = dither }
        if let correction { out.correction = correction }
        if let maxMilliamps { out.maxMilliamps = maxMilliamps }
        if let white { out.white = white }
        if let hdr { out.hdr = hdr }
        return out
    }
}
