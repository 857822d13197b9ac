import Foundation
import LEDWire
import RingModel
import Testing
import LEDRingNetTesting

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
        #expect(lines.first?.hasPrefix("frame 0 t=0.000 ") == true && lines.first?.hasSuffix(" mA") == true)
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
        (["--simulate", "--set", "move=abc"], "--set move \"abc\": not a number"),
        (["--simulate", "--set", "move=nan"], "--set move \"nan\": not a number"),
        (["--simulate", "--set", "move=inf"], "--set move \"inf\": not a number"),
        (["--simulate", "--set", "move=-0.5"], "--set move -0.5: must be 0…100"),
        (["--simulate", "--set", "move=101"], "--set move 101: must be 0…100"),
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
        (["--simulate", "--max-milliamps", "0"], "--max-milliamps 0"),
        (["--simulate", "--dither", "sometimes"], "--dither \"sometimes\""),
        (["--simulate", "--correction", "tungsten-ish"], "--correction \"tungsten-ish\""),
        (["--simulate", "--white", "grey"], "--white \"grey\""),
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

    @Test func jsonFramesReportTheCurrentEstimateAndTheLimiterScale() throws {
        let dim = try LedringProcess.jsonLines(try LedringProcess.run(
            ["--simulate", "--format", "json", "--frames", "1", "--set", "stand=0.25"]).stdout)
        #expect(dim.first?["scale"] as? Double == 1)
        #expect((dim.first?["milliamps"] as? Double ?? 0) > 0)
        let frames = try LedringProcess.jsonLines(try LedringProcess.run(
            ["--simulate", "--format", "json", "--fps", "10", "--set", "move=1", "--set", "exercise=1",
             "--set", "stand=1", "--max-milliamps", "150", "--duration", "1"]).stdout)
        #expect(frames.count == 11)
        for frame in frames {
            #expect((frame["milliamps"] as? Double ?? .infinity) <= 150)
        }
        #expect((frames.last?["scale"] as? Double ?? 1) < 1)
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

/// End-to-end: hardware drivers written to a dump file, and the tool commands.
@Suite struct HardwareCommandTests {
    func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "ledring-e2e-\(UUID().uuidString)-\(name)"
    }

    @Test func dumpedWS2812FrameDecodesToTheSimulatedColours() throws {
        let dump = temporaryPath("ws2812.bin")
        defer { try? FileManager.default.removeItem(atPath: dump) }
        let run = try LedringProcess.run(["--driver", "ws2812-spi", "--dump-wire", dump, "--frames", "1",
                                          "--set", "move=0.5", "--board", "rpi4b"])
        #expect(run.status == 0, "\(run.stderr)")
        let simulated = try LedringProcess.jsonLines(try LedringProcess.run(
            ["--simulate", "--format", "json", "--frames", "1", "--set", "move=0.5"]).stdout)
        let rings = try #require(simulated.first?["rings"] as? [[String: Any]])
        let expected = rings.flatMap { ($0["leds"] as? [String]) ?? [] }
        #expect(expected.count == 52)
        // Decode the dumped SPI symbols at the Pi 4's real clock (3.6 MHz requested → 3.571 MHz).
        let encoder = try SPISymbolEncoder(chip: .ws2812b, clockHz: 3_571_428)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.count == encoder.encodedLength(ledCount: 52))
        let decoded = try encoder.decoder.decode(bytes)
        #expect(decoded.pixels.map(\.rgb.hex) == expected)
    }

    @Test func dumpAppendsOneFrameAfterAnother() throws {
        let dump = temporaryPath("apa102.bin")
        defer { try? FileManager.default.removeItem(atPath: dump) }
        let run = try LedringProcess.run(["--driver", "apa102-spi", "--dump-wire", dump, "--frames", "3",
                                          "--set", "stand=1"])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        let frameLength = try APA102Encoder().encodedLength(ledCount: 52)
        #expect(bytes.count == 3 * frameLength)
        #expect(Array(bytes[0..<frameLength]) == Array(bytes[frameLength..<(2 * frameLength)]))
    }

    static let hardwareFailures: [([String], Int32, String)] = [
        (["--driver", "ws2812-spi", "--device", "/nonexistent/spidev9.9", "--set", "move=1"], 69, "dtparam=spi=on"),
        (["--driver", "leds-pio", "--device", "/nonexistent/leds7", "--set", "move=1"], 69, "ws2812-pio"),
        (["--driver", "ws2812-spi", "--spi-hz", "2000000", "--dump-wire", "/tmp/ledring-unused.bin", "--set", "move=1"], 78, "--spi-hz"),
        (["--driver", "apa102-spi", "--dump-wire", "/nonexistent/dir/x.bin", "--set", "move=1"], 69, "mkdir -p"),
        (["--driver", "ws2812-spi", "--board", "toaster", "--set", "move=1"], 64, #"--board "toaster": unknown; use one of auto, "#),
        (["--driver", "ws2812-spi", "--order", "GRX", "--set", "move=1"], 64, "--order"),
        (["--driver", "morse", "--set", "move=1"], 64, "--driver \"morse\""),
        (["--driver", "apa102-spi", "--simulate", "--driver", "sk6812-spi"], 64, "--simulate already stands in for --driver apa102-spi"),
        (["--simulate", "--svg-dir", "/tmp/x", "--driver", "morse"], 64, "--driver \"morse\""),
        (["--driver", "ws2812-gpio", "--set", "move=1"], 78, "--driver ws2812-spi"),
        (["--driver", "apa102-gpio", "--set", "move=1"], 78, "--gpio-data LINE and --gpio-clock LINE"),
    ]

    @Test(arguments: hardwareFailures)
    func hardwareFailuresNameTheFix(arguments: [String], status: Int32, mentions: String) throws {
        let run = try LedringProcess.run(arguments)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(mentions), "stderr was: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func boardsListsEveryBoard() throws {
        let run = try LedringProcess.run(["boards"])
        #expect(run.status == 0)
        for id in ["rpi-zero-2w", "rpi3b", "rpi4b", "rpi400", "rpi-cm4", "rpi5", "orangepi-zero", "rockpi-4b", "beaglebone-black",
                   "rpi1", "rpi2b", "rpi-zero", "rpi-zero-w", "rpi3a-plus", "rpi-cm3", "rpi-cm5", "rpi500", "generic-bcm2711"] {
            #expect(run.stdout.contains(id + " "), "\(id) missing")
        }
        #expect(run.stdout.contains("/dev/leds0"))
    }

    /// The issue's Pi Zero W: its board file is found, and the unfixed 400/250 MHz core clock is called out.
    @Test func doctorOnAZeroWRootNamesTheBoardAndItsCoreClock() throws {
        let root = temporaryPath("zero-w")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/proc/device-tree", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/boot/firmware", withIntermediateDirectories: true)
        try Data("raspberrypi,model-zero-w\0brcm,bcm2835\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/device-tree/compatible"))
        try Data("Raspberry Pi Zero W Rev 1.1\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/device-tree/model"))
        try Data("dtparam=spi=on\n".utf8).write(to: URL(fileURLWithPath: root + "/boot/firmware/config.txt"))
        let run = try LedringProcess.run(["doctor", "--root", root])
        #expect(run.stdout.contains("✓ board: Raspberry Pi Zero W (compatible \"raspberrypi,model-zero-w\")"), "\(run.stdout)")
        #expect(run.stdout.contains("✗ core clock: core clock moves between 250 and 400 MHz"), "\(run.stdout)")
        #expect(run.status == 69)  // no spidev node in a plain directory
    }

    @Test func doctorOnAnEmptyRootFailsWithFixes() throws {
        let root = temporaryPath("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try LedringProcess.run(["doctor", "--root", root])
        #expect(run.status == 69)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count >= 3)
        #expect(lines.allSatisfy { $0.hasPrefix("✗ ") || $0.hasPrefix("✓ ") })
        #expect(lines.filter { $0.hasPrefix("✗ ") }.allSatisfy { $0.contains("fix:") })
    }

    /// A Pi 4 root whose device nodes are plain files (making real character devices needs root):
    /// the board, bufsiz and core clock checks pass, and the stray nodes are called out.
    @Test func doctorOnAPiRootChecksEachPart() throws {
        let root = temporaryPath("pi")
        let fm = FileManager.default
        func put(_ path: String, _ text: String) throws {
            let full = root + path
            try fm.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        defer { try? fm.removeItem(atPath: root) }
        try put("/proc/device-tree/compatible", "raspberrypi,4-model-b\0brcm,bcm2711\0")
        try put("/proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
        try put("/boot/firmware/config.txt", "dtparam=spi=on\ncore_freq=500\ncore_freq_min=500\n")
        try put("/sys/module/spidev/parameters/bufsiz", "65536\n")
        try put("/etc/group", "root:x:0:\nspi:x:999:pi\ngpio:x:997:pi\n")
        try put("/dev/spidev0.0", "")
        try put("/dev/gpiochip0", "")
        let run = try LedringProcess.run(["doctor", "--root", root])
        #expect(run.status == 69, "\(run.stdout)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✓ board: Raspberry Pi 4 Model B") })
        #expect(lines.contains { $0.hasPrefix("✓ spidev bufsiz:") })
        #expect(lines.contains { $0.hasPrefix("✓ core clock: core clock fixed at 500 MHz") })
        #expect(lines.contains { $0.hasPrefix("✗ SPI device: /dev/spidev0.0 exists but is not a character device") })
        #expect(lines.contains { $0.hasPrefix("✗ GPIO chip:") })
    }
}

/// Ctrl-C (SIGINT) and SIGTERM stop a paced run at once with status 0.
@Suite struct InterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsAPacedRunCleanly(signal: Int32) throws {
        let process = try ChildProcess(LedringProcess.executable.path,
                                       ["--simulate", "--spin", "move", "--frames", "1000000", "--realtime", "--format", "text"],
                                       stderr: .null)
        // Wait (bounded) for the first frame, so the handlers are installed before the signal.
        var seen: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: seen, as: UTF8.self).contains("frame 1 "), Date() < deadline {
            seen += process.readOutput(timeout: 1)
        }
        process.send(signal)
        // Bounded: a run that ignores the signal is killed when `process` goes, and fails here.
        #expect(process.wait(timeout: 20) == 0)
        #expect(process.endingSignal == nil)
    }

    /// `--simulate --driver KIND` prints what that driver sends: the frame limited by that chip's
    /// current model (an APA102 at 500 mA gets about 0.64x a WS2812B's light), equal LED for LED
    /// to the wire bytes `--driver KIND --dump-wire` writes, decoded.
    @Test(arguments: ["apa102-spi", "sk6812-spi"])
    func simulatingADriverPrintsWhatItsChipGets(driver: String) throws {
        let values = ["--set", "move=1", "--set", "exercise=1", "--set", "stand=1", "--frames", "1"]
        func printed(_ extra: [String]) throws -> (leds: [RGB8], scale: Double) {
            let result = try LedringProcess.run(["--simulate", "--format", "json"] + extra + values)
            #expect(result.status == 0, "\(result.stderr)")
            let frame = try #require(try LedringProcess.jsonLines(result.stdout).first)
            let rings = try #require(frame["rings"] as? [[String: Any]])
            let leds = rings.flatMap { ($0["leds"] as? [String]) ?? [] }.compactMap { RGB8(hex: $0) }
            return (leds, try #require(frame["scale"] as? Double))
        }
        let plain = try printed([])
        let simulated = try printed(["--driver", driver])
        #expect(simulated.scale < plain.scale * 0.8, "\(driver) draws more per level than a WS2812B: \(simulated.scale) vs \(plain.scale)")

        let dump = DaemonProcess.makeDirectory() + "/wire.bin"
        let wired = try LedringProcess.run(["--driver", driver, "--dump-wire", dump] + values)
        #expect(wired.status == 0, "\(wired.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        let sent: [RGB8]
        if driver == "apa102-spi" {
            sent = try APA102Encoder().decode(bytes, ledCount: 52).map(\.colour)
        } else {
            let decoded = try SPISymbolEncoder(chip: .sk6812, clockHz: 3_600_000).decoder.decode(bytes)
            sent = decoded.pixels.map(\.rgb)
        }
        #expect(sent.count == 52 && simulated.leds == sent)
        #expect(plain.leds != sent)
    }
}
