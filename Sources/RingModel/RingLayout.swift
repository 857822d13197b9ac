/// The rings on one chain, in chain order: ring i's LEDs follow ring i−1's.
public struct RingLayout: Sendable {
    /// The rings, in chain order.
    public let rings: [RingSpec]
    /// Where each ring's first LED sits on the chain.
    public let offsets: [Int]
    /// LEDs on the chain.
    public let ledCount: Int
    /// The named looks any ring can switch to at run time, shared by every ring.
    public var looks: [Look] = []

    /// Largest chain ledring drives from one process.
    public static let maxChainLEDs = 16_384

    /// Why a layout cannot be used.
    public enum Problem: Error, Equatable, Sendable {
        /// There are no rings.
        case empty
        /// A ring has no name, or its name has characters that a command line or topic would mangle.
        case badName(index: Int, name: String)
        /// Two rings share a name.
        case duplicateName(String)
        /// A segment's LED count is outside 1…1024.
        case ledCountOutOfRange(ring: String, segment: Int, count: Int)
        /// A ring's shape needs a different number of segments.
        case segmentCount(ring: String, shape: RingShape, count: Int)
        /// The chain is longer than ledring drives.
        case chainTooLong(Int)
    }

    /// Lays `rings` out one after another on a chain, checking names and sizes.
    public init(rings: [RingSpec]) throws(Problem) {
        guard !rings.isEmpty else { throw .empty }
        var seen = Set<String>()
        var offsets: [Int] = []
        var total = 0
        for (index, ring) in rings.enumerated() {
            guard RingLayout.isValidName(ring.name) else { throw .badName(index: index, name: ring.name) }
            guard seen.insert(ring.name).inserted else { throw .duplicateName(ring.name) }
            let needsOne = ring.shape != .pie
            if ring.segments.isEmpty || (needsOne && ring.segments.count != 1) {
                throw .segmentCount(ring: ring.name, shape: ring.shape, count: ring.segments.count)
            }
            for (s, segment) in ring.segments.enumerated()
            where segment.ledCount < 1 || segment.ledCount > Segment.maxLEDs {
                throw .ledCountOutOfRange(ring: ring.name, segment: s, count: segment.ledCount)
            }
            offsets.append(total)
            total += ring.ledCount
        }
        guard total <= RingLayout.maxChainLEDs else { throw .chainTooLong(total) }
        self.rings = rings
        self.offsets = offsets
        self.ledCount = total
    }

    /// Ring names: letters, digits, `-` and `_`, up to 32 characters, starting with a letter.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 32,
              first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// The index of the look called `name`.
    public func lookIndex(named name: String) -> Int? {
        looks.firstIndex { $0.name == name }
    }

    /// The index of the ring called `name`.
    public func index(of name: String) -> Int? {
        rings.firstIndex { $0.name == name }
    }
}
