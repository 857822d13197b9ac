import LEDRingTestSupport
import RingModel
@testable import RingRender

extension SeededGenerator {
    /// A drive level that is dark, very dim (below a few 8-bit steps) or anywhere, in turn.
    mutating func level() -> Float {
        switch UInt8.random(in: 0...3, using: &self) {
        case 0: return 0
        case 1: return Float.random(in: 0...(4.0 / 255), using: &self)
        default: return Float.random(in: 0...1, using: &self)
        }
    }

    mutating func drive() -> LinearRGB {
        LinearRGB(r: level(), g: level(), b: level())
    }
}

/// A one-ring layout of `n` LEDs.
func singleRing(_ n: Int, _ appearance: RingAppearance = plain()) throws -> RingLayout {
    try RingLayout(rings: [RingSpec(name: "r", segments: [Segment(ledCount: n)], appearance: appearance)])
}
