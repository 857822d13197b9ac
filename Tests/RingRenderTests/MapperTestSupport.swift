import RingModel
@testable import RingRender

/// Draws progress `p` on an `n`-LED circle (positions from 12 o'clock).
func circle(_ p: Double, n: Int, _ appearance: RingAppearance = plain()) -> [LinearRGB] {
    var out = [LinearRGB](repeating: .black, count: n)
    out.withUnsafeMutableBufferPointer { ProgressMapper(appearance: appearance).drawCircle(progress: p, into: $0) }
    return out
}

/// Draws progress `p` on an `n`-LED bar.
func bar(_ p: Double, n: Int, _ appearance: RingAppearance = plain()) -> [LinearRGB] {
    var out = [LinearRGB](repeating: .black, count: n)
    out.withUnsafeMutableBufferPointer { ProgressMapper(appearance: appearance).drawBar(progress: p, into: $0) }
    return out
}

/// Draws the spinner with its tail at `tail` turns.
func spinner(tail: Double, n: Int, _ appearance: RingAppearance = plain()) -> [LinearRGB] {
    var out = [LinearRGB](repeating: .black, count: n)
    out.withUnsafeMutableBufferPointer { ProgressMapper(appearance: appearance).drawSpinner(tail: tail, into: $0) }
    return out
}

let red = RGB8(r: 255, g: 0, b: 0)
let blue = RGB8(r: 0, g: 0, b: 255)
let green = RGB8(r: 0, g: 255, b: 0)

/// A red→blue ring with an explicit dark-grey track, no shadow: easy to reason about. Its head
/// shows its colour from the start (`headFrom` 0), so the head's mechanics can be seen at any
/// value; the seed's default threshold has tests of its own.
func plain(span: GradientSpan = .ring, cap: CapStyle = .round, track: Track = .color(RGB8(r: 10, g: 10, b: 10)),
           highlight: Float = 0, shadow: Float = 0, capColor: RGB8? = nil, headFrom: Double = 0) -> RingAppearance {
    var appearance = RingAppearance(gradient: Gradient(from: red, to: blue, span: span), track: track, cap: cap,
                                    capColor: capColor, highlight: highlight, shadow: shadow)
    appearance.headFrom = headFrom
    return appearance
}

func close(_ a: LinearRGB, _ b: LinearRGB, _ tolerance: Float = 1e-4) -> Bool {
    abs(a.r - b.r) <= tolerance && abs(a.g - b.g) <= tolerance && abs(a.b - b.b) <= tolerance
}

func isDark(_ c: LinearRGB) -> Bool { c.maxChannel < 1e-6 }

/// How much of the head LED `k` shows at `p` on an `n`-LED circle (0…1), measured, not derived
/// from the mapper's rules: the head enters every LED as a linear mix, so drawing the same
/// picture with a red and with a green cap, the LED differs by exactly that share of the heads'
/// difference.
func headWeight(_ p: Double, n: Int, _ appearance: RingAppearance, led k: Int, bar isBar: Bool = false) -> Float {
    var a = appearance, b = appearance
    a.capColor = RGB8(r: 255, g: 0, b: 0)
    b.capColor = RGB8(r: 0, g: 255, b: 0)
    let one = isBar ? bar(p, n: n, a) : circle(p, n: n, a)
    let other = isBar ? bar(p, n: n, b) : circle(p, n: n, b)
    return (one[k].r - other[k].r) / (a.headColor.r - b.headColor.r)
}
