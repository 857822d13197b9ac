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

    /// The 8-bit drive levels for `c`: rounded to nearest, except that an LED with any light in it
    /// keeps at least level 1 on its brightest channel (FastLED's `scale8_video` idea, applied per
    /// LED so a dim colour keeps its hue instead of gaining stray channels).
    @inlinable
    public static func quantise(_ c: LinearRGB) -> RGB8 {
        let r = clamp01(c.r) * 255, g = clamp01(c.g) * 255, b = clamp01(c.b) * 255
        // Adding ½ and truncating rounds these non-negative values to nearest without a libm
        // call per channel (`rounded()` is not inlined and was a tenth of the frame's cost).
        var out = RGB8(r: UInt8(r + 0.5), g: UInt8(g + 0.5), b: UInt8(b + 0.5))
        if out == .black, r + g + b > 0 {
            if r >= g && r >= b { out.r = 1 } else if g >= b { out.g = 1 } else { out.b = 1 }
        }
        return out
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
