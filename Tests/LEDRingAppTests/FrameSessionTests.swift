import LEDHardware
import LEDPresentation
import LEDRingControl
import LEDRingControlTesting
import LEDRingTesting
import LEDWire
import RingModel
import RingRender
import Testing
@testable import LEDRingApp

/// The one frame session (issue 12): the one-shot command and the daemon resolve the same colour
/// and output options to the same settings, render the same frame, describe it the same way and
/// put the same bytes on the wire, HDR and RGBW white included.
@Suite struct FrameSessionTests {
    /// Options both front ends take, and the settings they must come to.
    static let cases: [(options: [String], expected: FrameSettings)] = [
        (["--simulate"], FrameSettings(fps: 30)),
        (["--simulate", "--brightness", "60%", "--gamma", "2.8", "--dither", "on",
          "--correction", "typical-led-strip+tungsten-100w", "--max-milliamps", "300.4", "--fps", "50"],
         FrameSettings(brightness: 0.6, gamma: 2.8, correction: FrameSessionTests.correction("typical-led-strip+tungsten-100w"), dither: .on,
                       maxMilliamps: 300.4, fps: 50)),
        (["--driver", "apa102-spi", "--hdr", "--max-milliamps", "100000"],
         FrameSettings(maxMilliamps: 100_000, hdr: true, fps: 30)),
        (["--driver", "sk9822-spi", "--hdr", "--brightness", "0.05", "--dither", "off"],
         FrameSettings(brightness: 0.05, dither: .off, hdr: true, fps: 30)),
        (["--driver", "sk6812w-spi", "--white", "accurate", "--gamma", "2.2"],
         FrameSettings(gamma: 2.2, white: WhiteExtraction(named: "accurate"), fps: 30)),
        // HDR asked for on a chip without it: no 16-bit frame, the plain bytes.
        (["--driver", "ws2812-spi", "--hdr"], FrameSettings(hdr: true, fps: 30)),
    ]

    static func correction(_ combination: String) -> ColorCorrection {
        (try? ColorCorrection.parse(combination: combination).get()) ?? .uncorrected
    }

    /// The values shown: a partial ring, one nearly dark (where HDR and dithering differ) and a spinner.
    static let values = ["--set", "move=0.3", "--set", "exercise=0.05", "--spin", "stand", "--frames", "1"]

    /// The one-shot command's first frame, as `ledring … --frames 1` renders it.
    static func oneShot(_ options: [String]) throws -> (OneShotCommand, SimulatedFrame, RenderedFrame) {
        let command = try OneShotCommand(options: try OneShotOptions(options + values), stdoutIsTerminal: false)
        var result: (SimulatedFrame, RenderedFrame)?
        command.run(holdOpen: false, emit: { frame, rendered in result = (frame, rendered); return false },
                    pace: { _ in }, shouldStop: { false }, hold: {})
        let (frame, rendered) = try #require(result)
        return (command, frame, rendered)
    }

    /// The daemon's session for the same options, built as `Daemon.init` builds it (the command
    /// line's colour options over the default config, in the session's settings), rendering at
    /// t = 0 what `values` asks for, sent as the socket would send it.
    static func daemon(_ options: [String]) throws -> (FrameSession, OutputConfig, RenderedFrame) {
        let daemonOptions = try DaemonOptions(options)
        let config = try DaemonConfig.defaults()
        let output = config.output.overridden(by: daemonOptions.output)
        var session = Daemon.makeSession(config: config, output: output, options: daemonOptions)
        // The controller starts at the settings' brightness (the command line's over the file's).
        var controller = Controller(layout: config.layout, brightness: session.settings.brightness)
        for request: Request in [.set(["move": 0.3, "exercise": 0.05]), .spin(rings: ["stand"])] {
            _ = try controller.perform(request, at: 0, status: { RecordingRingControl.status })
        }
        let rendered = session.render(controller, at: 0)
        return (session, output, rendered)
    }

    /// The bytes `settings` put on the wire for `frame` (through a dump file on the fake kernel).
    static func wire(_ settings: DriverSettings, _ frame: RenderedFrame) throws -> [UInt8] {
        var settings = settings
        settings.dumpPath = "/wire.bin"
        let system = FakeSystemCalls()
        let driver = try settings.makeDriver(system: system)
        try driver.show(frame)
        try driver.close()
        return system.written(to: "/wire.bin")
    }

