import Foundation
import Glibc
import Testing

/// The daemon's two headline promises, checked on the built binary from the outside, so no change
/// inside it can make them pass by accident: an idle daemon never wakes, and frames never come
/// faster than the wire can carry them. Each bound is one-sided (a slow machine only makes the
/// numbers smaller), so neither can fail because the box is busy.
@Suite(.serialized) struct DaemonPromiseTests {
    /// Context switches of every thread of `pid` (`/proc/PID/task/*/status`): a thread that sleeps
    /// in `poll` with no timeout adds none; any timer, however long, adds at least one.
    static func contextSwitches(of pid: Int32) -> Int? {
        let taskDirectory = "/proc/\(pid)/task"
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: taskDirectory) else { return nil }
        var total = 0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "\(taskDirectory)/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                total += Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }

    @Test func anIdleDaemonNeverWakes() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        // A jump (no transition) and a ring that was spinning and stopped: after the last frame and
        // any dithering refresh, nothing is left to do.
        #expect(try daemon.client(["spin", "stand"]).status == 0)
        #expect(try daemon.client(["set", "move=0.5", "exercise=130%"]).status == 0)
        #expect(try daemon.client(["stop", "stand"]).status == 0)
        try Self.expectSettlesAndSleeps(daemon, "after the rings stood still")
        #expect(daemon.process.isRunning)
    }

    /// A ring's fade to off is an animation that ends: afterwards the daemon sleeps again.
    @Test func aRingFadedOutLetsTheDaemonSleep() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=0.5"]).status == 0)
        #expect(try daemon.client(["power", "off", "move", "--duration", "0.5"]).status == 0)
        try Self.expectSettlesAndSleeps(daemon, "after a ring faded out")
    }

    /// Sources are deadlines of the poll loop: between a file's reads and a command's runs (a
    /// minute apart here) the daemon sleeps, once the first read and run have been taken.
    @Test func aDaemonWithSourcesSleepsBetweenReads() throws {
        let directory = DaemonProcess.makeDirectory()
        let file = directory + "/level"
        try "40".write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(config: """
        {"rings": [{"name": "tank", "leds": 16}, {"name": "disk", "leds": 12}],
         "sources": [{"ring": "tank", "file": "\(file)", "every": 60, "range": [0, 100]},
                     {"ring": "disk", "command": ["echo", "25%"], "every": 60}],
         "output": {"driver": "apa102-spi", "dumpWire": "/dev/null"}}
        """, directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? daemon.rings()).map { $0["tank"]?.target == 0.4 && $0["disk"]?.target == 0.25 } == true },
                "\(daemon.stderr)")
        try Self.expectSettlesAndSleeps(daemon, "between a file's reads and a command's runs")
    }

    /// The daemon settles (a whole second without a context switch; bounded: one that wakes
    /// every second or faster never settles, and fails here), then does nothing at all for three
    /// more seconds. `when` says in the failure what it was left with.
    static func expectSettlesAndSleeps(_ daemon: DaemonProcess, _ when: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pid = daemon.process.pid
        var previous = contextSwitches(of: pid)
        let settled = daemon.waitUntil(timeout: 20) {
            usleep(1_000_000)
            let now = contextSwitches(of: pid)
            defer { previous = now }
            return now != nil && now == previous
        }
        #expect(settled, "the daemon kept waking for 20 s \(when)", sourceLocation: sourceLocation)
        let before = try #require(contextSwitches(of: pid), sourceLocation: sourceLocation)
        usleep(3_000_000)
        let after = try #require(contextSwitches(of: pid), sourceLocation: sourceLocation)
        #expect(after == before, "an idle daemon woke \(after - before) times in 3 s \(when)", sourceLocation: sourceLocation)
    }

    @Test func framesNeverComeFasterThanTheWireCarriesThem() throws {
        // 1024 WS2812 LEDs: 24 bits each, and no accepted SPI clock makes a WS2812 bit shorter
        // than 1.0 µs (the encoder refuses faster clocks), so a frame holds the wire for at least
        // 24.6 ms: at most ~41 frames a second, whatever --fps asks (240 here).
        let directory = DaemonProcess.makeDirectory()
        let config = directory + "/long.json"
        try #"{"rings": [{"name": "long", "leds": 1024}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--driver", "ws2812-spi", "--dump-wire", directory + "/wire.bin",
                                        "--fps", "240", "--max-milliamps", "100000"], directory: directory)
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["spin", "long"]).status == 0)

        func framesSent() throws -> Int {
            let reply = try daemon.client(["status", "--json"])
            guard reply.status == 0,
                  let object = try? JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any],
                  let sent = object["framesSent"] as? Int else {
                throw DaemonProcess.Failure(description: "status (exit \(reply.status)) without framesSent: \(reply.stdout) \(reply.stderr); daemon: \(daemon.stderr.suffix(600))")
            }
            return sent
        }
        var start = timespec(), end = timespec()
        let first = try framesSent()
        clock_gettime(CLOCK_MONOTONIC, &start)
        usleep(2_000_000)
        let last = try framesSent()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        let shortestFrame = 1024.0 * 24 * 1.0e-6
        let ceiling = Int(seconds / shortestFrame) + 2
        #expect(last - first > 0, "the spinner sent no frames")
        #expect(last - first <= ceiling,
                "\(last - first) frames in \(seconds) s: faster than the wire (at most \(ceiling))")
    }

    /// The one-shot command on a driver keeps the same promise: `--realtime` into a dump file paces
    /// as a device would, and no two frames come closer than a 1024-LED frame takes on the wire,
    /// whatever `--fps` asks. Frames are counted in the dump (each frame is the same length).
    @Test func theOneShotNeverOutrunsTheWireEither() throws {
        let directory = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let common = ["--driver", "ws2812-spi", "--rings", "long:1024", "--max-milliamps", "100000"]
        let one = try LedringProcess.run(common + ["--dump-wire", directory + "/one.bin", "--frames", "1", "--set", "long=1"])
        #expect(one.status == 0, "\(one.stderr)")
        let frameBytes = try #require(try FileManager.default.attributesOfItem(atPath: directory + "/one.bin")[.size] as? Int)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let run = try LedringProcess.run(common + ["--dump-wire", directory + "/wire.bin", "--realtime", "--fps", "240",
                                                   "--frames", "60", "--spin", "long"])
        clock_gettime(CLOCK_MONOTONIC, &end)
        #expect(run.status == 0, "\(run.stderr)")
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: directory + "/wire.bin")[.size] as? Int)
        #expect(bytes == 60 * frameBytes, "\(bytes) bytes are not 60 frames of \(frameBytes)")
        // 60 frames, the first at once: 59 gaps of at least 24.6 ms each.
        let shortestFrame = 1024.0 * 24 * 1.0e-6
        #expect(seconds >= 59 * shortestFrame, "60 frames in \(seconds) s: faster than the wire (at least \(59 * shortestFrame) s)")
    }

    /// An hour's timer on the 24-LED ring changes one LED level every 0.59 s: the daemon sends a
    /// few frames a second, not its full rate (60 fps would be about 120 in the two seconds). The
    /// bound is one-sided the other way too: a busy machine only sends fewer.
    @Test func aLongTimerSendsFramesOnlyAsOftenAsItsRingChanges() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["timer", "move", "1h"]).status == 0)
        usleep(300_000)
        let before = try daemon.frames().count
        usleep(2_000_000)
        let sent = try daemon.frames().count - before
        #expect(sent <= 12, "\(sent) frames in 2 s for a ring that changes every 0.59 s")
        // …and it does go on: the ring drains.
        #expect(daemon.waitUntil { ((try? daemon.frames().count) ?? 0) > before + sent })
    }

    @Test func aStateThatCannotBeWrittenDoesNotStopTheDaemon() throws {
        // The state's directory is a regular file: every save fails (ENOTDIR), as on a read-only
        // or full disk; the daemon says so, keeps serving, and exits cleanly.
        let directory = DaemonProcess.makeDirectory()
        try "not a directory\n".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin",
                                        "--state", directory + "/file/state.json"], directory: directory)
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=0.5"]).status == 0)
        #expect(daemon.waitUntil(timeout: 10) { daemon.stderr.contains("cannot save the state") })
        #expect(try daemon.client(["set", "move=0.7"]).status == 0)
        #expect(try daemon.rings()["move"]?.target == 0.7)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }
}
