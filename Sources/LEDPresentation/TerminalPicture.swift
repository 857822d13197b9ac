import CMath
import RingModel

/// Draws the rings as concentric circles of coloured dots, with each ring's name and value beside
/// them (the seeds' label and current-value label), for a 24-bit-colour terminal.
public struct TerminalPicture: Sendable {
    /// Where one LED's dot goes: a row and column of the picture.
    struct Dot: Sendable {
        var row: Int
        var column: Int
        var led: Int
    }

    let dots: [Dot]
    let rows: Int
    let columns: Int

    /// Lays out the picture for `layout`: ring and pie segments as concentric circles (first =
    /// outermost), bars as lines underneath.
    public init(layout: RingLayout) {
        let geometry = PictureGeometry(layout: layout)
        let circles = geometry.circles, bars = geometry.bars
        // Radii in rows from the innermost circle out: each at least 2.5 rows outside the last and
        // wide enough that neighbouring dots land in different cells (a cell is twice as tall as
        // wide, so columns are doubled): N/4 rows keeps even the diagonals of a 60-LED ring apart
        // (one row or two columns between neighbours) and fits it in a 120×40 terminal. A
        // one-LED innermost segment (the pie's centre) sits in the centre.
        let radii = geometry.radii(gap: 2.5) { n in max(Double(n) / 4, 1) }
        let outer = radii.first ?? 0
        let centreRow = Int(outer.rounded())
        let centreColumn = Int((2 * outer).rounded()) + 1
        var dots: [Dot] = []
        for (i, circle) in circles.enumerated() {
            let n = circle.segment.ledCount
            for k in 0..<n {
                let angle = PictureGeometry.angle(k, of: n)
                let row = centreRow - Int((radii[i] * ledring_cos(angle)).rounded())
                let column = centreColumn + Int((2 * radii[i] * ledring_sin(angle)).rounded())
                dots.append(Dot(row: row, column: column, led: circle.offset + circle.segment.physicalIndex(ofPosition: k)))
            }
        }
        var row = circles.isEmpty ? 0 : 2 * centreRow + 2
        for bar in bars {
            for k in 0..<bar.segment.ledCount {
                dots.append(Dot(row: row, column: 1 + 2 * k, led: bar.offset + bar.segment.physicalIndex(ofPosition: k)))
            }
            row += 2
        }
        self.dots = dots
        self.rows = max(row, circles.isEmpty ? 0 : 2 * centreRow + 1, layout.rings.count + 1)
        self.columns = max(dots.map { $0.column }.max() ?? 0, 2 * centreColumn) + 3
    }

    /// The picture of one frame: cursor home, every row cleared to its end, no trailing newline
    /// scrolling. The colours shown are the light each LED gives, encoded for the screen.
    public func render(_ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        var cells = [[RGB8?]](repeating: [RGB8?](repeating: nil, count: columns), count: rows)
        for dot in dots where dot.led < pixels.count {
            cells[dot.row][dot.column] = SRGB.display(pixels[dot.led])
        }
        var out = "\u{1b}[H"
        for (r, line) in cells.enumerated() {
            for cell in line {
                if let c = cell {
                    out += "\u{1b}[38;2;\(c.r);\(c.g);\(c.b)m●"
                } else {
                    out += " "
                }
            }
            out += "\u{1b}[0m  " + label(row: r, frame, pixels: pixels) + "\u{1b}[K\n"
        }
        return out
    }

    private func label(row: Int, _ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        if row == 0 {
            let limited = frame.scale < 1 ? " limited to \(fixed(Double(frame.scale) * 100, digits: 0))%" : ""
            return "t=\(fixed(frame.time, digits: 2))s  frame \(frame.index)  \(fixed(frame.milliamps, digits: 0)) mA" + limited
        }
        let index = row - 1
        guard index < frame.rings.count else { return "" }
        let ring = frame.rings[index]
        let width = frame.rings.map { $0.name.count }.max() ?? 0
        let value = ring.spinning ? "spinning" : fixed(ring.progress * 100, digits: 1) + " %"
        // The swatch is the ring's brightest LED, so the label matches the ring it names.
        let brightest = ring.range.max { a, b in
            Int(pixels[a].r) + Int(pixels[a].g) + Int(pixels[a].b) < Int(pixels[b].r) + Int(pixels[b].g) + Int(pixels[b].b)
        }
        var swatch = "●"
        if let i = brightest {
            let c = SRGB.display(pixels[i])
            swatch = "\u{1b}[38;2;\(c.r);\(c.g);\(c.b)m●\u{1b}[0m"
        }
        return swatch + " " + ring.name + String(repeating: " ", count: width - ring.name.count + 2) + padLeft(value, 9)
    }
}
