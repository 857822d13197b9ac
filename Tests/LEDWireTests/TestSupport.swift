import LEDWire
import RingRender

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
}

enum Fixtures {
    /// Chain lengths every round trip covers: one LED, a small ring, a big chain.
    static let chainLengths = [1, 2, 12, 60, 1024]

    static func randomFrame(count: Int, seed: UInt64) -> [RGB8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            RGB8(r: .random(in: 0...255, using: &generator),
                 g: .random(in: 0...255, using: &generator),
                 b: .random(in: 0...255, using: &generator))
        }
    }

    static func permutations(of letters: [Character]) -> [String] {
        guard letters.count > 1 else { return [String(letters)] }
        var result: [String] = []
        for (index, letter) in letters.enumerated() {
            var rest = letters
            rest.remove(at: index)
            result += permutations(of: rest).map { String(letter) + $0 }
        }
        return result
    }

    static let rgbOrders = permutations(of: ["R", "G", "B"])
    static let rgbwOrders = permutations(of: ["R", "G", "B", "W"])
}

extension ClosedRange where Bound == Double {
    /// Containment with a millionth of a nanosecond of slack for floating-point edges.
    func holds(_ value: Double) -> Bool {
        value >= lowerBound - 1e-6 && value <= upperBound + 1e-6
    }
}
