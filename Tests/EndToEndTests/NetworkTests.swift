import Foundation
import Glibc
import LEDRingNet
import LEDRingNetTesting
import RingModel
import Testing

/// Whether CI (which installs chromium and mosquitto) runs this: there a missing tool fails the
/// test instead of skipping it.
let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
let mosquittoInstalled = (try? MosquittoBroker.program("mosquitto", package: "mosquitto")) != nil

/// End-to-end: `ledring run` with `http` and `mqtt` config sections on the APA102 dump driver;
/// requests come over loopback HTTP, a real Mosquitto broker and headless Chromium, and the
/// frames that reach the dump file are decoded and checked.
@Suite(.serialized) struct NetworkTests {
    /// Starts a daemon whose config file holds `sections` (JSON members, e.g. `"http":{…}`).
    static func daemon(_ sections: String) throws -> DaemonProcess {
        let directory = DaemonProcess.makeDirectory()
        return try DaemonProcess(config: "{\(sections)}", directory: directory,
                                 arguments: ["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin", "--max-milliamps", "100000"])
    }

    /// `ledring status --json` as an object.
    static func status(_ daemon: DaemonProcess) throws -> [String: Any] {
        let result = try daemon.client(["status", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                            "status: \(result.stdout) \(result.stderr)")
    }

    /// The port the daemon's HTTP server listens on (configured as 0, read back from `status`).
    static func httpPort(_ daemon: DaemonProcess) throws -> Int {
        let address = try #require(try status(daemon)["http"] as? String, "no http in status: \(daemon.stderr)")
        return try #require(address.split(separator: ":").last.flatMap { Int($0) })
    }

    /// The `leds` of `ring` in the daemon's `/api/state`.
    static func ledColours(port: Int, ring: String, field: String = "leds") throws -> [String]? {
        let state = try LoopbackHTTP.request(port: port, "GET", "/api/state")
        let object = try JSONSerialization.jsonObject(with: Data(state.body.utf8)) as? [String: Any]
        let rings = object?["rings"] as? [[String: Any]]
        return rings?.first { $0["name"] as? String == ring }?[field] as? [String]
    }

    /// Whether no LED of `frame` is clearly lit: only the dim track shows.
    static func onlyTrack(_ frame: [RGB8]) -> Bool {
        frame.allSatisfy { Int($0.r) + Int($0.g) + Int($0.b) <= 60 } && frame.contains { $0 != .black }
    }

    @Test
    func httpSetShowsInFramesAndBadRequestsAreAnswered() throws {
        let daemon = try Self.daemon(#""http": {"port": 0}"#)
        defer { daemon.cleanUp() }
        let port = try Self.httpPort(daemon)
        #expect(try Self.status(daemon)["http"] as? String == "127.0.0.1:\(port)")

        let set = try LoopbackHTTP.request(port: port, "POST", "/api/rings/move", body: #"{"value":1}"#, headers: ["Content-Type": "application/json"])
        #expect(set.status == 200, "\(set.body)")
        #expect(set.body.contains(#""target":1"#), "the reply's snapshot already has the change: \(set.body)")
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(DaemonTests.litMoveLEDs)) == 24 }, "\(daemon.stderr)")
        #expect(try daemon.rings()["move"]?.target == 1)

        let malformed = try LoopbackHTTP.request(port: port, "POST", "/api/rings/move", body: #"{"value":"#, headers: ["Content-Type": "application/json"])
        #expect(malformed.status == 400 && malformed.body.contains("not valid JSON"), "\(malformed.body)")
        let unknown = try LoopbackHTTP.request(port: port, "POST", "/api/rings/moov", body: "0.5")
        #expect(unknown.status == 404 && unknown.body.contains(#"no ring called \"moov\""#), "\(unknown.body)")
        #expect(daemon.process.isRunning)
        #expect(try daemon.rings()["move"]?.target == 1, "refused requests changed nothing")

        let state = try LoopbackHTTP.request(port: port, "GET", "/api/state")
        #expect(state.status == 200 && state.body.contains(#""name":"move""#))

        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.stderr.contains("http: stopped"), "\(daemon.stderr)")
        #expect(try daemon.frames().last?.allSatisfy { $0 == .black } == true, "the last frame is blank")
    }

    /// The shared libraries mapped into `pid` whose file name contains `name`.
    /// (Read to the end: `String(contentsOfFile:)` stops at the size procfs reports for the file.)
    static func mapped(_ name: String, in pid: Int32) throws -> Bool {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try #require(try file.readToEnd()), as: UTF8.self)
        #expect(maps.contains("/ledring"), "/proc/\(pid)/maps does not list ledring itself")
        return maps.contains(name)
    }

