import RingModel
import RingRender

/// One APA102/SK9822 LED as decoded from the wire: the 5-bit current level and the 8-bit PWM
/// levels, channels back in red/green/blue order.
public struct APA102Pixel: Hashable, Sendable {
    /// Global brightness (current) level, 0…31.
    public var brightness: UInt8
    /// PWM levels.
    public var colour: RGB8

    /// Makes a decoded LED.
    public init(brightness: UInt8, colour: RGB8) {
        self.brightness = brightness
        self.colour = colour
    }

    /// The 16-bit drive level this LED emits, taking light ∝ (brightness / 31) × (PWM / 255):
    /// channel × brightness × 65535 / (31 × 255), rounded.
    public var rgb16: RGB16 {
        func level(_ pwm: UInt8) -> UInt16 {
            let product = UInt64(pwm) * UInt64(brightness) * 65535
            return UInt16((product + 31 * 255 / 2) / (31 * 255))
        }
        return RGB16(r: level(colour.r), g: level(colour.g), b: level(colour.b))
    }
}
