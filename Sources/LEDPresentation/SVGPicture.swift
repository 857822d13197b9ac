import CMath
import RingModel

/// One frame as an SVG picture: every LED a dot at its real place on the ring (LED k at k/N of a
/// turn from 12 o'clock, clockwise as seen from the front), painted in the colour its light looks
/// on a screen (`SRGB.display`), with each ring's name and value beside the rings. Plain text, no
/// libraries: a browser or any SVG viewer shows it.
public struct SVGPicture: Sendable {
    /// Where one LED's dot goes, in picture units.
    struct Dot: Sendable {
        var x: Double
        var y: Double
        var radius: Double
        var led: Int
    }

    /// Distance between neighbouring LEDs on a ring, in picture units.
    static let pitch = 14.0
    /// Space between concentric rings.
    static let ringGap = 18.0
    /// Width of the labels' column.
    static let labelWidth = 190.0

    let dots: [Dot]
    let width: Double
    let height: Double
    let labelX: Double

    /// Lays out the picture for `layout`: ring and pie segments as concentric circles (first =
    /// outermost, a one-LED innermost segment at the centre), bars as rows underneath.
    public init(layout: RingLayout) {
        let geometry = PictureGeometry(layout: layout)
        let circles = geometry.circles, bars = geometry.bars
        // Radii from the innermost circle out: each big enough for its LEDs at `pitch` apart and
        // at least `ringGap` outside the one inside it.
        let radii = geometry.radii(gap: SVGPicture.ringGap) { n in Double(n) * SVGPicture.pitch / (2 * Double.pi) }
        let margin = 16.0
        let outer = (radii.first ?? 0) + SVGPicture.pitch / 2
        let centre = margin + outer
        let dotRadius = SVGPicture.pitch * 0.4
        var dots: [Dot] = []
        for (i, circle) in circles.enumerated() {
            let n = circle.segment.ledCount
            for k in 0..<n {
                let angle = PictureGeometry.angle(k, of: n)
                dots.append(Dot(x: centre + radii[i] * ledring_sin(angle), y: centre - radii[i] * ledring_cos(angle), radius: dotRadius,
                                led: circle.offset + circle.segment.physicalIndex(ofPosition: k)))
            }
        }
        var y = circles.isEmpty ? margin + SVGPicture.pitch / 2 : 2 * centre - margin + SVGPicture.pitch
        var right = circles.isEmpty ? margin : 2 * centre
        for bar in bars {
            for k in 0..<bar.segment.ledCount {
                let x = margin + SVGPicture.pitch / 2 + Double(k) * SVGPicture.pitch
                dots.append(Dot(x: x, y: y, radius: dotRadius, led: bar.offset + bar.segment.physicalIndex(ofPosition: k)))
                right = max(right, x + SVGPicture.pitch)
            }
            y += SVGPicture.pitch * 1.5
        }
        self.dots = dots
        self.labelX = right + 8
        self.width = (labelX + SVGPicture.labelWidth).rounded(.up)
        let labelsBottom = margin + 22 * Double(layout.rings.count + 1)
        self.height = max(bars.isEmpty ? 2 * centre : y + margin - SVGPicture.pitch, labelsBottom).rounded(.up)
    }

    /// The SVG document of one frame; `pixels` are the chain's drive levels.
    public func render(_ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        let w = fixed(width, digits: 0), h = fixed(height, digits: 0)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#000\"/>\n"
        for dot in dots {
            let colour = dot.led < pixels.count ? SRGB.display(pixels[dot.led]) : .black
            out += "<circle cx=\"\(fixed(dot.x, digits: 1))\" cy=\"\(fixed(dot.y, digits: 1))\" r=\"\(fixed(dot.radius, digits: 1))\""
            out += " fill=\"\(colour.hex)\" data-led=\"\(dot.led)\"/>\n"
        }
        let text = "font-family=\"sans-serif\" font-size=\"13\""
        var y = 26.0
        let limited = frame.scale < 1 ? ", limited to \(fixed(Double(frame.scale) * 100, digits: 0)) %" : ""
        out += "<text x=\"\(fixed(labelX, digits: 0))\" y=\"\(fixed(y, digits: 0))\" fill=\"#888\" \(text)>"
        out += "t=\(fixed(frame.time, digits: 2)) s, \(fixed(frame.milliamps, digits: 0)) mA\(limited)</text>\n"
        for ring in frame.rings {
            y += 22
            // The swatch is the ring's brightest LED, so the label matches the ring it names.
            let brightest = ring.range.filter { $0 < pixels.count }.max { a, b in
                Int(pixels[a].r) + Int(pixels[a].g) + Int(pixels[a].b) < Int(pixels[b].r) + Int(pixels[b].g) + Int(pixels[b].b)
            }
            let swatch = brightest.map { SRGB.display(pixels[$0]) } ?? .black
            out += "<circle cx=\"\(fixed(labelX + 6, digits: 0))\" cy=\"\(fixed(y - 4.5, digits: 1))\" r=\"5\" fill=\"\(swatch.hex)\"/>"
            let value = ring.spinning ? "spinning" : fixed(ring.progress * 100, digits: 1) + " %"
            out += "<text x=\"\(fixed(labelX + 18, digits: 0))\" y=\"\(fixed(y, digits: 0))\" fill=\"#ddd\" \(text)>"
            out += SVGPicture.escaped(ring.name) + "  " + value + "</text>\n"
        }
        return out + "</svg>\n"
    }

    /// `text` safe inside an XML element.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
