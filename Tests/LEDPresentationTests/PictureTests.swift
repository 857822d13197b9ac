import Testing
@testable import LEDPresentation
import RingModel

/// The terminal and SVG pictures of a frame (issue 13): LEDs where they really are, in the colour
/// their light looks on a screen.
@Suite struct PictureTests {
    static func layout(_ counts: [Int], shape: RingShape = .ring) throws -> RingLayout {
        if shape == .pie {
            return try RingLayout(rings: [RingSpec(name: "pie", shape: .pie, segments: counts.map { Segment(ledCount: $0) },
                                                   appearance: RingAppearance(gradient: Palette.move))])
        }
        return try RingLayout(rings: counts.enumerated().map { i, n in
            RingSpec(name: "r\(i)", shape: shape, segments: [Segment(ledCount: n)], appearance: RingAppearance(gradient: Palette.move))
        })
    }

    static func frame(_ layout: RingLayout) -> SimulatedFrame {
        SimulatedFrame(index: 0, time: 0, rings: layout.rings.enumerated().map { i, ring in
            .init(name: ring.name, progress: 0.5, spinning: false, range: layout.offsets[i]..<(layout.offsets[i] + ring.ledCount))
        })
    }

    static func stripped(_ text: String) -> [String] {
        var out = "", inEscape = false
        for c in text {
            if inEscape { if c.isLetter { inEscape = false }; continue }
            if c == "\u{1b}" { inEscape = true; continue }
            out.append(c)
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: [[12], [24], [60], [24, 16, 12]])
    func terminalPictureGivesEveryLEDItsOwnCellAndFits(counts: [Int]) throws {
        let layout = try PictureTests.layout(counts)
        let picture = TerminalPicture(layout: layout)
        let cells = Set(picture.dots.map { [$0.row, $0.column] })
        #expect(cells.count == layout.ledCount, "two LEDs share a cell")
        // And no two dots touch side by side (●● reads as one blob).
        for a in picture.dots {
            #expect(!picture.dots.contains { $0.row == a.row && $0.column == a.column + 1 }, "LED \(a.led) touches its neighbour")
        }
        let lines = PictureTests.stripped(picture.render(PictureTests.frame(layout), pixels: Array(repeating: .black, count: layout.ledCount)))
        #expect(lines.count <= 40)
        #expect(lines.allSatisfy { $0.count <= 120 }, "wider than 120 columns")
    }

    @Test(arguments: [12, 24, 60])
    func terminalPictureHasLEDZeroAtTwelveOClock(n: Int) throws {
        // No half-LED rotation: LED 0 straight above the centre, LED N/4 straight right of it.
        let picture = TerminalPicture(layout: try PictureTests.layout([n]))
        let top = try #require(picture.dots.first { $0.led == 0 })
        let right = try #require(picture.dots.first { $0.led == n / 4 })
        let bottom = try #require(picture.dots.first { $0.led == n / 2 })
        #expect(top.column == bottom.column)
        #expect(right.row == (top.row + bottom.row) / 2)
    }

    @Test func pieCentreLEDIsInTheCentre() throws {
        let picture = TerminalPicture(layout: try PictureTests.layout([24, 16, 12, 1], shape: .pie))
        let centre = try #require(picture.dots.first { $0.led == 24 + 16 + 12 })
        let top = try #require(picture.dots.first { $0.led == 0 })
        let bottom = try #require(picture.dots.first { $0.led == 12 })
        #expect(centre.column == top.column)
        #expect(centre.row == (top.row + bottom.row) / 2)
        let svg = SVGPicture(layout: try PictureTests.layout([24, 16, 12, 1], shape: .pie))
        let svgCentre = try #require(svg.dots.first { $0.led == 52 }), svgTop = try #require(svg.dots.first { $0.led == 0 })
        #expect(abs(svgCentre.x - svgTop.x) < 1e-9 && svgCentre.y > svgTop.y)
    }

    @Test func terminalAndSVGPaintTheDisplayColourOfEachLED() throws {
        let layout = try PictureTests.layout([12])
        var pixels = [RGB8](repeating: RGB8(r: 2, g: 0, b: 0), count: 12)
        pixels[3] = RGB8(r: 0xdc, g: 0x09, b: 0x37)
        let shown = SRGB.display(pixels[3]), track = SRGB.display(pixels[0])
        // Drive level 2 of 255 is 0.8 % of the light: on a screen that is sRGB 22, not near-black 2.
        #expect(shown != pixels[3] && track == RGB8(r: 22, g: 0, b: 0))
        let ansi = TerminalPicture(layout: layout).render(PictureTests.frame(layout), pixels: pixels)
        #expect(ansi.contains("\u{1b}[38;2;\(shown.r);\(shown.g);\(shown.b)m●"))
        let svg = SVGPicture(layout: layout).render(PictureTests.frame(layout), pixels: pixels)
        #expect(svg.contains("fill=\"\(shown.hex)\" data-led=\"3\""))
        #expect(svg.contains("fill=\"\(track.hex)\" data-led=\"0\""))
        #expect(!svg.contains(pixels[3].hex))
    }

    @Test func svgIsOneDocumentWithEveryLEDAndTheLabels() throws {
        let layout = try RingLayout(rings: Palette.activityRings() + [
            RingSpec(name: "queue", shape: .bar, segments: [Segment(ledCount: 10)], appearance: RingAppearance(gradient: Palette.stand)),
        ])
        let svg = SVGPicture(layout: layout).render(PictureTests.frame(layout), pixels: Array(repeating: .black, count: layout.ledCount))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        for led in 0..<layout.ledCount { #expect(svg.contains("data-led=\"\(led)\"/>")) }
        #expect(svg.contains(">move  50.0 %</text>") && svg.contains(">queue  50.0 %</text>"))
        #expect(SVGPicture.escaped("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;")
        // LED 0 of the outer ring straight above the centre: no half-LED rotation.
        let picture = SVGPicture(layout: layout)
        let top = try #require(picture.dots.first { $0.led == 0 }), bottom = try #require(picture.dots.first { $0.led == 12 })
        #expect(abs(top.x - bottom.x) < 1e-9)
    }
}
