import Foundation
import Glibc
import RingModel
import RingRender
import Testing
import LEDRingNet
import LEDRingNetTesting

/// End-to-end: `ledring run` on the APA102 dump driver with a temporary socket and state file,
/// driven by the client commands and raw socket connections. Serialized, to go easy on a shared box.
@Suite(.serialized) struct DaemonTests {
    /// The move ring's LEDs (the first 24 on the chain) that are clearly lit, not just track.
    static func litMoveLEDs(_ frame: [RGB8]) -> Int {
        frame.prefix(24).filter { Int($0.r) + Int($0.g) + Int($0.b) > 60 }.count
    }

    @Test func setGetSpinStopResetBrightnessAndStatusRoundTrip() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let set = try daemon.client(["set", "move=0.8", "stand=45%"])
        #expect(set.status == 0)
        #expect(set.stdout.contains("move     80.0 % (target 80.0 %)"))
        #expect(set.stdout.contains("stand    45.0 % (target 45.0 %)"))

        let get = try daemon.client(["get"])
        #expect(get.status == 0 && get.stdout == set.stdout)

        #expect(try daemon.client(["spin", "stand"]).stdout.contains("stand    spinning (target 45.0 %)"))
        #expect(try daemon.rings()["stand"]?.spinning == true)
        #expect(try daemon.client(["stop", "stand"]).status == 0)
        #expect(try daemon.rings()["stand"]?.spinning == false)

        #expect(try daemon.client(["brightness", "50%"]).stdout.contains("brightness 50.0 %"))
        let status = try daemon.client(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("driver: apa102-spi"))
        #expect(status.stdout.contains("leds: 52"))
        #expect(status.stdout.contains("errors: 0"))
        #expect(status.stdout.contains("estimatedMilliamps: "))