    @Test(arguments: FrameSessionTests.cases)
    func theOneShotAndTheDaemonRenderDescribeAndSendTheSameFrame(_ options: [String], _ expected: FrameSettings) throws {
        let (command, frame, rendered) = try FrameSessionTests.oneShot(options)
        let (session, output, daemonRendered) = try FrameSessionTests.daemon(options)

        #expect(command.session.settings == expected)
        #expect(session.settings == expected)
        #expect(session.driver == command.session.driver)
        #expect(daemonRendered.pixels == rendered.pixels)
        #expect(daemonRendered.frame16 == rendered.frame16)
        #expect(daemonRendered.power == rendered.power)
        #expect(session.renderer.limiter.maxMilliamps == command.session.renderer.limiter.maxMilliamps)
        // The description every simulated format prints, milliamps and scale included.
        let layout = command.layout
        for format in [SimulatedFormat.json, .text] {
            #expect(format.render(daemonRendered.described(index: 0, time: 0), pixels: daemonRendered.pixels, layout: layout)
                    == format.render(frame, pixels: rendered.pixels, layout: layout))
        }

        let usesHDR = expected.hdr && session.driver.apa102Variant != nil
        #expect(session.usesHDR == usesHDR && command.session.usesHDR == usesHDR)
        #expect((rendered.frame16 != nil) == usesHDR)
        guard let kind = command.options.driver else { return }
        let oneShotSettings = command.session.driverSettings(
            command.options.output.driverSettings(kind: kind, ledCount: layout.ledCount, board: nil))
        let daemonSettings = session.driverSettings(output.driverSettings(kind: kind, ledCount: layout.ledCount, board: nil))
        #expect(daemonSettings.highDynamicRange == usesHDR && oneShotSettings.highDynamicRange == usesHDR)
        #expect(daemonSettings.whiteExtraction == (expected.white ?? .minimum))
        #expect(oneShotSettings.whiteExtraction == daemonSettings.whiteExtraction)
        let bytes = try FrameSessionTests.wire(oneShotSettings, rendered)
        #expect(!bytes.isEmpty)
        #expect(try FrameSessionTests.wire(daemonSettings, daemonRendered) == bytes)
    }

    /// HDR and white extraction change the wire bytes, so the test above would see either dropped.
    /// `--simulate` stands in for one driver, named before or after it, or in the config file the
    /// command line overrides; its session limits with that chip's model. Two drivers are refused.
    @Test func aSimulatedOutputTakesTheChipOfTheDriverItStandsInFor() throws {
        for arguments in [["--simulate", "--driver", "apa102-spi"], ["--driver", "apa102-spi", "--simulate"]] {
            let output = try DaemonOptions(arguments).output
            #expect(output.driver == .simulate && output.chipDriver == .apa102SPI, "\(arguments)")
            #expect(try OneShotOptions(arguments).chipDriver == .apa102SPI)
        }
        var file = OutputConfig()
        file.driver = .sk6812SPI
        let output = file.overridden(by: try DaemonOptions(["--simulate"]).output)
        #expect(output.driver == .simulate && output.chipDriver == .sk6812SPI)
        let session = Daemon.makeSession(config: try DaemonConfig.defaults(), output: output,
                                         options: try DaemonOptions(["--simulate"]))
        #expect(session.renderer.limiter.model == .sk6812)
        #expect(try DaemonOptions(["--simulate"]).output.chipDriver == nil)
        #expect(throws: CommandError.self) { try DaemonOptions(["--simulate", "--driver", "apa102-spi", "--driver", "sk6812-spi"]) }
    }

    @Test func hdrAndWhiteReachTheWire() throws {
        func bytes(_ options: [String]) throws -> [UInt8] {
            let (session, output, rendered) = try FrameSessionTests.daemon(options)
            let kind = try #require(output.driver)
            return try FrameSessionTests.wire(
                session.driverSettings(output.driverSettings(kind: kind, ledCount: session.layout.ledCount, board: nil)),
                rendered)
        }
        #expect(try bytes(["--driver", "apa102-spi", "--hdr"]) != bytes(["--driver", "apa102-spi"]))
        #expect(try bytes(["--driver", "sk6812w-spi", "--white", "accurate"]) != bytes(["--driver", "sk6812w-spi"]))
    }

    @Test func aDarkFrameKeepsTheValuesAndDrawsOnlyTheIdleCurrent() throws {
        let (command, _, rendered) = try FrameSessionTests.oneShot(["--driver", "apa102-spi", "--hdr"])
        let dark = command.session.dark(rendered)
        #expect(dark.pixels.allSatisfy { $0 == .black } && dark.frame16 == nil)
        #expect(dark.power.milliamps == rendered.power.idleMilliamps && dark.power.scale == 1)
        #expect(dark.values == rendered.values)
        let blank = command.session.blank()
        #expect(blank.pixels.count == command.layout.ledCount && blank.pixels.allSatisfy { $0 == .black })
        #expect(blank.values == [RingValue](repeating: .progress(0), count: command.layout.rings.count))
        #expect(blank.described(index: 3, time: 1).milliamps == 0)
    }
}
