import Testing
import RingModel
@testable import RingRender

@Suite("Gradient hue interpolation")
struct GradientInterpolationTests {
    func chroma(_ c: LinearRGB) -> Float {
        let lab = OKLab(c)
        return (lab.a * lab.a + lab.b * lab.b).squareRoot()
    }

    @Test func straightOKLabStaysTheDefault() {
        let g = Gradient(from: red, to: blue)
        #expect(g.interpolation == .oklab)
        #expect(g.with(span: .fill).interpolation == .oklab)
    }

    @Test func polarBlendKeepsChromaWhereAStraightLineTurnsGrey() {
        let cyan = RGB8(r: 0, g: 255, b: 255)
        let straight = Gradient(from: red, to: cyan).color(at: 0.5)
        let polar = Gradient(from: red, to: cyan, interpolation: .oklchShorter).color(at: 0.5)
        #expect(chroma(polar) > 2 * chroma(straight))
    }

    @Test func redToBlueGoesTheShortWayThroughMagentaUnlessAskedOtherwise() {
        let short = Gradient(from: red, to: blue, interpolation: .oklch(.shorter)).color(at: 0.5)
        #expect(short.r > short.g && short.b > short.g)
        let long = Gradient(from: red, to: blue, interpolation: .oklch(.longer)).color(at: 0.5)
        #expect(long.g > long.r && long.g > long.b)
        // Red (≈29°) to blue (≈264°): increasing goes the long way here, decreasing the short.
        #expect(Gradient(from: red, to: blue, interpolation: .oklch(.decreasing)).color(at: 0.5) == short)
        #expect(Gradient(from: red, to: blue, interpolation: .oklch(.increasing)).color(at: 0.5) == long)
    }

    @Test(arguments: GradientInterpolation.HueArc.allCases)
    func endsAreTheStops(arc: GradientInterpolation.HueArc) {
        let g = Gradient(from: red, to: blue, interpolation: .oklch(arc))
        #expect(close(g.color(at: 0), SRGB.linear(red), 2e-3))
        #expect(close(g.color(at: 1), SRGB.linear(blue), 2e-3))
    }

    @Test func aGreyStopTakesTheOtherStopsHue() {
        let white = RGB8(r: 255, g: 255, b: 255)
        let g = Gradient(from: white, to: red, interpolation: .oklchShorter)
        let redLab = OKLab(SRGB.linear(red))
        for u: Float in [0.25, 0.5, 0.75] {
            // Every blend is red's hue, lighter and paler: no sweep through other hues.
            let lab = OKLab(g.color(at: u))
            let cross = lab.a * redLab.b - lab.b * redLab.a, dot = lab.a * redLab.a + lab.b * redLab.b
            #expect(abs(cross) < 2e-3 && dot > 0, "at \(u)")
        }
    }
}