    /// The README promises that libmosquitto (and the TLS libraries it pulls in) costs a daemon
    /// nothing unless its config asks for TLS to the broker: it is opened, not linked; HTTP, and
    /// MQTT without TLS, being ledring's own, load no library at all.
    @Test
    func networkLibrariesAreLoadedOnlyWhenConfigured() throws {
        let plain = try Self.daemon("")
        defer { plain.cleanUp() }
        #expect(try plain.client(["get"]).status == 0)
        let pid = plain.process.pid
        #expect(try !Self.mapped("libmosquitto", in: pid), "libmosquitto mapped without an mqtt section")
        #expect(try !Self.mapped("libssl", in: pid) && !Self.mapped("libgnutls", in: pid), "TLS libraries mapped")

        let http = try Self.daemon(#""http": {"port": 0}"#)
        defer { http.cleanUp() }
        _ = try Self.httpPort(http)
        #expect(try !Self.mapped("libmosquitto", in: http.process.pid))
        #expect(try !Self.mapped("libssl", in: http.process.pid) && !Self.mapped("libgnutls", in: http.process.pid),
                "the http section loaded TLS libraries")

        // A broker without TLS (none listens on port 9: the bridge keeps trying, on the loop).
        let mqtt = try Self.daemon(#""mqtt": {"host": "127.0.0.1", "port": 9}"#)
        defer { mqtt.cleanUp() }
        #expect(try mqtt.client(["get"]).status == 0)
        #expect(try !Self.mapped("libmosquitto", in: mqtt.process.pid), "an mqtt section without tls loaded libmosquitto")
        #expect(try !Self.mapped("libssl", in: mqtt.process.pid) && !Self.mapped("libgnutls", in: mqtt.process.pid),
                "an mqtt section without tls loaded TLS libraries")
    }

    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs `mosquitto`, `mosquitto-clients`"))
    func mqttSetShowsInFramesAndTheRetainedState() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.daemon("""
            "mqtt": {"host": "127.0.0.1", "port": \(broker.port), "device": "e2e", "discovery": false,
                     "reconnectMin": 1, "reconnectMax": 2, "keepalive": 5}
            """)
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? Self.status(daemon)["mqtt"] as? Bool) == true }, "not connected: \(daemon.stderr)")

        try broker.publish("ledring/e2e/move/set", "100%")
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(DaemonTests.litMoveLEDs)) == 24 }, "\(daemon.stderr)")
        #expect(try daemon.rings()["move"]?.target == 1)
        #expect(eventually { (try? broker.retained("ledring/e2e/move/state"))?.contains(#""percent":100"#) == true })
        #expect(try broker.retained("ledring/e2e/availability") == "online")

        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(try broker.retained("ledring/e2e/availability") == "offline", "\(daemon.stderr)")
    }

    @Test(.enabled(if: (HeadlessChromium.path != nil || inCI),
                   "needs Chromium (`sudo apt install chromium`)"))
    func thePageInChromiumDrivesTheFrames() throws {
        let daemon = try Self.daemon(#""http": {"port": 0}"#)
        defer { daemon.cleanUp() }
        let port = try Self.httpPort(daemon)
        let browser = try HeadlessChromium()
        try browser.open("http://127.0.0.1:\(port)/")
        #expect(try eventually { try browser.evaluate("document.querySelectorAll('input[data-ring]').length") as? Int == 3 })
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(Self.onlyTrack)) == true }, "the picture starts as the track")

        // Move the "move" slider to 150 % as a user would: the ring fills up in the frames.
        try browser.evaluate("""
            (() => { const s = document.querySelector('input[data-ring=move]'); s.value = 150;
                     s.dispatchEvent(new Event('input', { bubbles: true })); return true; })()
            """)
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.target) == 1.5 }, "\(daemon.stderr)")
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(DaemonTests.litMoveLEDs)) == 24 })
        // The page draws what the LEDs show, pushed over server-sent events.
        let moveDots = "Array.from(document.querySelectorAll('g[data-ring=move] circle')).map(c => c.getAttribute('fill'))"
        #expect(daemon.waitUntil { (try? daemon.rings()["move"]?.shown) == 1.5 })
        // Once settled, the dots are the display colours /api/state reports for the LEDs: the
        // screen colour of each drive level, not the drive level itself.
        var shown: [String] = []
        let drawn = try eventually {
            shown = try Self.ledColours(port: port, ring: "move", field: "display") ?? []
            return try browser.evaluate(moveDots) as? [String] == shown
        }
        let drive = try Self.ledColours(port: port, ring: "move") ?? []
        #expect(shown == drive.compactMap { RGB8(hex: $0).map { SRGB.display($0).hex } })
        let page = String(describing: try browser.evaluate(moveDots))
        #expect(drawn, "page \(page) vs state \(shown)")
        #expect(Set(shown).count > 1, "a lit ring, not one colour: \(shown)")

        // Reset all: every ring back to 0, and the frames back to the track alone.
        try browser.evaluate("document.getElementById('reset').click(); true")
        #expect(daemon.waitUntil { (try? daemon.rings().values.allSatisfy { $0.target == 0 }) == true })
        #expect(daemon.waitUntil { (try? daemon.frames().last.map(Self.onlyTrack)) == true }, "\(daemon.stderr)")
        #expect(try eventually { try browser.evaluate("document.querySelector('input[data-ring=move]').value") as? String == "0" })
    }
}
