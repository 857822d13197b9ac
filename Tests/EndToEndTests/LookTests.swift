import Foundation
import Glibc
import RingModel
import Testing

/// Looks, ranges and zones through the built binary's socket, checked in the frames it sends.
@Suite(.serialized) struct LookTests {
    static let config = #"""
    {"looks": {"failed": {"gradient": "#ff2020", "effect": "pulse", "period": 1},
               "passed": {"gradient": "#20ff60"}},
     "rings": [{"name": "move", "leds": 24},
               {"name": "exercise", "leds": 16},
               {"name": "co2", "leds": 12, "range": [400, 2000], "track": "off", "highlight": 0, "shadow": 0,
                "zones": [{"upTo": 800, "gradient": "#20ff60"}, {"upTo": 1200, "gradient": "#ffa020"}, {"gradient": "#ff2020"}]}]}
    """#

    static func start(directory: String? = nil) throws -> DaemonProcess {
        let directory = directory ?? DaemonProcess.makeDirectory()
        let path = directory + "/looks.json"
        if !FileManager.default.fileExists(atPath: path) { try config.write(toFile: path, atomically: true, encoding: .utf8) }
        return try DaemonProcess(["--config", path, "--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin",
                                  "--max-milliamps", "100000"], directory: directory)
    }

    /// The move ring's first LED (full ring) in the last frame.
    static func moveHead(_ daemon: DaemonProcess) throws -> RGB8? { try daemon.frames().last?[0] }

    @Test func aLookRecoloursTheFramesAndAnIdleDaemonWithALookNeverWakes() throws {
        let daemon = try Self.start()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1"]).status == 0)
        #expect(try daemon.client(["look", "move", "passed"]).status == 0)
        #expect(daemon.waitUntil { (try? Self.moveHead(daemon)).map { $0.g > 150 && $0.r < 80 } == true },
                "the move ring did not turn green: \(String(describing: try? Self.moveHead(daemon)))")
        let get = try daemon.client(["get", "--json"])
        #expect(get.stdout.contains(#""look":"passed""#), "\(get.stdout)")

        // A look without an effect is still: the daemon settles and then never wakes.
        try DaemonPromiseTests.expectSettlesAndSleeps(daemon, "with a still look")
    }

    @Test func aPulseBreathesInTheFramesAndSurvivesARestart() throws {
        let daemon = try Self.start()
        #expect(try daemon.client(["set", "move=1"]).status == 0)
        #expect(try daemon.client(["look", "move", "failed"]).status == 0)
        usleep(1_500_000)
        // Over a 1 s pulse the red head goes from bright to dim and back: frames keep coming.
        let reds = try daemon.frames().suffix(30).map { Int($0[5].r) }
        #expect((reds.max() ?? 0) > 150 && (reds.min() ?? 255) * 2 < (reds.max() ?? 0), "\(reds) of \(String(describing: try? daemon.frames().count))")
        #expect(try daemon.client(["look", "move", "sparkly"]).status == 65)
        #expect(daemon.waitUntil { ((try? String(contentsOfFile: daemon.state, encoding: .utf8)) ?? "").contains(#""move":"failed""#) })
        daemon.send(SIGKILL)
        _ = daemon.waitForExit()
        let second = try Self.start(directory: daemon.directory)
        defer { second.cleanUp() }
        #expect(try second.client(["get", "--json"]).stdout.contains(#""look":"failed""#))
        #expect(try second.client(["look", "move", "default"]).status == 0)
        #expect(!(try second.client(["get", "--json"]).stdout.contains(#""look""#)))
    }

    @Test func rangesAndZonesInTheFrames() throws {
        let daemon = try Self.start()
        defer { daemon.cleanUp() }
        // 1000 ppm: (1000 − 400) / 1600 of a lap, in the orange zone.
        #expect(try daemon.client(["set", "co2=1000"]).status == 0)
        #expect(daemon.waitUntil { (try? daemon.rings()["co2"]?.target) == 0.375 })
        func co2Head() -> RGB8? { (try? daemon.frames())?.last?[40] }
        func isOrange(_ c: RGB8?) -> Bool { guard let c else { return false }; return c.r > 200 && c.g > 80 && c.g < 200 }
        func isRed(_ c: RGB8?) -> Bool { guard let c else { return false }; return c.r > 200 && c.g < 80 }
        #expect(daemon.waitUntil { isOrange(co2Head()) }, "\(String(describing: co2Head()))")
        let frame: [RGB8] = try #require(daemon.frames().last)
        let lit = frame[40...].filter { (c: RGB8) -> Bool in Int(c.r) + Int(c.g) + Int(c.b) > 30 }.count
        #expect(lit == 5, "0.375 of 12 LEDs is 4.5: five lit")
        // 1500 ppm: red.
        #expect(try daemon.client(["set", "co2=1500"]).status == 0)
        #expect(daemon.waitUntil { isRed(co2Head()) }, "\(String(describing: co2Head()))")
    }
}
