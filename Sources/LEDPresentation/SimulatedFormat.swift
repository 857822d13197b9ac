import RingModel

/// How the simulated driver prints frames.
public enum SimulatedFormat: String, Sendable, CaseIterable {
    /// One readable block per frame: ring name, percentage and each LED's `#rrggbb`.
    case text
    /// One JSON object per frame on its own line.
    case json
    /// The rings drawn as circles of coloured dots with 24-bit ANSI colour, redrawn in place.
    case ansi
    /// One SVG picture per frame: the rings as dots at their real places, in screen colours.
    case svg

    /// The text for one frame; `pixels` are the chain's drive levels.
    public func render(_ frame: SimulatedFrame, pixels: [RGB8], layout: RingLayout) -> String {
        switch self {
        case .text: return SimulatedFormat.text(frame, pixels: pixels)
        case .json: return SimulatedFormat.json(frame, pixels: pixels)
        case .ansi: return TerminalPicture(layout: layout).render(frame, pixels: pixels)
        case .svg: return SVGPicture(layout: layout).render(frame, pixels: pixels)
        }
    }

    static func text(_ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        var out = "frame \(frame.index) t=\(fixed(frame.time, digits: 3)) \(fixed(frame.milliamps, digits: 0)) mA"
        out += frame.scale < 1 ? " (limited to \(fixed(Double(frame.scale) * 100, digits: 1))%)\n" : "\n"
        let width = frame.rings.map { $0.name.count }.max() ?? 0
        for ring in frame.rings {
            out += "  " + ring.name + String(repeating: " ", count: width - ring.name.count)
            out += ring.spinning ? "    spin" : " " + padLeft(fixed(ring.progress * 100, digits: 1) + "%", 7)
            for i in ring.range { out += " " + pixels[i].hex }
            out += "\n"
        }
        return out
    }

    static func json(_ frame: SimulatedFrame, pixels: [RGB8]) -> String {
        // Rounded to what means something: milliseconds, 0.1 mA, the scale and values to 1e-4.
        var out = "{\"frame\":\(frame.index),\"t\":\(short(frame.time, digits: 3))"
        out += ",\"milliamps\":\(short(frame.milliamps, digits: 1))"
        out += ",\"scale\":\(short(Double(frame.scale), digits: 4)),\"rings\":["
        for (n, ring) in frame.rings.enumerated() {
            if n > 0 { out += "," }
            out += "{\"name\":\"\(ring.name)\",\"progress\":\(short(ring.progress, digits: 4))"
            if ring.spinning { out += ",\"spinning\":true" }
            out += ",\"leds\":["
            for i in ring.range {
                if i > ring.range.lowerBound { out += "," }
                out += "\"" + pixels[i].hex + "\""
            }
            out += "]}"
        }
        return out + "]}\n"
    }
}

/// `value` with exactly `digits` decimals (no Foundation formatting in the hot path).
func fixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return text
}

/// `value` with at most `digits` decimals and at least one, trailing zeros dropped: `1.3`, `0.0`,
/// `0.033` (a JSON number that reads like the value, not like `0.033333333333333333`).
func short(_ value: Double, digits: Int) -> String {
    var text = fixed(value, digits: digits)
    guard text.contains(".") else { return text }
    while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
    return text
}

func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
