@testable import RingRender

/// SplitMix64: a tiny seeded generator so random frames are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