        #expect(try daemon.client(["reset", "--duration", "0"]).status == 0)
        #expect(try daemon.rings().values.allSatisfy { $0.shown == 0 && $0.target == 0 })
    }

    @Test func clientErrorsSayWhatIsWrongAndExit65Or69() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let unknown = try daemon.client(["set", "nope=1"])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no ring called \"nope\"; the rings are move, exercise, stand"))
        let bad = try daemon.client(["set", "move=nan"])
        #expect(bad.status == 64)
        let missing = try LedringProcess.run(["get", "--socket", daemon.directory + "/absent.sock"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("ledring run"))
    }

    @Test func transitionsAreAnimatedInTheFrames() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1", "--duration", "1.5", "--curve", "linear"]).status == 0)
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.shown) == 1 })
        // The frame after the transition's end is sent shortly after the value settles.
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(Self.litMoveLEDs)) == 24 })
        let lit = try daemon.frames().map(Self.litMoveLEDs)
        #expect(lit.first == 0)
        #expect(lit.last == 24)
        #expect(lit.contains { $0 > 0 && $0 < 24 }, "no frame between empty and full: \(lit)")
        #expect(zip(lit, lit.dropFirst()).allSatisfy { $0 <= $1 }, "\(lit)")
        // Once still, no more frames are sent. The last frames may still be on their way when the
        // full ring shows (the daemon refreshes a dithered frame after the value settles), so wait
        // for the count to stand for half a second first (bounded: a daemon that never stops
        // sending fails here).
        var previous = -1
        #expect(daemon.waitUntil {
            usleep(500_000)
            let now = (try? daemon.frames().count) ?? -1
            defer { previous = now }
            return now == previous
        }, "frames kept coming after the transition ended")
        let count = try daemon.frames().count
        #expect(try daemon.client(["get"]).status == 0)
        usleep(200_000)
        #expect(try daemon.frames().count == count, "a get sent a frame")
    }

    @Test func aFailingDeviceIsReportedAndRetriedWhileTheSocketStaysUp() throws {
        // /dev/full opens but refuses every write (ENOSPC), like a device that keeps failing.
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", "/dev/full"])
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1"]).status == 0)
        // The first retry re-opens the device (it is there) and the next frame fails again.
        #expect(daemon.waitUntil { daemon.stderr.components(separatedBy: "retrying in").count > 2 })
        let status = try daemon.client(["status", "--json"])
        #expect(status.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(((report?["errors"] as? Int) ?? 0) >= 2)
        #expect((report?["lastError"] as? String)?.contains("/dev/full") == true)
        #expect(daemon.stderr.contains("retrying in 0.5 s") && daemon.stderr.contains("retrying in 1 s"))
        #expect(try daemon.rings()["move"]?.target == 1)
    }

    @Test func aRestartRestoresTheValues() throws {
        let first = try DaemonProcess()
        #expect(try first.client(["set", "move=0.8", "exercise=1.3"]).status == 0)
        first.send(SIGTERM)
        #expect(first.waitForExit() == 0)
        let second = try DaemonProcess(directory: first.directory)
        defer { second.cleanUp() }
        let rings = try second.rings()
        #expect(rings["move"]?.shown == 0.8 && rings["move"]?.target == 0.8)
        #expect(rings["exercise"]?.target == 1.3)
    }

    @Test func killDashNineLosesNothingOnceTheStateIsWritten() throws {
        let first = try DaemonProcess()
        #expect(try first.client(["set", "stand=0.3"]).status == 0)
        // Writes are debounced to a few a second; wait for this one, then pull the plug.
        #expect(first.waitUntil { ((try? String(contentsOfFile: first.state, encoding: .utf8)) ?? "").contains("\"stand\":0.3") })
        first.send(SIGKILL)
        _ = first.waitForExit()
        // The socket file is left behind by a killed daemon: the next one replaces it.
        #expect(FileManager.default.fileExists(atPath: first.socket))
        let second = try DaemonProcess(directory: first.directory)
        defer { second.cleanUp() }
        #expect(try second.rings()["stand"]?.target == 0.3)
    }

    @Test func aCorruptStateFileIsSetAsideWithAWarning() throws {
        let directory = DaemonProcess.makeDirectory()
        try "{not json".write(toFile: directory + "/state.json", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.stderr.contains("state file \(daemon.state): not a ledring state file"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains { $0.hasPrefix("state.json.corrupt-") })
        #expect(try daemon.rings()["move"]?.target == 0)
    }

    @Test func theSupplyBudgetHoldsAndStatusReportsTheEstimate() throws {
        let directory = DaemonProcess.makeDirectory()
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin",
                                        "--max-milliamps", "200"], directory: directory)
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1", "exercise=1", "stand=1"]).status == 0)
        // The values change at once; the status describes the last frame sent, which follows a
        // moment later (bounded: a limiter that never scales fails here).
        func status() -> [String: Any]? {
            guard let reply = try? daemon.client(["status", "--json"]) else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(reply.stdout.utf8))) as? [String: Any]
        }
        #expect(daemon.waitUntil { (status()?["limitScale"] as? Double ?? 1) < 1 }, "\(String(describing: status()))")
        let object = try #require(status())
        let estimate = try #require(object["estimatedMilliamps"] as? Double)
        #expect(estimate > 0 && estimate <= 200)
        #expect(object["maxMilliamps"] as? Int == 200)
        // The last frame on the wire, decoded, is within the budget by the chip's own model.
        let frame = try #require(try daemon.frames().last)
        var limiter = CurrentLimiter(model: .apa102, maxMilliamps: 200)
        limiter.outputs = []
        #expect(limiter.estimate(frame) <= 200)
    }

    /// A budget the chips' idle current alone takes (52 LEDs at 1 mA against 50 mA) darkens every
    /// frame: said once, at start, with the fix, by the daemon and the one-shot alike, not once a
    /// frame and not never.
    @Test func aBudgetTooSmallToLightAnyLEDIsSaidOnceAtStart() throws {
        let directory = DaemonProcess.makeDirectory()
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin",
                                        "--max-milliamps", "50"], directory: directory)
        defer { daemon.cleanUp() }
        for value in ["0.3", "0.6", "0.9"] {
            #expect(try daemon.client(["set", "move=" + value]).status == 0)
        }
        #expect(daemon.waitUntil { (try? daemon.frames().count) ?? 0 >= 2 })
        #expect(try daemon.frames().allSatisfy { $0.allSatisfy { $0 == .black } })
        let said = daemon.stderr.components(separatedBy: "the LEDs stay dark: their idle current alone (52 mA").count - 1
        #expect(said == 1, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("raise maxMilliamps (--max-milliamps) above 52"))

        let oneShot = try LedringProcess.run(["--simulate", "--format", "json", "--max-milliamps", "50", "--set", "move=0.5"])
        #expect(oneShot.status == 0)
        #expect(oneShot.stderr.components(separatedBy: "the LEDs stay dark").count - 1 == 1, "\(oneShot.stderr)")
        let lit = try LedringProcess.run(["--simulate", "--format", "json", "--max-milliamps", "500", "--set", "move=0.5"])
        #expect(!lit.stderr.contains("stay dark"), "\(lit.stderr)")
    }

    @Test func sigtermSendsABlankFrameRemovesTheSocketAndExits0() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=1", "stand=0.5"]).status == 0)
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(Self.litMoveLEDs)) == 24 })
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        let last = try #require(try daemon.frames().last)
        #expect(last.allSatisfy { $0 == .black })
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
        #expect(daemon.stderr.contains("stopping on SIGTERM"))
    }

    @Test func sighupWithABadConfigKeepsTheOldOneAndAGoodOneKeepsValuesByName() throws {
        let directory = DaemonProcess.makeDirectory()
        let config = directory + "/config.json"
        func write(_ rings: String) throws {
            try """
            {"rings": \(rings), "output": {"driver": "apa102-spi", "dumpWire": "\(directory)/wire.bin"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        }
        try write(#"[{"name": "a", "leds": 8}, {"name": "b", "leds": 8}]"#)
        let daemon = try DaemonProcess(["--config", config], directory: directory)
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "a=0.5", "b=0.25"]).status == 0)

        try write(##"[{"name": "a", "leds": 0}, {"name": "b", "leds": 8, "colour": "#ff0000"}]"##)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reload rejected") })
        #expect(daemon.stderr.contains("rings[0].leds: must be 1…1024, got 0"))
        #expect(daemon.stderr.contains("rings[1].colour: unknown key"))
        let kept = try daemon.rings()
        #expect(Set(kept.keys) == ["a", "b"] && kept["a"]?.target == 0.5)

        try write(#"[{"name": "b", "leds": 8}, {"name": "c", "leds": 4}]"#)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reloaded") })
        let reloaded = try daemon.rings()
        #expect(Set(reloaded.keys) == ["b", "c"])
        #expect(reloaded["b"]?.target == 0.25 && reloaded["c"]?.target == 0)
        // Frames follow the new chain of 12 LEDs.
        #expect(daemon.waitUntil { ((try? Data(contentsOf: URL(fileURLWithPath: daemon.dump)))?.count ?? 0) > 0 })
    }

    /// The brightness in `ledring get --json`.
    static func brightness(_ daemon: DaemonProcess) throws -> Double? {
        let line = try daemon.client(["get", "--json"]).stdout.split(separator: "\n").first.map(String.init) ?? ""
        return (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["brightness"] as? Double
    }

    /// The command line's colour options lie over the config file's, at start and after every
    /// reload; without one, an edited file's brightness applies.
    @Test(arguments: [true, false])
    func theCommandLinesBrightnessStaysOverTheFileAcrossAReload(fromTheCommandLine: Bool) throws {
        let directory = DaemonProcess.makeDirectory()
        let config = directory + "/config.json"
        func write(brightness: Double) throws {
            try """
            {"rings": [{"name": "a", "leds": 8}], "brightness": \(brightness),
             "output": {"driver": "apa102-spi", "dumpWire": "\(directory)/wire.bin"}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        }
        try write(brightness: 0.2)
        let daemon = try DaemonProcess(["--config", config] + (fromTheCommandLine ? ["--brightness", "0.5"] : []),
                                       directory: directory)
        defer { daemon.cleanUp() }
        #expect(try Self.brightness(daemon) == (fromTheCommandLine ? 0.5 : 0.2))
        try write(brightness: 0.3)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reloaded") }, "\(daemon.stderr)")
        #expect(try Self.brightness(daemon) == (fromTheCommandLine ? 0.5 : 0.3))
    }

    @Test func malformedAndOversizedRequestsGetErrorsAndTheConnectionStaysUp() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let connection = try SocketConnection(path: daemon.socket)
        let nonsense = try connection.request("nonsense")
        #expect(nonsense["ok"] as? Bool == false)
        #expect((nonsense["error"] as? String)?.contains("unknown verb") == true)
        let huge = try connection.request(String(repeating: "x", count: 70_000))
        #expect((huge["error"] as? String)?.contains("longer than 65536 bytes") == true)
        #expect(try connection.request(#"{"verb":"set","rings":{"move":1e300}}"#)["ok"] as? Bool == false)
        #expect(try connection.request("set move nan")["ok"] as? Bool == false)
        #expect(try connection.request("{\"verb\":")["ok"] as? Bool == false)
        #expect(try connection.request(String(decoding: [0xff, 0xfe, 0x00, 0x41], as: UTF8.self))["ok"] as? Bool == false)
        let good = try connection.request("set move 0.4")
        #expect(good["ok"] as? Bool == true)
        #expect(try daemon.rings()["move"]?.target == 0.4)
        // Issue 28: a blank line got no reply, so a client counting replies waited forever.
        for blank in ["", "  \t "] {
            let reply = try connection.request(blank)
            #expect(reply["ok"] as? Bool == false && (reply["error"] as? String)?.hasPrefix("empty request") == true, "\(reply)")
        }
        #expect(try connection.request("get")["ok"] as? Bool == true, "in step after the blank lines")
    }

    @Test func manyClientsAtOnceAndABoundOnHowMany() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        // The start-up probe's connection must be gone before counting: only the status client is left.
        #expect(daemon.waitUntil { (try? daemon.client(["status", "--json"]).stdout.contains("\"clients\":1,")) == true })
        var connections: [SocketConnection] = []
        for _ in 0..<32 { connections.append(try SocketConnection(path: daemon.socket)) }
        // Everyone sends before anyone reads: the daemon answers each in turn.
        for (i, connection) in connections.enumerated() {
            try connection.send("set move \(Double(i) / 100)\n")
        }
        for connection in connections {
            #expect(connection.readLine().map { $0.hasPrefix("{\"ok\":true") } == true)
        }
        let extra = try SocketConnection(path: daemon.socket)
        #expect(extra.readLine()?.contains("too many clients") == true)
        connections.removeAll()
        #expect(daemon.waitUntil { (try? daemon.client(["get"]).status) == 0 })
    }

    @Test func aFloodOfRequestsCollapsesIntoTheLatestValue() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let connection = try SocketConnection(path: daemon.socket)
        let count = 2000
        var text = ""
        for k in 0..<count { text += "set move \(Double(k % 100) / 100) duration 0.5\n" }
        try connection.send(text)
        var answered = 0
        while answered < count, let line = connection.readLine() {
            if line.hasPrefix("{\"ok\":true") { answered += 1 }
        }
        #expect(answered == count)
        #expect(try daemon.rings()["move"]?.target == Double((count - 1) % 100) / 100)
    }

    /// `ledring feed` follows a pipe: each number moves the ring, junk is said and changes
    /// nothing, the end of input leaves the last value; a missing ring or daemon fails at once.
    @Test func feedFollowsAPipe() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let feed = try ChildProcess(LedringProcess.executable.path, ["feed", "move", "--range", "0:200", "--socket", daemon.socket],
                                    stdin: .pipe)
        feed.write("20\n")
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.target) == 0.1 })
        feed.write("junk\n150\n")
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.target) == 0.75 })
        feed.write("not a number\n")
        feed.write("100")   // the last line needs no newline
        let result = try feed.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped: move \"junk\": not a number") && result.stderr.contains("\"not a number\""), "\(result.stderr)")
        #expect(try daemon.rings()["move"]?.target == 0.5)
        let unknown = try LedringProcess.run(["feed", "nope", "--socket", daemon.socket])
        #expect(unknown.status == 65 && unknown.stderr.contains("no ring called \"nope\""), "\(unknown.stderr)")
        let absent = try LedringProcess.run(["feed", "move", "--socket", daemon.directory + "/absent.sock"])
        #expect(absent.status == 69, "\(absent.stderr)")
    }

    /// A file source feeds its ring; a file that goes away turns the ring stale (the spinner)
    /// and its return brings the value back.
    @Test func aFileSourceFeedsARingAndGoesStale() throws {
        let directory = DaemonProcess.makeDirectory()
        let file = directory + "/level"
        try "25\n".write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(config: """
        {"rings": [{"name": "tank", "leds": 16}],
         "sources": [{"ring": "tank", "file": "\(file)", "every": 0.2, "range": [0, 100], "stale": 1.5}],
         "output": {"driver": "apa102-spi", "dumpWire": "\(directory)/wire.bin"}}
        """, directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? daemon.rings()["tank"]?.target) == 0.25 }, "\(daemon.stderr)")
        try "level: 75 %".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil { (try? daemon.rings()["tank"]?.target) == 0.75 }, "\(daemon.stderr)")
        try FileManager.default.removeItem(atPath: file)
        #expect(daemon.waitUntil { (try? daemon.rings()["tank"]?.spinning) == true }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("source \(file) (ring tank): cannot read it"))
        #expect(daemon.stderr.contains("ring tank shows the spinner until one comes"))
        try "60".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil { (try? daemon.rings()["tank"]).map { !$0.spinning && $0.target == 0.6 } == true }, "\(daemon.stderr)")
    }

    /// A command source feeds its ring from what the program prints; junk and a failing
    /// program change nothing and are said once each, with the program's own words; quiet for
    /// `stale` seconds is the spinner, and the next good run brings the value back.
    @Test func aCommandSourceFeedsARing() throws {
        let directory = DaemonProcess.makeDirectory()
        let file = directory + "/used"
        try "30\n".write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(config: """
        {"rings": [{"name": "disk", "leds": 16}],
         "sources": [{"ring": "disk", "command": ["sh", "-c", "cat \(file)"], "every": 0.2, "range": [0, 100], "stale": 1.5}],
         "output": {"driver": "apa102-spi", "dumpWire": "\(directory)/wire.bin"}}
        """, directory: directory)
        defer { daemon.cleanUp() }
        func disk() -> (shown: Double, target: Double, spinning: Bool)? { (try? daemon.rings())?["disk"] }
        #expect(daemon.waitUntil { disk()?.target == 0.3 }, "\(daemon.stderr)")
        try "no numbers here".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil { daemon.stderr.contains("source command sh -c cat \(file) (ring disk): has no number in it") }, "\(daemon.stderr)")
        #expect(disk()?.target == 0.3)
        try FileManager.default.removeItem(atPath: file)
        #expect(daemon.waitUntil { daemon.stderr.contains("(ring disk): exited with status 1: cat: \(file): No such file or directory") },
                "\(daemon.stderr)")
        #expect(daemon.waitUntil { disk()?.spinning == true }, "\(daemon.stderr)")
        let said = daemon.stderr.components(separatedBy: "exited with status 1").count - 1
        #expect(said == 1, "a failure repeated every 0.2 s is said once, not \(said) times")
        try "80".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil { disk().map { !$0.spinning && $0.target == 0.8 } == true }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("source command sh -c cat \(file): values again"))
    }

    /// `ledring power off RING` darkens that ring only, `get` says so, and the state file keeps
    /// it across a restart; `power on` gives back the value it kept.
    @Test func aRingSwitchedOffStaysOffAcrossARestart() throws {
        let first = try DaemonProcess()
        #expect(try first.client(["set", "move=0.5", "stand=1"]).status == 0)
        let off = try first.client(["power", "off", "stand", "--duration", "0.2"])
        #expect(off.status == 0 && off.stdout.contains("stand    100.0 % (target 100.0 %) off"), "\(off.stdout) \(off.stderr)")
        #expect(try first.client(["power", "sideways"]).status == 64)
        first.send(SIGTERM)
        #expect(first.waitForExit() == 0)
        let second = try DaemonProcess(directory: first.directory)
        defer { second.cleanUp() }
        #expect(try second.client(["get"]).stdout.contains("stand    100.0 % (target 100.0 %) off"))
        let on = try second.client(["power", "on", "stand"])
        #expect(on.status == 0 && on.stdout.contains("stand    100.0 % (target 100.0 %)\n"), "\(on.stdout)")
    }

    /// Issue 28: every LED off was forgotten on a restart, so a reboot at night lit them.
    @Test func everyLEDOffStaysOffAcrossARestart() throws {
        let first = try DaemonProcess()
        #expect(try first.client(["set", "move=0.5", "stand=1"]).status == 0)
        let off = try first.client(["power", "off"])
        #expect(off.status == 0 && off.stdout.contains("lights off (ledring power on lights them)"), "\(off.stdout) \(off.stderr)")
        #expect(first.waitUntil { ((try? String(contentsOfFile: first.state, encoding: .utf8)) ?? "").contains(#""power":false"#) })
        first.send(SIGTERM)
        #expect(first.waitForExit() == 0)
        try? FileManager.default.removeItem(atPath: first.dump)
        let second = try DaemonProcess(directory: first.directory)
        defer { second.cleanUp() }
        // The socket listens before the start is logged, so the line may come a moment after.
        #expect(second.waitUntil { second.stderr.contains("lights off, as they were before the restart") }, "\(second.stderr)")
        let get = try second.client(["get"])
        #expect(get.stdout.contains("stand    100.0 % (target 100.0 %)") && get.stdout.contains("lights off"), "\(get.stdout)")
        #expect(second.waitUntil { (try? second.frames().last)?.allSatisfy { $0 == .black } == true }, "dark from the first frame")
        #expect(try second.frames().allSatisfy { $0.allSatisfy { $0 == .black } }, "not one lit frame after the restart")
        let on = try second.client(["power", "on"])
        #expect(on.status == 0 && !on.stdout.contains("lights off"), "\(on.stdout)")
        #expect(second.waitUntil { (try? second.frames().last)?.contains { $0 != .black } == true }, "lit again")
    }

    @Test func standardInputTakesTheSameRequests() throws {
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", "WIRE", "--stdin"].map {
            $0 == "WIRE" ? "/dev/null" : $0
        })
        defer { daemon.cleanUp() }
        daemon.process.write("set move 0.5\nbogus\n")
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.target) == 0.5 })
        #expect(daemon.waitUntil { daemon.stderr.contains("standard input line 2: {\"ok\":false") })
        daemon.process.closeInput()
        #expect(daemon.waitUntil { daemon.stderr.contains("standard input closed") })
        #expect(try daemon.client(["get"]).status == 0)
    }

    @Test func simulatePrintsOneJSONFramePerChange() throws {
        let daemon = try DaemonProcess(["--simulate", "--format", "json"])
        defer { daemon.cleanUp() }
        #expect(try daemon.client(["set", "move=0.5"]).status == 0)
        #expect(daemon.waitUntil { daemon.stdout.contains("\"name\":\"move\",\"progress\":0.5,") })
        // Each frame carries the power estimate `status` reports (it used to say 0.0 mA), and
        // its time rounded to milliseconds.
        let line = try #require(daemon.stdout.split(separator: "\n").last { $0.contains("\"progress\":0.5,") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let milliamps = try #require(object["milliamps"] as? Double)
        #expect(milliamps > 52, "52 LEDs idle at 1 mA each plus a lit half ring: \(milliamps) mA")
        let status = try daemon.client(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(abs((report["estimatedMilliamps"] as? Double ?? 0) - milliamps) < 0.1)
        let time = try #require(line.split(separator: ",").first { $0.hasPrefix("\"t\":") })
        #expect(time.count <= "\"t\":".count + 8, "frame time printed as \(time)")
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let second = try LedringProcess.run(["run", "--socket", daemon.socket, "--state", daemon.directory + "/other.json",
                                             "--driver", "apa102-spi", "--dump-wire", "/dev/null"])
        #expect(second.status == 69)
        #expect(second.stderr.contains("another ledring is already running"))
        #expect(try daemon.client(["get"]).status == 0)
    }

    @Test func runWithoutAnOutputIsAUsageError() throws {
        let result = try LedringProcess.run(["run", "--socket", "/tmp/lr-unused.sock", "--state", "/tmp/lr-unused.json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("choose an output"))
    }

    @Test func checkConfigListsEveryProblemAndExits78() throws {
        let directory = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/bad.json"
        try #"{"rings": [{"name": "move", "leds": 0}], "fps": -1, "colour": 1}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try LedringProcess.run(["check-config", file])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("rings[0].leds: must be 1…1024, got 0"))
        #expect(bad.stderr.contains("fps: must be 1…240, got -1"))
        #expect(bad.stderr.contains("colour: unknown key"))
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/config.json").path
        let good = try LedringProcess.run(["check-config", example])
        #expect(good.status == 0)
        #expect(good.stdout.contains("OK"))
    }

    /// The files a config names are read as `run` reads them at start: a config whose password
    /// or secret files are missing is refused here with run's own messages, not passed as OK
    /// for the service to exit 78 on.
    @Test func checkConfigReadsTheFilesTheConfigNames() throws {
        let directory = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/files.json"
        try """
        {"rings": [{"name": "move", "leds": 24}],
         "mqtt": {"host": "localhost", "username": "ledring", "passwordFile": "\(directory)/no-password",
                  "tls": {"caFile": "\(directory)/no-ca.pem"}},
         "http": {"tokenFile": "\(directory)/no-token",
                  "webhooks": {"github": {"secretFile": "\(directory)", "ring": "move"}}}}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let checked = try LedringProcess.run(["check-config", file])
        #expect(checked.status == 78, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stderr.contains("mqtt.passwordFile \(directory)/no-password: cannot be read"), "\(checked.stderr)")
        #expect(checked.stderr.contains("mqtt.tls.caFile \(directory)/no-ca.pem"), "\(checked.stderr)")
        #expect(checked.stderr.contains("\(directory)/no-token"), "\(checked.stderr)")
        #expect(checked.stderr.contains("http.webhooks.github.secretFile"), "\(checked.stderr)")
        #expect(!checked.stdout.contains("OK"))
        // What run says about the first of them is what check-config said.
        let run = try LedringProcess.run(["run", "--config", file, "--simulate", "--socket", directory + "/s.sock",
                                          "--state", directory + "/state.json"])
        #expect(run.status == 78)
        let tokenLine = checked.stderr.split(separator: "\n").first { $0.contains("no-token") }
            .flatMap { line in line.range(of: file + ": ").map { String(line[$0.upperBound...]) } }
        #expect(tokenLine.map { run.stderr.contains($0) } == true, "run: \(run.stderr) check-config: \(checked.stderr)")
        // With the files there, it passes.
        for name in ["no-password", "no-token", "secret"] { try "s3cret\n".write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: "\(directory)/no-ca.pem", atomically: true, encoding: .utf8)
        try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "\"secretFile\": \"\(directory)\"", with: "\"secretFile\": \"\(directory)/secret\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let fixed = try LedringProcess.run(["check-config", file])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }
}
