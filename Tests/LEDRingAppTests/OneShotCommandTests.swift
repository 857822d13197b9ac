import LEDHardware
import Testing
@testable import LEDRingApp

@Suite struct OneShotCommandTests {
    func frames(_ arguments: [String], holdOpen: Bool = false) throws -> [String] {
        let command = try OneShotCommand(options: try OneShotOptions(arguments), stdoutIsTerminal: false)
        var out: [String] = []
        command.run(holdOpen: holdOpen, emit: { frame, rendered in out.append(command.text(frame, pixels: rendered.pixels)); return true }, pace: { _ in },
                    shouldStop: { false }, hold: {})
        return out
    }

    @Test func noColorOrADumbTerminalMeansNoEscapes() throws {
        #expect(Terminal.allowsEscapes(["TERM": "xterm-256color"]))
        #expect(Terminal.allowsEscapes(["NO_COLOR": "", "TERM": "xterm-256color"]))
        #expect(!Terminal.allowsEscapes(["NO_COLOR": "1", "TERM": "xterm-256color"]))
        #expect(!Terminal.allowsEscapes(["NO_COLOR": "false"]))
        #expect(!Terminal.allowsEscapes(["TERM": "dumb"]))
        let options = try OneShotOptions(["--simulate"])
        #expect(try OneShotCommand(options: options, stdoutIsTerminal: true).format == .ansi)
        #expect(try OneShotCommand(options: options, stdoutIsTerminal: true, escapesAllowed: false).format == .text)
        #expect(try OneShotCommand(options: options, stdoutIsTerminal: false).format == .text)
        // Asked for on the command line, the picture is drawn all the same.
        let asked = try OneShotOptions(["--simulate", "--format", "ansi"])
        #expect(try OneShotCommand(options: asked, stdoutIsTerminal: true, escapesAllowed: false).format == .ansi)
    }

    @Test func percentagesAndFractionsMeanTheSame() throws {
        let a = try OneShotOptions(["--simulate", "--set", "move=80%"])
        let b = try OneShotOptions(["--simulate", "--set=move=0.8"])
        #expect(a.sets.first?.value == 0.8 && b.sets.first?.value == 0.8)
    }

    @Test func attachedAndSeparateValuesParseAlike() throws {
        let a = try OneShotOptions(["--simulate", "--fps=12", "--format=json"])
        let b = try OneShotOptions(["--simulate", "--fps", "12", "--format", "json"])
        #expect(a.fps == 12 && b.fps == 12 && a.format == .json && b.format == .json)
    }

    @Test func explicitValuesJumpAndShowInTheFirstFrame() throws {
        let out = try frames(["--simulate", "--format", "json", "--set", "move=0.5"])
        #expect(out.count == 1)
        #expect(out[0].contains("\"name\":\"move\",\"progress\":0.5,"))
    }

    @Test func holdingOpenStopsAtTheFirstStillFrameAndHolds() throws {
        var held = 0
        let command = try OneShotCommand(options: try OneShotOptions(["--simulate", "--fps", "10", "--duration", "0.5",
                                                                       "--set", "move=1"]), stdoutIsTerminal: true)
        #expect(command.format == .ansi)
        var count = 0
        command.run(holdOpen: true, emit: { _, _ in count += 1; return true }, pace: { _ in },
                    shouldStop: { false }, hold: { held += 1 })
        #expect(count == 6 && held == 1)
    }

    @Test func aClosedReaderEndsTheRun() throws {
        let command = try OneShotCommand(options: try OneShotOptions(["--simulate", "--frames", "100"]), stdoutIsTerminal: false)
        var count = 0
        command.run(holdOpen: false, emit: { _, _ in count += 1; return count < 3 }, pace: { _ in },
                    shouldStop: { false }, hold: {})
        #expect(count == 3)
    }

    @Test func aStopRequestEndsTheRun() throws {
        let command = try OneShotCommand(options: try OneShotOptions(["--simulate", "--spin", "move"]), stdoutIsTerminal: true)
        var count = 0
        command.run(holdOpen: true, emit: { _, _ in count += 1; return true }, pace: { _ in },
                    shouldStop: { count >= 50 }, hold: {})
        #expect(count == 50)
    }

    @Test func ansiPictureDrawsEveryLEDAndTheLabels() throws {
        let out = try frames(["--simulate", "--format", "ansi", "--set", "move=0.5", "--set", "stand=1.3"])
        let picture = try #require(out.first)
        #expect(picture.hasPrefix("\u{1b}[H"))
        // One dot per LED of the three rings, plus one swatch per label.
        #expect(picture.filter { $0 == "●" }.count == 55)
        #expect(picture.contains("move") && picture.contains("50.0 %") && picture.contains("130.0 %"))
    }

    @Test func textFrameListsEveryLED() throws {
        let out = try frames(["--simulate", "--format", "text", "--set", "exercise=0.25"])
        let lines = out.joined().split(separator: "\n")
        let exercise = try #require(lines.first { $0.hasPrefix("  exercise") })
        #expect(exercise.split(separator: " ").filter { $0.hasPrefix("#") }.count == 16)
        #expect(exercise.contains("25.0%"))
    }

    /// The one-shot's whole-number options refuse a value just past either end of their range,
    /// naming the option and the range: the one check (`SettingInput.integer`) the settings
    /// tables use too.
    @Test func wholeNumbersJustOutsideTheirRangeAreRefused() {
        let cases: [(words: [String], message: String)] = [
            (["--frames", "0"], "--frames 0: must be 1…10000000"),
            (["--frames", "10000001"], "--frames 10000001: must be 1…10000000"),
            (["--leds", "1025"], "--leds 1025: must be 1…1024"),
            (["--rings", "a:1025"], "--rings a: 1025: must be 1…1024"),
            (["--frames", "2.5"], #"--frames "2.5": not a whole number; give one from 1 to 10000000"#),
        ]
        for (words, message) in cases {
            let error = commandError { () throws(CommandError) in try OneShotOptions(["--simulate"] + words) }
            #expect(error?.message == message && error?.code == .usage, "\(words): \(error?.message ?? "")")
        }
    }
}
