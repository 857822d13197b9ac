import Foundation
import Glibc
import LEDRingNet
import LEDRingNetTesting
import RingModel
import Testing

/// Looks, notifications, ranges and timers over MQTT end to end: a real Mosquitto broker, the
/// built `ledring run` with a config file holding rings, looks, the `mqtt` section and the APA102
/// dump output, commands published to the daemon's topics, and the frames on the wire checked
/// (as LookTests and NotifyTests do through the socket).
@Suite(.serialized) struct MQTTDaemonTests {
    /// The chain: move 0…23, exercise 24…39, co2 40…51 (a ranged ring in ppm, dark where unlit).
    static func config(broker: MosquittoBroker, directory: String) -> String {
        #"""
        {"looks": {"failed": {"gradient": "#ff2020", "effect": "pulse", "period": 1},
                   "passed": {"gradient": "#20ff60"},
                   "amber": {"gradient": "#ffa020"}},
         "rings": [{"name": "move", "leds": 24},
                   {"name": "exercise", "leds": 16},
                   {"name": "co2", "leds": 12, "range": [400, 2000], "track": "off", "highlight": 0, "shadow": 0}],
         "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
         "maxMilliamps": 100000,
         "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "discovery": false,
                  "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}}
        """#
    }

    /// A daemon on `broker`, connected and subscribed (so what is published from now on arrives).
    static func start(_ broker: MosquittoBroker) throws -> DaemonProcess {
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        try config(broker: broker, directory: directory).write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        guard daemon.waitUntil({ (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }) else {
            daemon.cleanUp()
            throw DaemonProcess.Failure(description: "not connected to the broker: \(daemon.stderr)")
        }
        return daemon
    }

    static func brightness(_ c: RGB8) -> Int { Int(c.r) + Int(c.g) + Int(c.b) }
    static func isGreen(_ c: RGB8?) -> Bool { c.map { $0.g > 150 && $0.r < 80 && $0.b < 120 } ?? false }
    static func isAmber(_ c: RGB8?) -> Bool { c.map { $0.r > 200 && $0.g > 80 && $0.g < 200 && $0.b < 80 } ?? false }
    static func isBlue(_ c: RGB8?) -> Bool { c.map { $0.b > 100 && $0.r < 40 && $0.g < 40 } ?? false }
    /// The LEDs of `range` in `frame` that are clearly lit (brighter than the dim track).
    static func lit(_ frame: [RGB8]?, _ range: Range<Int>) -> Int? {
        frame.map { f in f[range].filter { brightness($0) > 60 }.count }
    }
    static let move = 0..<24, exercise = 24..<40, co2 = 40..<52

    /// Home Assistant's JSON light command for one ring: its LEDs turn red, off goes dark, and
    /// a restarted daemon comes back with the ring off and red, and says so on its state topic.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aRingsHomeAssistantLightTurnsItRedAndOffAcrossARestart() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.start(broker)
        defer { daemon.cleanUp() }
        func last(_ d: DaemonProcess) -> [RGB8]? { try? d.frames().last }
        func isRed(_ c: RGB8) -> Bool { c.r > 150 && Int(c.g) * 3 < Int(c.r) && Int(c.b) * 3 < Int(c.r) }

        try broker.publish("ledring/e2e/move/set", "1")
        #expect(daemon.waitUntil { Self.lit(last(daemon), Self.move) == 24 }, "\(daemon.stderr)")
        #expect(last(daemon).map { !$0[Self.move].allSatisfy(isRed) } == true, "red before the command: the check would prove nothing")
        try broker.publish("ledring/e2e/move/light", #"{"state":"ON","color":{"r":255,"g":0,"b":0}}"#)
        #expect(daemon.waitUntil { last(daemon).map { $0[Self.move].allSatisfy(isRed) } == true },
                "not all red: \(String(describing: last(daemon)?[Self.move].map(\.hex))) \(daemon.stderr)")
        #expect(eventually { (try? broker.retained("ledring/e2e/move/state"))?.contains(#""color_mode":"rgb""#) == true })
        // A ring at 0 % turned ON in red is red on every LED, as Home Assistant shows it (it was
        // the empty fill's near-black track).
        try broker.publish("ledring/e2e/exercise/light", #"{"state":"ON","color":{"r":255,"g":0,"b":0}}"#)
        #expect(daemon.waitUntil { last(daemon).map { $0[Self.exercise].allSatisfy(isRed) } == true },
                "the idle ring is not all red: \(String(describing: last(daemon)?[Self.exercise].map(\.hex)))")

        try broker.publish("ledring/e2e/move/light", #"{"state":"OFF"}"#)
        #expect(daemon.waitUntil { last(daemon).map { $0[Self.move].allSatisfy { $0 == .black } } == true })

        // A restart keeps the ring off and red (the state file), and republishes its state.
        daemon.process.send(SIGTERM)
        _ = daemon.process.wait(timeout: 30)
        try broker.publish("ledring/e2e/move/state", "", retain: true)
        let again = try DaemonProcess(["--config", daemon.directory + "/config.json"], directory: daemon.directory)
        defer { again.cleanUp() }
        #expect(again.waitUntil { (try? NetworkTests.status(again)["mqtt"] as? Bool) == true }, "\(again.stderr)")
        #expect(eventually { (try? broker.retained("ledring/e2e/move/state")).map { $0.contains(#""state":"OFF""#) && $0.contains(##""look":"#ff0000""##) } == true },
                "\(String(describing: try? broker.retained("ledring/e2e/move/state")))")
        try broker.publish("ledring/e2e/move/light", "ON")
        #expect(again.waitUntil { last(again).map { $0[Self.move].allSatisfy(isRed) } == true },
                "not red again: \(String(describing: last(again)?[Self.move].map(\.hex))) \(again.stderr)")
    }

    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func looksOverMQTTRecolourTheFramesAndTheRetainedState() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.start(broker)
        defer { daemon.cleanUp() }
        func last() -> [RGB8]? { try? daemon.frames().last }

        try broker.publish("ledring/e2e/move/set", "1")
        #expect(daemon.waitUntil { Self.lit(last(), Self.move) == 24 }, "\(daemon.stderr)")
        #expect(!Self.isGreen(last()?[5]), "green before any look: the check below would prove nothing")

        // `failed` pulses: the red head breathes from bright to dim and back, frame after frame.
        try broker.publish("ledring/e2e/move/look", "failed")
        var reds: [Int] = []
        let breathes = daemon.waitUntil(timeout: 15) {
            reds = ((try? daemon.frames()) ?? []).suffix(30).map { Int($0[5].r) }
            return reds.count == 30 && (reds.max() ?? 0) > 150 && (reds.min() ?? 255) * 2 < (reds.max() ?? 0)
                && ((try? daemon.frames().last?[5]).map { $0.g < 80 } ?? false)
        }
        #expect(breathes, "the failed look did not pulse red: \(reds) \(daemon.stderr)")
        #expect(eventually { (try? broker.retained("ledring/e2e/move/state"))?.contains(#""look":"failed""#) == true })

        // `passed` turns every lit LED green, and the ring's retained state names it.
        try broker.publish("ledring/e2e/move/look", "passed")
        #expect(daemon.waitUntil { last().map { $0[Self.move].allSatisfy(Self.isGreen) } == true },
                "not all green: \(String(describing: last()?[Self.move].map(\.hex)))")
        #expect(try daemon.client(["get", "--json"]).stdout.contains(#""look":"passed""#))
        var state: String?
        #expect(eventually {
            state = try? broker.retained("ledring/e2e/move/state")
            return state?.contains(#""look":"passed""#) == true && state?.contains(#""percent":100"#) == true
        }, "retained state: \(state ?? "none")")
        #expect(try broker.retained("ledring/e2e/exercise/state")?.contains(#""look":"default""#) == true,
                "the other rings keep their own look")

        // An unknown look is refused and logged; nothing changes.
        try broker.publish("ledring/e2e/move/look", "sparkly")
        #expect(daemon.waitUntil(timeout: 10) { daemon.stderr.contains("ignored ledring/e2e/move/look") }, "\(daemon.stderr)")
        #expect(try daemon.client(["get", "--json"]).stdout.contains(#""look":"passed""#))
        #expect(daemon.process.isRunning)
    }

    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aRangedSetAndANotificationOverMQTTAndTheFrameBeforeComesBack() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.start(broker)
        defer { daemon.cleanUp() }
        func last() -> [RGB8]? { try? daemon.frames().last }

        // co2 in its own units: 1200 ppm is (1200 − 400) / 1600 = half a lap, 6 of its 12 LEDs.
        try broker.publish("ledring/e2e/co2/set", "1200")
        #expect(daemon.waitUntil { (try? daemon.rings()["co2"]?.target) == 0.5 }, "\(daemon.stderr)")
        #expect(daemon.waitUntil { Self.lit(last(), Self.co2) == 6 },
                "co2 at 1200 ppm: \(String(describing: last()?[Self.co2].map(\.hex)))")
        #expect(last().map { $0[Self.co2].prefix(6).allSatisfy { Self.brightness($0) > 60 } } == true, "the first half is lit")

        try broker.publish("ledring/e2e/move/set", "0.4")
        try broker.publish("ledring/e2e/exercise/set", "130%")
        // A still look unlike exercise's own green, so a restore that forgot it shows in the frame.
        try broker.publish("ledring/e2e/exercise/look", "amber")
        #expect(daemon.waitUntil { (try? daemon.rings()["exercise"]?.target) == 1.3 && Self.isAmber(last()?[30]) },
                "\(String(describing: last()?[Self.exercise].map(\.hex))) \(daemon.stderr)")
        let before = try NotifyTests.settledFrame(daemon)
        #expect(Self.lit(before, Self.move) == 10, "0.4 of 24 is 9.6: ten lit")

        // Every ring blue and full for 1.5 s, then exactly the frame from before.
        // 100 % is a full lap on every ring; a bare 1 would be 1 ppm on co2, an empty ring.
        try broker.publish("ledring/e2e/notify", "color #0000ff value 100% for 1.5s")
        let everyRing = [5, 30, 45, 51]
        // Looked for in every frame sent so far, so a slow poll on a loaded box cannot miss it.
        #expect(daemon.waitUntil(timeout: 10) {
            ((try? daemon.frames()) ?? []).contains { f in everyRing.allSatisfy { Self.isBlue(f[$0]) } }
        }, "the notification did not show on every ring: \(String(describing: last()?.map(\.hex))) \(daemon.stderr)")
        #expect(daemon.waitUntil(timeout: 10) { last().map { f in !everyRing.contains { Self.isBlue(f[$0]) } } == true },
                "the notification did not end")
        let after = try NotifyTests.settledFrame(daemon)
        let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(after == before, "the frame after the notification differs from the one before at LEDs \(differing)")
    }

    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aTimerStartedOverMQTTDrainsTheRingAndGetShowsTimeLeft() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.start(broker)
        defer { daemon.cleanUp() }
        func last() -> [RGB8]? { try? daemon.frames().last }
        func timerLeft() -> Double? {
            guard let reply = try? daemon.client(["get", "--json"]).stdout,
                  let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                  let rings = object["rings"] as? [[String: Any]] else { return nil }
            return rings.first { $0["name"] as? String == "exercise" }?["timerLeft"] as? Double
        }

        try broker.publish("ledring/e2e/exercise/timer", "5s then passed")
        var left: Double?
        #expect(daemon.waitUntil(timeout: 10) { left = timerLeft(); return left != nil }, "no timerLeft: \(daemon.stderr)")
        #expect(left.map { $0 > 0 && $0 <= 5 } == true, "\(String(describing: left)) s left of a 5 s timer")
        // Full at the start, then fewer lit LEDs as it drains: read from every frame sent, so a
        // slow poll cannot miss the middle (bounded waits, not timing).
        var lits: [Int] = []
        let drained = daemon.waitUntil(timeout: 15) {
            lits = ((try? daemon.frames()) ?? []).compactMap { Self.lit($0, Self.exercise) }
            guard let full = lits.firstIndex(where: { $0 >= 14 }) else { return false }
            return lits[full...].contains { $0 > 0 && $0 <= 10 }
        }
        #expect(drained, "the ring did not fill and then drain: \(lits)")
        let fromFull = lits.drop { $0 < 14 }
        #expect(zip(fromFull, fromFull.dropFirst()).allSatisfy { $1 <= $0 + 1 }, "lit LEDs rose while draining: \(lits)")
        if let later = timerLeft(), let left { #expect(later < left, "time left went from \(left) to \(later)") }
        // At the end: empty, in the `passed` look, no time left, and the retained state says so.
        // The look is a status, so the empty ring shows it on every LED (not a dark 0 %).
        #expect(daemon.waitUntil(timeout: 10) { (try? daemon.client(["get", "--json"]).stdout.contains(#""look":"passed""#)) == true })
        #expect(timerLeft() == nil)
        #expect(daemon.waitUntil { Self.lit(last(), Self.exercise) == 16 }, "\(String(describing: last()))")
        #expect(try daemon.client(["get", "--json"]).stdout.contains(#""name":"exercise","shown":0,"#))
        #expect(eventually { (try? broker.retained("ledring/e2e/exercise/state"))?.contains(#""look":"passed""#) == true })
    }

    /// OctoPrint's MQTT plugin, as the README's recipe configures it: a progress topic moves the
    /// print ring, an event topic (retained, as the plugin's are) switches its look, junk changes
    /// nothing. Staleness only while printing (issue 25): an idle printer after a failed print
    /// and a finished print stay in their looks (the LEDs green on every LED, though the ring is
    /// at 64 %), and a print whose progress stops coming turns to the spinner until it comes.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func octoPrintStyleSourcesDriveARing() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        let stale = 2.0
        try #"""
        {"looks": {"failed": {"gradient": "#ff2020"}, "done": {"gradient": "#20ff60"}},
         "rings": [{"name": "print", "leds": 24, "range": [0, 100]}],
         "sources": [{"ring": "print", "mqtt": "octoPrint/progress/printing", "value": "/progress", "stale": \#(stale)},
                     {"ring": "print", "mqtt": "octoPrint/event/#", "state": "/_event",
                      "looks": {"PrintFailed": "failed", "PrintDone": "done", "PrintStarted": "default"}}],
         "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
         "maxMilliamps": 100000,
         "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "discovery": false,
                  "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        // The last event, retained by the broker before the daemon starts (a daemon restarted
        // after a failed print): it arrives on subscribing, flagged retained, and counts.
        try broker.publish("octoPrint/event/PrintFailed", #"{"_event": "PrintFailed", "reason": "error"}"#, retain: true)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        func ring() -> (shown: Double, target: Double, spinning: Bool)? { (try? daemon.rings())?["print"] }
        func look() -> String? {
            guard let reply = try? daemon.client(["get", "--json"]).stdout,
                  let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                  let rings = object["rings"] as? [[String: Any]] else { return nil }
            return rings.first?["look"] as? String
        }
        #expect(daemon.waitUntil { look() == "failed" }, "the retained event did not count: \(daemon.stderr)")
        usleep(useconds_t((stale + 1) * 1_000_000))
        #expect(ring()?.spinning == false && look() == "failed", "an idle printer went stale: \(daemon.stderr)")

        // A print starts; a recorded stretch of the plugin's progress stream.
        try broker.publish("octoPrint/event/PrintStarted", #"{"_event": "PrintStarted"}"#)
        #expect(daemon.waitUntil { look() == nil }, "PrintStarted maps to the ring's own look")
        for (progress, expected) in [(3, 0.03), (27, 0.27), (64, 0.64)] {
            try broker.publish("octoPrint/progress/printing", #"{"location": "local", "path": "cube.gcode", "progress": \#(progress), "_timestamp": 1733000000}"#)
            #expect(daemon.waitUntil { ring()?.target == expected }, "progress \(progress): \(String(describing: ring())) \(daemon.stderr)")
        }
        // Junk on the topic is said and changes nothing.
        try broker.publish("octoPrint/progress/printing", "not json")
        #expect(daemon.waitUntil { daemon.stderr.contains("source mqtt octoPrint/progress/printing (ring print): is not JSON") })
        #expect(ring()?.target == 0.64)
        // Done: the look stays however long the printer is quiet, green on every LED.
        try broker.publish("octoPrint/event/PrintDone", #"{"_event": "PrintDone"}"#)
        #expect(daemon.waitUntil { look() == "done" }, "\(daemon.stderr)")
        try broker.publish("octoPrint/event/ZChange", #"{"_event": "ZChange", "new": 0.4}"#)
        usleep(useconds_t((stale + 1) * 1_000_000))
        #expect(ring()?.spinning == false && look() == "done", "a finished print went stale: \(daemon.stderr)")
        let last = try #require(try daemon.frames(ledCount: 24).last)
        #expect(last.allSatisfy { $0.g > 100 && $0.g > 2 * max($0.r, $0.b) }, "done is green on every LED: \(last.map(\.hex))")
        // Printing again and quiet for the stale time: the spinner; the next value stops it.
        try broker.publish("octoPrint/event/PrintStarted", #"{"_event": "PrintStarted"}"#)
        #expect(daemon.waitUntil { look() == nil })
        #expect(daemon.waitUntil { ring()?.spinning == true }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("ring print shows the spinner until one comes"))
        try broker.publish("octoPrint/progress/printing", #"{"progress": 100}"#)
        #expect(daemon.waitUntil { ring().map { !$0.spinning && $0.target == 1 } == true }, "\(String(describing: ring()))")
    }

    /// Issue 28: a command source's program, started while the daemon holds its broker
    /// connection, the control socket, the signal pipe and the wire, sees only its standard
    /// descriptors (and `ls`'s own, the directory it lists). It got the broker's TCP connection
    /// as fd 12, and a PUBLISH written there was ledring's.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aCommandSourceGetsNoneOfTheDaemonsDescriptors() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        let listing = directory + "/fds.txt"
        try #"""
        {"rings": [{"name": "a", "leds": 8}],
         "sources": [{"ring": "a", "command": ["sh", "-c", "ls -l /proc/self/fd > \#(listing).new && mv \#(listing).new \#(listing); echo 0.5"], "every": 0.5}],
         "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
         "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "discovery": false,
                  "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        // A listing made after the broker connection was up.
        try? FileManager.default.removeItem(atPath: listing)
        #expect(daemon.waitUntil { FileManager.default.fileExists(atPath: listing) }, "\(daemon.stderr)")
        let text = try String(contentsOfFile: listing, encoding: .utf8)
        // `ls -l` lines end "N -> target"; the first line is "total 0".
        let entries = text.split(separator: "\n").compactMap { line -> (Int, String)? in
            let words = line.split(separator: " ")
            guard let arrow = words.firstIndex(of: "->"), arrow > 0, let fd = Int(words[arrow - 1]) else { return nil }
            return (fd, words[(arrow + 1)...].joined(separator: " "))
        }
        #expect(entries.map(\.0) == [0, 1, 2, 3], "\(text)")
        #expect(!text.contains("socket:"), "\(text)")
        #expect(daemon.waitUntil { (try? daemon.rings()["a"]?.target) == 0.5 }, "\(daemon.stderr)")
    }

    /// Issue 28: a retained state word mapped to a notification showed it again after every
    /// restart (the broker replays retained messages on subscribing); its look still applies.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aRetainedStateShowsItsNotificationOnceNotAfterEveryRestart() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        try #"""
        {"rings": [{"name": "build", "leds": 8}], "looks": {"failed": {"gradient": "#ff0000"}},
         "sources": [{"ring": "build", "mqtt": "ci/state", "state": "/state", "looks": {"failed": "failed"},
                      "notify": {"failed": {"color": "#0000ff", "for": "1h", "key": "ci"}}}],
         "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
         "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "discovery": false,
                  "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        func notice(_ daemon: DaemonProcess) -> String? {
            guard let text = try? daemon.client(["get", "--json"]).stdout, text.contains("\"look\":\"failed\"") else { return nil }
            return text.contains("\"notice\"") ? "notice" : "none"
        }
        var daemon = try DaemonProcess(["--config", path], directory: directory)
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        try broker.publish("ci/state", #"{"state": "failed"}"#, retain: true)
        #expect(daemon.waitUntil { notice(daemon) == "notice" }, "live: the look and the notification \(daemon.stderr)")
        // The user has seen it and clears it; then the daemon restarts (a reboot, an upgrade).
        #expect(try daemon.client(["notify", "--clear", "--key", "ci"]).status == 0)
        #expect(notice(daemon) == "none")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        // The broker has replayed the retained word once the look is back.
        #expect(daemon.waitUntil { notice(daemon) != nil }, "\(daemon.stderr)")
        usleep(300_000)
        #expect(notice(daemon) == "none", "the retained word brought its notification back")
        try broker.publish("ci/state", #"{"state": "passed"}"#)
        try broker.publish("ci/state", #"{"state": "failed"}"#)
        #expect(daemon.waitUntil { notice(daemon) == "notice" }, "a live failure is news again \(daemon.stderr)")
    }

    /// A reload that moves an MQTT source to another place in `sources` (same topic, a file
    /// source put before it) must feed the ring the new config names, not the one at its old index.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aReloadThatMovesASourceFeedsTheRightRing() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        func write(_ sources: String) throws {
            try #"""
            {"rings": [{"name": "a", "leds": 8}, {"name": "b", "leds": 8}], "sources": \#(sources),
             "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
             "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "discovery": false,
                      "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write(#"[{"ring": "a", "mqtt": "lab/level"}]"#)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        try broker.publish("lab/level", "0.25")
        #expect(daemon.waitUntil { (try? daemon.rings()["a"]?.target) == 0.25 }, "\(daemon.stderr)")
        try write(#"[{"ring": "a", "file": "\#(directory)/absent", "every": 60}, {"ring": "b", "mqtt": "lab/level"}]"#)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reloaded") })
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        try broker.publish("lab/level", "0.75")
        #expect(daemon.waitUntil { (try? daemon.rings()["b"]?.target) == 0.75 }, "\(daemon.stderr)")
        #expect(try daemon.rings()["a"]?.target == 0.25, "the message went to the source now at its old index")
    }

    /// Home Assistant keeps no ghost: a ring taken out of the config (and a look, so the select
    /// of every ring changes) disappears from the broker after SIGHUP: its number, light and
    /// select discovery get empty retained payloads (its last state stays); the rings that stay keep theirs.
    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func aRingTakenOutOfTheConfigLeavesNoRetainedEntity() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        func write(rings: String) throws {
            try #"""
            {"looks": {"failed": {"gradient": "#ff2020"}},
             "rings": \#(rings),
             "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"},
             "mqtt": {"host": "127.0.0.1", "port": \#(broker.port), "device": "e2e", "reconnectMin": 1, "reconnectMax": 2}}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write(rings: #"[{"name": "move", "leds": 24}, {"name": "stand", "leds": 12}]"#)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        let standTopics = ["homeassistant/number/e2e_stand/config", "homeassistant/light/e2e_stand/config",
                           "homeassistant/select/e2e_stand_look/config"]
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "\(daemon.stderr)")
        let kept = ["homeassistant/number/e2e_move/config", "homeassistant/select/e2e_move_look/config", "ledring/e2e/move/state"]
        var retained: [String: String] = [:]
        #expect(eventually { retained = (try? broker.retainedMessages()) ?? [:]; return (standTopics + kept).allSatisfy { retained[$0] != nil } },
                "not all retained: \(retained.keys.sorted()) \(daemon.stderr)")
        try write(rings: #"[{"name": "move", "leds": 24}]"#)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reloaded") }, "\(daemon.stderr)")
        #expect(eventually { retained = (try? broker.retainedMessages()) ?? [:]; return standTopics.allSatisfy { retained[$0] == nil } },
                "still retained after the reload: \(standTopics.filter { retained[$0] != nil }) \(daemon.stderr)")
        #expect(kept.allSatisfy { retained[$0] != nil }, "the ring that stays keeps its entities: \(retained.keys.sorted())")
        #expect(daemon.waitUntil { daemon.stderr.contains("removed 3 Home Assistant entities the reloaded config no longer has") }, "\(daemon.stderr)")
    }

    /// The full build's one use of libmosquitto: a broker behind TLS. The daemon connects over
    /// TLS (trusting the test's CA), takes a `set` into its frames, and has libmosquitto loaded,
    /// which a config without `tls` never loads (NetworkTests).
    @Test(.enabled(if: MQTTBridge.isAvailable && (mosquittoInstalled || inCI),
                   "needs libmosquitto (`sudo apt install libmosquitto-dev`, rebuild), `mosquitto`, `mosquitto-clients`, `openssl`"))
    func aBrokerBehindTLSDrivesTheRings() throws {
        let ca = try ThrowawayCA()
        let broker = try MosquittoBroker(tls: .init(caFile: ca.certificate, server: try ca.server()))
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        let config = Self.config(broker: broker, directory: directory)
            .replacingOccurrences(of: #""keepalive": 5}"#, with: #""keepalive": 5, "tls": {"caFile": "\#(ca.certificate)"}}"#)
        #expect(config.contains(#""tls""#), "the config has no tls section: the test would prove nothing")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }, "not connected over TLS: \(daemon.stderr)")
        #expect(try NetworkTests.mapped("libmosquitto", in: daemon.process.pid), "connected over TLS without libmosquitto?")
        try broker.publish("ledring/e2e/move/set", "1")
        #expect(daemon.waitUntil { Self.lit(try? daemon.frames().last, Self.move) == 24 }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("over TLS"), "\(daemon.stderr)")
    }
}
