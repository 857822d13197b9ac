import LEDRingTestSupport
import LEDWire
import RingModel

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
