import Foundation
import Testing

/// End-to-end: the built binary, run as a script would run it (no terminal).
@Suite struct SimulateCommandTests {
    @Test func jsonFrameHasTheDocumentedShape() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--frames", "1", "--set", "move=0.8"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let frames = try LedringProcess.jsonLines(result.stdout)
        #expect(frames.count == 1)
        let frame = try #require(frames.first)
        #expect(frame["frame"] as? Int == 0)
        #expect(frame["t"] as? Double == 0)
        let rings = try #require(frame["rings"] as? [[String: Any]])
        let names: [String] = rings.compactMap { $0["name"] as? String }
        #expect(names == ["move", "exercise", "stand"])
        #expect(rings[0]["progress"] as? Double == 0.8)
        let leds = try #require(rings[0]["leds"] as? [String])
        #expect(leds.count == 24)
        #expect(leds.allSatisfy { $0.count == 7 && $0.hasPrefix("#") && UInt32($0.dropFirst(), radix: 16) != nil })
        #expect((rings[1]["leds"] as? [String])?.count == 16)
        #expect((rings[2]["leds"] as? [String])?.count == 12)
    }

    @Test func frameKShowsTimeKOverFPS() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--frames", "5", "--fps", "4"])
        let frames = try LedringProcess.jsonLines(result.stdout)
        let indices: [Int] = frames.compactMap { $0["frame"] as? Int }
        let times: [Double] = frames.compactMap { $0["t"] as? Double }
        #expect(indices == [0, 1, 2, 3, 4])
        #expect(times == [0, 0.25, 0.5, 0.75, 1.0])
    }

    @Test func demoAnimatesThenStopsOnceSettledWhenNotOnATerminal() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--fps", "10"])
        #expect(result.status == 0)
        let frames = try LedringProcess.jsonLines(result.stdout)
        // The demo fills the rings over 2.5 s: frames 0…25 at 10 fps, the last one settled.
        #expect(frames.count == 26)
        let progress = frames.map { (($0["rings"] as? [[String: Any]])?.first?["progress"] as? Double) ?? -1 }
        #expect(progress.first == 0)
        #expect(progress.last == 1.3)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func spinnerRunsOnePeriod() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--fps", "20", "--spin", "exercise"])
        let frames = try LedringProcess.jsonLines(result.stdout)
        #expect(frames.count == 20)
        let rings = frames.compactMap { ($0["rings"] as? [[String: Any]])?[1] }
        #expect(rings.allSatisfy { $0["spinning"] as? Bool == true })
        // The arc moves: not every frame is the same picture.
        #expect(Set(rings.compactMap { ($0["leds"] as? [String])?.joined() }).count > 10)
    }

    @Test func textIsTheDefaultWhenStdoutIsNotATerminal() throws {
        let result = try LedringProcess.run(["--simulate", "--set", "stand=130%"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "frame 0 t=0.000")
        #expect(lines.contains { $0.hasPrefix("  stand") && $0.contains("130.0%") })
        #expect(!result.stdout.contains("\u{1b}"))
    }

    @Test func transitionsFromTheCommandLineAreAnimated() throws {
        let result = try LedringProcess.run(["--simulate", "--format", "json", "--fps", "10", "--set", "move=1",
                                             "--duration", "1", "--curve", "linear"])
        let frames = try LedringProcess.jsonLines(result.stdout)
        #expect(frames.count == 11)
        let progress = frames.map { (($0["rings"] as? [[String: Any]])?.first?["progress"] as? Double) ?? -1 }
        #expect(abs(progress[5] - 0.5) < 1e-9)
    }

    static let badInputs: [([String], String)] = [
        (["--simulate", "--set", "move=abc"], "--set move=abc"),
        (["--simulate", "--set", "move=nan"], "--set move=nan"),
        (["--simulate", "--set", "move=inf"], "--set move=inf"),
        (["--simulate", "--set", "move=-0.5"], "--set move=-0.5"),
        (["--simulate", "--set", "move=101"], "--set move=101"),
        (["--simulate", "--set", "jog=0.5"], "no ring called \"jog\""),
        (["--simulate", "--set", "move"], "expected RING=VALUE"),
        (["--simulate", "--spin", "jog"], "no ring called \"jog\""),
        (["--simulate", "--fps", "0"], "--fps 0"),
        (["--simulate", "--fps", "-3"], "--fps -3"),
        (["--simulate", "--frames", "0"], "--frames 0"),
        (["--simulate", "--format", "html"], "--format \"html\""),
        (["--simulate", "--curve", "bounce"], "--curve \"bounce\""),
        (["--simulate", "--fps"], "--fps needs a value"),
        (["--simulate", "--bogus"], "unknown option \"--bogus\""),
        (["--set", "move=0.5"], "choose an output"),
    ]

    @Test(arguments: badInputs)
    func badInputIsOneClearLineAndExit64(arguments: [String], mentions: String) throws {
        let result = try LedringProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(mentions), "stderr was: \(result.stderr)")
    }

    @Test func helpAndVersion() throws {
        let help = try LedringProcess.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("--simulate"))
        let version = try LedringProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("ledring "))
    }

    @Test func pieAndBarShapes() throws {
        let pie = try LedringProcess.jsonLines(try LedringProcess.run(
            ["--simulate", "--format", "json", "--frames", "1", "--shape", "pie", "--set", "progress=0.5"]).stdout)
        let pieLEDs = (pie.first?["rings"] as? [[String: Any]])?.first?["leds"] as? [String]
        #expect(pieLEDs?.count == 53)   // rings of 24, 16, 12 and 1
        let bar = try LedringProcess.jsonLines(try LedringProcess.run(
            ["--simulate", "--format", "json", "--frames", "1", "--shape", "bar", "--leds", "10", "--set", "progress=0.3"]).stdout)
        let barLEDs = try #require((bar.first?["rings"] as? [[String: Any]])?.first?["leds"] as? [String])
        #expect(barLEDs.count == 10)
        #expect(barLEDs[3] == barLEDs[9] && barLEDs[2] != barLEDs[3])
    }
}
