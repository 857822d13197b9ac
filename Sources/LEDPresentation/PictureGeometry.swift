import RingModel

/// Where the pictures (terminal and SVG) put each segment: ring and pie segments as concentric
/// circles (first = outermost, a one-LED innermost segment in the centre), bars in rows
/// underneath; and where LED k of a circle sits on it.
struct PictureGeometry {
    /// A segment with the chain offset of its ring's first LED.
    typealias Placed = (offset: Int, segment: Segment)

    let circles: [Placed]
    let bars: [Placed]

    init(layout: RingLayout) {
        var circles: [Placed] = []
        var bars: [Placed] = []
        for (index, ring) in layout.rings.enumerated() {
            var offset = layout.offsets[index]
            for segment in ring.segments {
                if ring.shape == .bar { bars.append((offset, segment)) } else { circles.append((offset, segment)) }
                offset += segment.ledCount
            }
        }
        self.circles = circles
        self.bars = bars
    }

    /// Radii from the innermost circle out: each at least `gap` outside the one inside it and at
    /// least `needed(n)` for its n LEDs; a one-LED innermost segment sits at radius 0.
    func radii(gap: Double, needed: (Int) -> Double) -> [Double] {
        var radii = [Double](repeating: 0, count: circles.count)
        var inner = -gap
        for i in stride(from: circles.count - 1, through: 0, by: -1) {
            let n = circles[i].segment.ledCount
            radii[i] = max(inner + gap, n == 1 && i == circles.count - 1 ? 0 : needed(n))
            inner = radii[i]
        }
        return radii
    }

    /// LED k of n sits at k/n of a turn, clockwise from 12 o'clock as seen from the front (LED 0
    /// at 12 o'clock itself, as on a real ring): the angle in radians.
    static func angle(_ k: Int, of n: Int) -> Double {
        Double(k) / Double(n) * 2 * Double.pi
    }
}
