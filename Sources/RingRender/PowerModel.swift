import RingModel

/// How much current an LED draws: mA per channel at full drive (linear in the drive level, as
/// PWM and the APA102/SK9822 current field both are) plus a fixed idle current per LED for its
/// controller, drawn even when the LED is dark.
///
/// The defaults are estimates for 5 V parts from the sources named on each; real parts vary by
/// batch, package and supply voltage, so a measured model should be passed where it matters.
public struct PowerModel: Hashable, Sendable {
    /// mA of the red channel at full drive.
    public var red: Double
    /// mA of the green channel at full drive.
    public var green: Double
    /// mA of the blue channel at full drive.
    public var blue: Double
    /// mA of the white channel at full drive (RGBW parts; 0 otherwise).
    public var white: Double
    /// mA per LED whatever it shows.
    public var idle: Double

    /// Makes a model from its currents in mA.
    public init(red: Double, green: Double, blue: Double, white: Double = 0, idle: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
        self.idle = idle
    }

    /// WS2812B: FastLED's `power_mgt.cpp` figures (R 16, G 11, B 15 mA, 1 mA dark), measured on
    /// several strips and checked closed-loop to keep a budget; disk91.com's WS2812B measurements
    /// ("I(mA) = 1 + R/16 + G/16 + B/16", i.e. 16 mA a channel, 1 mA idle) agree. Datasheet-style
    /// summaries say up to 20 mA a channel; the measured values are what the limiter needs.
    public static let ws2812b = PowerModel(red: 16, green: 11, blue: 15, idle: 1)

    /// SK6812 (RGB): an estimate — list.awesomeled.xyz's SK6812 entry gives 20 mA per channel and
    /// 1.0 mA quiescent (datasheet-level figures, no measurement found), so the limiter errs safe.
    public static let sk6812 = PowerModel(red: 20, green: 20, blue: 20, idle: 1)

    /// SK6812 RGBW: measured on a 60/m strip by blog.dest-unreach.be ("Specs of the SK6812 LED
    /// strip", 2023): R 7.98, G 8.11, B 7.98, W 16.11 mA per LED, idle 0.23 mA; rounded up here.
    /// One strip's measurement, so an estimate for other batches.
    public static let sk6812RGBW = PowerModel(red: 8, green: 8.2, blue: 8, white: 16.2, idle: 0.25)

    /// APA102 (5050): an estimate from a catalogue, not a datasheet or a measurement —
    /// list.awesomeled.xyz gives 19–22 mA per channel (10 mA for the 2020
    /// package) and 1.0 mA quiescent; the top of the range is taken. components101 quotes the
    /// datasheet's built-in 20 mA constant-current source.
    public static let apa102 = PowerModel(red: 22, green: 22, blue: 22, idle: 1)

    /// SK9822: an estimate — an APA102-compatible part in the same 5050 package; no separate
    /// figure was found, so the APA102 values are used.
    public static let sk9822 = PowerModel(red: 22, green: 22, blue: 22, idle: 1)

    /// The chip models by the names the command line and config use.
    public static let chips: [(name: String, model: PowerModel)] = [
        ("ws2812b", .ws2812b), ("ws2812", .ws2812b), ("sk6812", .sk6812), ("sk6812-rgbw", .sk6812RGBW),
        ("apa102", .apa102), ("sk9822", .sk9822),
    ]

    /// The default model for chip `name` (case, `-`, `_` ignored); nil for an unknown chip.
    public init?(chip name: String) {
        let key = ColorCorrection.key(name)
        guard let found = PowerModel.chips.first(where: { ColorCorrection.key($0.name) == key }) else { return nil }
        self = found.model
    }

    /// The current of the channels alone (no idle) at drive levels 0…1.
    @inlinable
    public func channelMilliamps(_ drive: LinearRGB) -> Double {
        Double(clamp01(drive.r)) * red + Double(clamp01(drive.g)) * green + Double(clamp01(drive.b)) * blue
    }

    /// The current of the channels alone (no idle) at 8-bit levels.
    @inlinable
    public func channelMilliamps(_ levels: RGB8) -> Double {
        (Double(levels.r) * red + Double(levels.g) * green + Double(levels.b) * blue) / 255
    }

    /// The current of the channels alone (no idle) at 8-bit levels with white.
    @inlinable
    public func channelMilliamps(r: UInt8, g: UInt8, b: UInt8, w: UInt8) -> Double {
        (Double(r) * red + Double(g) * green + Double(b) * blue + Double(w) * white) / 255
    }

    /// The most one LED can gain from rounding up by one 8-bit step on each lit channel.
    func roundingAllowance(_ drive: LinearRGB) -> Double {
        ((drive.r > 0 ? red : 0) + (drive.g > 0 ? green : 0) + (drive.b > 0 ? blue : 0)) / 255
    }
}
