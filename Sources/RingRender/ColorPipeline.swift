import RingModel

/// From linear light to the drive levels an LED chip gets: gamma, colour correction, brightness,
/// then 8-bit quantisation that never turns a lit LED off.
///
/// Order matters: gamma comes first so that brightness and correction scale the light the LED
/// really emits (an LED's PWM is linear in light). Brightness at 50 % halves the light whatever
/// the gamma.
public struct ColorPipeline: Hashable, Sendable {
    /// The gamma at which the stage is the identity: the renderer works in linear sRGB light, and
    /// an sRGB colour is (close to) its encoded value raised to 2.2.
    public static let referenceGamma: Float = 2.2

    /// Overall light output, 0…1, applied in linear light.
    public var brightness: Float
    /// How encoded colour values map to LED light, per channel. 2.2 shows the sRGB colours as a
    /// monitor would; larger values (WLED and Adafruit use 2.8) darken mid-tones.
    public var gamma: Gamma
    /// Per-channel scale for the LED type's white point (FastLED's "typical LED strip"
    /// correction is about (1, 0.69, 0.94)); (1, 1, 1) leaves colours as they are.
    public var correction: LinearRGB

    /// A gamma exponent per channel.
    public struct Gamma: Hashable, Sendable {
        /// Red exponent.
        public var r: Float
        /// Green exponent.
        public var g: Float
        /// Blue exponent.
        public var b: Float
        /// The same exponent on all three channels.
        public init(_ all: Float) { r = all; g = all; b = all }
        /// One exponent per channel.
        public init(r: Float, g: Float, b: Float) { self.r = r; self.g = g; self.b = b }
    }

    /// Makes a pipeline. `gamma` applies to all three channels.
    public init(brightness: Float = 1, gamma: Float = ColorPipeline.referenceGamma,
                correction: LinearRGB = .white) {
        self.brightness = brightness
        self.gamma = Gamma(gamma)
        self.correction = correction
    }

    /// Makes a pipeline with a named correction preset (a strip type, a colour temperature, or
    /// both `combined(with:)`).
    public init(brightness: Float = 1, gamma: Gamma, correction: ColorCorrection) {
        self.brightness = brightness
        self.gamma = gamma
        self.correction = correction.factors
    }

    /// The drive level (0…1, linear in emitted light) of one linear colour.
    @inlinable
    public func drive(_ c: LinearRGB) -> LinearRGB {
        let g = gamma
        let ref = ColorPipeline.referenceGamma
        var out = c
        if g.r != ref || g.g != ref || g.b != ref {
            out = LinearRGB(r: pow(clamp01(c.r), g.r / ref), g: pow(clamp01(c.g), g.g / ref),
                            b: pow(clamp01(c.b), g.b / ref))
        }
        let b = clamp01(brightness)
        return LinearRGB(r: out.r * correction.r * b, g: out.g * correction.g * b, b: out.b * correction.b * b)
    }

    /// The 8-bit drive levels for `c`: rounded to nearest, except for dim LEDs (brightest channel
    /// below `hueKeepingLevel`), whose channels are each rounded down or up so that the LED keeps
    /// its hue as far as whole levels allow (`dim`). An LED with any light in it stays lit.
    @inlinable
    public static func quantise(_ c: LinearRGB) -> RGB8 {
        let r = clamp01(c.r) * 255, g = clamp01(c.g) * 255, b = clamp01(c.b) * 255
        let top = Swift.max(r, Swift.max(g, b))
        if top > 0 && top < hueKeepingLevel { return dim(r, g, b) }
        // Adding ½ and truncating rounds these non-negative values to nearest without a libm
        // call per channel (`rounded()` is not inlined and was a tenth of the frame's cost).
        return RGB8(r: UInt8(r + 0.5), g: UInt8(g + 0.5), b: UInt8(b + 0.5))
    }

    /// Below this level of its brightest channel an LED is quantised for hue (`dim`): there one
    /// step is 1/16 of the level or more, and rounding each channel to nearest turns a dim green
    /// (0.6, 1.4, 0.2) olive (1, 1, 0) and a dim white red (1, 0, 0).
    public static let hueKeepingLevel: Float = 16

    /// The levels, each channel rounded down or up (a channel at 0 stays 0, none goes a whole
    /// step above its exact level, as the current limiter needs), whose colour is nearest in
    /// chromaticity (the share of each channel in the sum) to the exact one, with a quarter of
    /// the relative error in the sum added, so that among equal hues the nearer brightness wins.
    /// (0.6, 1.4, 0.2) gives (1, 2, 0), a green; (0.3, 0.3, 0.3) gives (1, 1, 1), a grey.
    @inlinable
    static func dim(_ r: Float, _ g: Float, _ b: Float) -> RGB8 {
        let sum = r + g + b
        let cr = r / sum, cg = g / sum, cb = b / sum
        // Truncating these non-negative levels is rounding down.
        let lr = Float(UInt8(r)), lg = Float(UInt8(g)), lb = Float(UInt8(b))
        var best = RGB8.black
        var bestCost = Float.infinity
        for k in 0..<8 {
            let qr = k & 1 != 0 && r > lr ? lr + 1 : lr
            let qg = k & 2 != 0 && g > lg ? lg + 1 : lg
            let qb = k & 4 != 0 && b > lb ? lb + 1 : lb
            let qs = qr + qg + qb
            guard qs > 0 else { continue }
            let dr = qr / qs - cr, dg = qg / qs - cg, db = qb / qs - cb
            let cost = (dr * dr + dg * dg + db * db).squareRoot() + 0.25 * Swift.abs(qs - sum) / sum
            if cost < bestCost {
                bestCost = cost
                best = RGB8(r: UInt8(qr), g: UInt8(qg), b: UInt8(qb))
            }
        }
        return best
    }

    /// The 16-bit drive levels for `c`, rounded to nearest, for outputs with more than 8 bits
    /// (APA102 HDR). No floor for lit LEDs is needed: one 16-bit step is far below what shows.
    @inlinable
    public static func quantise16(_ c: LinearRGB) -> RGB16 {
        // Clamped, so x·65535 + ½ ≤ 65535.5 and truncating rounds to nearest.
        RGB16(r: UInt16(clamp01(c.r) * 65535 + 0.5), g: UInt16(clamp01(c.g) * 65535 + 0.5),
              b: UInt16(clamp01(c.b) * 65535 + 0.5))
    }

    /// The drive level of `c` clamped to 0…1 per channel (NaN to 0): what the limiter and the
    /// quantisers take, so scaling never meets a level above full.
    @inlinable
    public func clampedDrive(_ c: LinearRGB) -> LinearRGB {
        let d = drive(c)
        return LinearRGB(r: clamp01(d.r), g: clamp01(d.g), b: clamp01(d.b))
    }

    /// Runs every LED of `input` through the pipeline into `output` (same count).
    @inlinable
    public func process(_ input: UnsafeBufferPointer<LinearRGB>, into output: UnsafeMutableBufferPointer<RGB8>) {
        for i in 0..<Swift.min(input.count, output.count) {
            output[i] = ColorPipeline.quantise(drive(input[i]))
        }
    }
}
