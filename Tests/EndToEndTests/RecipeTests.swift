import Foundation
import Glibc
import LEDRingNet
import LEDRingNetTesting
import RingModel
import Testing

/// The README's recipes, run as the README says: each config is a file under `examples/recipes/`
/// that the README shows whole (after a `<!-- examples/recipes/NAME.json -->` line) and these
/// tests load, changing only what a test machine must (the broker's port, the output, secret
/// paths). What they assert is what the LEDs show: the frames' colours on the ring's LEDs.
@Suite(.serialized) struct RecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func recipeNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("examples/recipes").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("examples/recipes/\(name).json"), encoding: .utf8)
    }

    /// The recipe's config with `patch` applied, written to `directory` and run; its output goes
    /// to the APA102 dump file (the colours are the chip's input either way) at the default budget.
    static func start(_ name: String, directory: String = DaemonProcess.makeDirectory(),
                      patch: (inout [String: Any]) -> Void) throws -> DaemonProcess {
        var config = try #require(try JSONSerialization.jsonObject(with: Data(text(name).utf8)) as? [String: Any])
        config["output"] = ["driver": "apa102-spi", "dumpWire": directory + "/wire.bin"]
        patch(&config)
        let data = try JSONSerialization.data(withJSONObject: config)
        return try DaemonProcess(config: String(decoding: data, as: UTF8.self), directory: directory)
    }

    /// `mqtt` pointed at the test broker.
    static func local(_ config: inout [String: Any], _ broker: MosquittoBroker) {
        var mqtt = config["mqtt"] as? [String: Any] ?? [:]
        mqtt["host"] = "127.0.0.1"
        mqtt["port"] = broker.port
        config["mqtt"] = mqtt
    }

    static func connected(_ daemon: DaemonProcess) -> Bool {
        daemon.waitUntil { (try? NetworkTests.status(daemon)["mqtt"] as? Bool) == true }
    }

    static func last(_ daemon: DaemonProcess, leds: Int) -> [RGB8]? { try? daemon.frames(ledCount: leds).last }

    /// Hues as a person names them, on LEDs dimmed by the default 500 mA budget.
    static func isGreen(_ c: RGB8) -> Bool { c.g >= 20 && Int(c.g) > 2 * Int(c.r) && Int(c.g) > 2 * Int(c.b) }
    static func isRed(_ c: RGB8) -> Bool { c.r >= 20 && Int(c.r) > 2 * Int(c.g) && Int(c.r) > 2 * Int(c.b) }
    /// Orange after the gamma curve: (255, 128, 0) reaches the chip as about (255, 55, 0).
    static func isOrange(_ c: RGB8) -> Bool { c.r >= 20 && c.g > c.r / 8 && Int(c.g) * 4 < Int(c.r) * 3 && Int(c.b) * 4 < Int(c.r) }
    static func lit(_ c: RGB8) -> Bool { Int(c.r) + Int(c.g) + Int(c.b) > 60 }

    static func look(_ daemon: DaemonProcess, ring: String) -> String? {
        guard let text = try? daemon.client(["get", "--json"]).stdout,
              let reply = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let rings = reply["rings"] as? [[String: Any]] else { return nil }
        return rings.first { $0["name"] as? String == ring }?["look"] as? String
    }

    // MARK: The README and docs/ show these files, byte for byte

    /// Every recipe file is in the README or a page of docs/ after its marker, unchanged; every
    /// marker names a file.
    @Test func theDocsShowEveryRecipeFileAsItIs() throws {
        let names = try Self.recipeNames()
        #expect(names.count >= 5, "\(names)")
        var marked: [String] = []
        let pages = try ["README.md"] + FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for page in pages {
            let readme = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
            let lines = readme.components(separatedBy: "\n")
            for (i, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("<!-- examples/recipes/"), trimmed.hasSuffix(" -->") else { continue }
                let file = String(trimmed.dropFirst("<!-- examples/recipes/".count).dropLast(" -->".count))
                let shell = file.hasSuffix(".sh")
                let indent = String(line.prefix { $0 == " " })
                let fence = shell ? "```sh" : "```json"
                #expect(i + 1 < lines.count && lines[i + 1] == indent + fence, "\(page) line \(i + 2): no \(fence) block after the marker of \(file)")
                var block: [String] = []
                var j = i + 2
                while j < lines.count, lines[j] != indent + "```" {
                    block.append(lines[j].hasPrefix(indent) ? String(lines[j].dropFirst(indent.count)) : lines[j])
                    j += 1
                }
                let text = try? String(contentsOf: Self.root.appendingPathComponent("examples/recipes/" + file), encoding: .utf8)
                #expect(text != nil, "\(page) line \(i + 1) names examples/recipes/\(file), which does not exist")
                #expect(block.joined(separator: "\n") + "\n" == text, "\(page) line \(i + 1): the block differs from examples/recipes/\(file)")
                marked.append(file)
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples/recipes").path)
        #expect(names.allSatisfy { files.contains($0 + ".json") })
        #expect(Set(marked) == Set(files), "recipe files no page shows: \(Set(files).subtracting(marked).sorted())")
    }

    /// Each recipe passes check-config once its secrets exist (the paths are the README's).
    @Test func everyRecipeIsAValidConfig() throws {
        let directory = DaemonProcess.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in try Self.recipeNames() {
            var text = try Self.text(name)
            for secret in ["github-secret", "http-token", "alertmanager-token", "mqtt-password"] {
                try "a-secret-line-for-the-test\n".write(toFile: directory + "/" + secret, atomically: true, encoding: .utf8)
                text = text.replacingOccurrences(of: "/etc/ledring/" + secret, with: directory + "/" + secret)
            }
            try text.write(toFile: directory + "/\(name).json", atomically: true, encoding: .utf8)
            let check = try LedringProcess.run(["check-config", directory + "/\(name).json"])
            #expect(check.status == 0, "\(name): \(check.stdout) \(check.stderr)")
        }
    }

    // MARK: Printers

    /// OctoPrint's MQTT plugin: progress fills the ring, the end of the print flashes every ring
    /// green, then the done look stays green on every LED.
    @Test(.enabled(if: mosquittoInstalled || inCI, "needs mosquitto"))
    func octoPrint() throws {
        let broker = try MosquittoBroker()
        let daemon = try Self.start("octoprint") { Self.local(&$0, broker) }
        defer { daemon.cleanUp() }
        #expect(Self.connected(daemon), "\(daemon.stderr)")
        // What the plugin publishes (octoprint-mqtt: event payloads carry `_event`, progress `progress` 0…100).
        try broker.publish("octoPrint/event/PrintStarted", #"{"_event": "PrintStarted", "_timestamp": 1764842400, "name": "benchy.gcode", "path": "benchy.gcode", "origin": "local"}"#)
        try broker.publish("octoPrint/progress/printing", #"{"location": "local", "path": "benchy.gcode", "progress": 50, "_timestamp": 1764842500}"#)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24).map { $0[0..<11].allSatisfy(Self.lit) && !$0[13..<24].contains(where: Self.lit) } == true },
                "half the ring: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex))) \(daemon.stderr)")
        try broker.publish("octoPrint/event/PrintDone", #"{"_event": "PrintDone", "_timestamp": 1764846000, "name": "benchy.gcode", "time": 3600.5}"#)
        // The notification: every LED green at its flashes' peaks, for ten seconds.
        #expect(daemon.waitUntil(timeout: 5) { Self.last(daemon, leds: 24)?.allSatisfy(Self.isGreen) == true }, "\(daemon.stderr)")
        #expect(Self.look(daemon, ring: "print") == "done")
        // Then the look: green on every LED, still, once the notification is over.
        usleep(10_500_000)
        let settled = try #require(Self.last(daemon, leds: 24))
        #expect(settled.allSatisfy(Self.isGreen), "done: \(settled.map(\.hex))")
        usleep(300_000)
        #expect(Self.last(daemon, leds: 24) == settled, "the done look is still, not flashing")
        try broker.publish("octoPrint/event/PrintFailed", #"{"_event": "PrintFailed", "_timestamp": 1764846100, "reason": "error"}"#)
        #expect(daemon.waitUntil(timeout: 5) { Self.last(daemon, leds: 24)?.allSatisfy(Self.isRed) == true }, "failed blinks red on every LED")
    }

    /// Moonraker's split status topics: progress 0…1 fills the ring, `complete` turns it green.
    @Test(.enabled(if: mosquittoInstalled || inCI, "needs mosquitto"))
    func klipperMoonraker() throws {
        let broker = try MosquittoBroker()
        // Moonraker retains these; the daemon starts after them, as after a reboot of the Pi.
        try broker.publish("voron/klipper/state/print_stats/state", #"{"eventtime": 1234.5, "value": "printing"}"#, retain: true)
        try broker.publish("voron/klipper/state/virtual_sdcard/progress", #"{"eventtime": 1234.5, "value": 0.25}"#, retain: true)
        let daemon = try Self.start("klipper") { Self.local(&$0, broker) }
        defer { daemon.cleanUp() }
        #expect(Self.connected(daemon), "\(daemon.stderr)")
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24).map { $0[0..<5].allSatisfy(Self.lit) && !$0[7..<24].contains(where: Self.lit) } == true },
                "a quarter: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex))) \(daemon.stderr)")
        try broker.publish("voron/klipper/state/virtual_sdcard/progress", #"{"eventtime": 1300.0, "value": 1.0}"#, retain: true)
        try broker.publish("voron/klipper/state/print_stats/state", #"{"eventtime": 1300.0, "value": "complete"}"#, retain: true)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24)?.allSatisfy(Self.isGreen) == true },
                "complete: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex))) \(daemon.stderr)")
        try broker.publish("voron/klipper/state/print_stats/state", #"{"eventtime": 1400.0, "value": "error"}"#, retain: true)
        #expect(daemon.waitUntil(timeout: 5) { Self.last(daemon, leds: 24)?.allSatisfy(Self.isRed) == true }, "error blinks red")
    }

    // MARK: Webhooks

    /// The build light: GitHub's signed deliveries through the proxy's Host; the ring stays at
    /// 0 %, and the result is seen on every LED.
    @Test
    func gitHubBuildLight() throws {
        let directory = DaemonProcess.makeDirectory()
        let secret = "It's a Secret to Everybody"
        try (secret + "\n").write(toFile: directory + "/github-secret", atomically: true, encoding: .utf8)
        let daemon = try Self.start("github", directory: directory) { config in
            var http = config["http"] as! [String: Any]
            http["port"] = 0
            var hooks = http["webhooks"] as! [String: Any]
            var github = hooks["github"] as! [String: Any]
            github["secretFile"] = directory + "/github-secret"
            hooks["github"] = github
            http["webhooks"] = hooks
            config["http"] = http
        }
        defer { daemon.cleanUp() }
        let port = try NetworkTests.httpPort(daemon)
        func deliver(_ status: String, _ conclusion: String?, workflow: String = "CI") throws -> Int {
            let body = """
            {"action":"\(status == "completed" ? "completed" : "in_progress")","workflow_run":{"id":1,"name":"\(workflow)",
             "head_branch":"main","status":"\(status)","conclusion":\(conclusion.map { "\"\($0)\"" } ?? "null")},
             "repository":{"full_name":"octo-org/ledring"}}
            """
            var headers = WebhookEndToEndTests.signed(body, secret: secret)
            headers["Host"] = "ci-lights.example.org"
            return try LoopbackHTTP.request(port: port, "POST", "/api/hooks/github", body: body, headers: headers).status
        }
        #expect(try deliver("in_progress", nil) == 200)
        #expect(daemon.waitUntil { (try? daemon.rings()["build"]?.spinning) == true }, "running: the spinner")
        #expect(try deliver("completed", "failure") == 200)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24)?.allSatisfy(Self.isRed) == true },
                "failed: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex))) \(daemon.stderr)")
        #expect(try deliver("completed", "success") == 200)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24)?.allSatisfy(Self.isGreen) == true },
                "passed: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex)))")
        // Another workflow is not the build light's: 202, still green.
        #expect(try deliver("completed", "failure", workflow: "Docs") == 202)
        usleep(300_000)
        #expect(Self.last(daemon, leds: 24)?.allSatisfy(Self.isGreen) == true)
        #expect(try daemon.rings()["build"]?.target == 0, "the ring's value is untouched")
    }

    /// Alertmanager: a firing alert pulses the alarm ring red on every LED; resolved, it is dark
    /// again. The API's own token keeps the rest closed.
    @Test
    func alertmanager() throws {
        let directory = DaemonProcess.makeDirectory()
        try "the-api-token\n".write(toFile: directory + "/http-token", atomically: true, encoding: .utf8)
        try "the-alert-token\n".write(toFile: directory + "/alertmanager-token", atomically: true, encoding: .utf8)
        let daemon = try Self.start("alertmanager", directory: directory) { config in
            var http = config["http"] as! [String: Any]
            http["port"] = 0
            http["address"] = "127.0.0.1"
            http["tokenFile"] = directory + "/http-token"
            var hooks = http["webhooks"] as! [String: Any]
            var alertmanager = hooks["alertmanager"] as! [String: Any]
            alertmanager["tokenFile"] = directory + "/alertmanager-token"
            hooks["alertmanager"] = alertmanager
            http["webhooks"] = hooks
            config["http"] = http
        }
        defer { daemon.cleanUp() }
        let port = try NetworkTests.httpPort(daemon)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24).map { !$0.contains(where: Self.lit) } == true }, "idle: only the track")
        func send(_ status: String, token: String = "the-alert-token") throws -> Int {
            let body = """
            {"version":"4","groupKey":"{}:{alertname=\\"DiskFull\\"}","status":"\(status)","receiver":"ledring",
             "alerts":[{"status":"\(status)","labels":{"alertname":"DiskFull","instance":"nas:9100"},"fingerprint":"c0ffee1234567890"}]}
            """
            return try LoopbackHTTP.request(port: port, "POST", "/api/hooks/alertmanager", body: body,
                                            headers: ["Content-Type": "application/json", "Authorization": "Bearer " + token, "Host": "pi"]).status
        }
        #expect(try send("firing", token: "the-api-token") == 401, "the API's token is not the webhook's")
        #expect(try send("firing") == 200)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24)?.allSatisfy(Self.isRed) == true },
                "firing: \(String(describing: Self.last(daemon, leds: 24)?.map(\.hex))) \(daemon.stderr)")
        #expect(try LoopbackHTTP.request(port: port, "GET", "/api/state", headers: ["Host": "pi"]).status == 401, "the API stays closed")
        #expect(try send("resolved") == 200)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 24).map { !$0.contains(where: Self.lit) } == true }, "resolved: as before")
    }

    // MARK: Home Assistant

    /// The README's Home Assistant recipe: the broker user's password from its file, discovery
    /// for both rings' lights, the automation's notify payload and a light colour on the LEDs.
    @Test(.enabled(if: mosquittoInstalled || inCI, "needs mosquitto"))
    func homeAssistant() throws {
        let broker = try MosquittoBroker()
        let directory = DaemonProcess.makeDirectory()
        try "broker-password\n".write(toFile: directory + "/mqtt-password", atomically: true, encoding: .utf8)
        let daemon = try Self.start("home-assistant", directory: directory) { config in
            Self.local(&config, broker)
            var mqtt = config["mqtt"] as! [String: Any]
            mqtt["passwordFile"] = directory + "/mqtt-password"
            config["mqtt"] = mqtt
        }
        defer { daemon.cleanUp() }
        #expect(Self.connected(daemon), "\(daemon.stderr)")
        let discovery = try broker.retainedMessages("homeassistant/#")
        for ring in ["build", "focus"] {
            #expect(discovery.keys.contains { $0.contains("/light/") && $0.contains(ring) }, "\(ring) light: \(discovery.keys.sorted())")
        }
        let build = 0..<24, focus = 24..<40
        // The automation's action, as written in the README.
        try broker.publish("ledring/desk/notify", #"{"rings":["build"],"look":"failed","for":"30s","priority":5}"#)
        #expect(daemon.waitUntil(timeout: 5) { Self.last(daemon, leds: 40).map { $0[build].allSatisfy(Self.isRed) } == true },
                "build blinks red: \(String(describing: Self.last(daemon, leds: 40)?.map(\.hex))) \(daemon.stderr)")
        #expect(Self.last(daemon, leds: 40).map { !$0[focus].contains(where: Self.lit) } == true, "focus untouched")
        // light.turn_on with rgb_color [255, 128, 0] on the focus ring, as Home Assistant sends it.
        try broker.publish("ledring/desk/focus/light", #"{"state":"ON","color":{"r":255,"g":128,"b":0}}"#)
        #expect(daemon.waitUntil { Self.last(daemon, leds: 40).map { $0[focus].allSatisfy(Self.isOrange) } == true },
                "focus orange: \(String(describing: Self.last(daemon, leds: 40)?[focus].map(\.hex)))")
    }

    // MARK: Sources, the shell recipes and feed

    /// The LEDs lit (by `lit`) in `range` of the last frame.
    /// The LEDs of `range` that show the fill, not the dim track: brighter than a tenth of the
    /// range's brightest LED (the track is about 1/60 of the fill). Relative, because the power
    /// limiter dims every LED of a frame alike, and how much depends on what the other rings
    /// show at that moment (a pulsing look): a fixed threshold failed a full ring under CI's load.
    static func litCount(_ frame: [RGB8], _ range: Range<Int>) -> Int {
        let sums = frame[range].map { Int($0.r) + Int($0.g) + Int($0.b) }
        guard let brightest = sums.max(), brightest > 30 else { return 0 }
        return sums.filter { $0 * 10 > brightest }.count
    }

    /// The file-source recipe: a battery's sysfs capacity and a printer's status file, with only
    /// their paths moved into the test's directory and the stale time cut from 2 minutes to 2 s.
    @Test func fileSources() throws {
        let directory = DaemonProcess.makeDirectory()
        let battery = directory + "/capacity", status = directory + "/status.json"
        try "57\n".write(toFile: battery, atomically: true, encoding: .utf8)
        try #"{"job": {"progress": 0.25}}"#.write(toFile: status, atomically: true, encoding: .utf8)
        let daemon = try Self.start("file-sources", directory: directory) { config in
            var sources = config["sources"] as? [[String: Any]] ?? []
            sources[0]["file"] = battery
            sources[1]["file"] = status
            sources[1]["stale"] = 2
            config["sources"] = sources
        }
        defer { daemon.cleanUp() }
        // 57 % of 24 LEDs: 13 lit and a fraction; a quarter of 16: 4.
        #expect(daemon.waitUntil { Self.last(daemon, leds: 40).map { (13...14).contains(Self.litCount($0, 0..<24)) && Self.litCount($0, 24..<40) == 4 } == true },
                "\(String(describing: Self.last(daemon, leds: 40)?.map(\.hex))) \(daemon.stderr)")
        try #"{"job": {"progress": 0.75}}"#.write(toFile: status, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil(timeout: 15) { Self.last(daemon, leds: 40).map { Self.litCount($0, 24..<40) == 12 } == true })
        // The printer's file stops holding a number: after the stale time the ring pulses in the
        // "lost" look's orange on every LED.
        try "offline\n".write(toFile: status, atomically: true, encoding: .utf8)
        #expect(daemon.waitUntil(timeout: 20) { Self.last(daemon, leds: 40).map { $0[24..<40].allSatisfy(Self.isOrange) } == true },
                "\(String(describing: Self.last(daemon, leds: 40)?[24..<40].map(\.hex))) \(daemon.stderr)")
        #expect(Self.look(daemon, ring: "print") == "lost")
    }

    /// The command-source recipe: the real `df` fills the disk ring with the root's use, and a
    /// stand-in for the CO2 sensor (a script printing the JSON the recipe reads) fills the co2 ring.
    @Test func commandSources() throws {
        let directory = DaemonProcess.makeDirectory()
        let sensor = directory + "/read-co2"
        try "#!/bin/sh\necho '{\"ppm\": 1300, \"temperature\": 21.5}'\n".write(toFile: sensor, atomically: true, encoding: .utf8)
        chmod(sensor, 0o755)
        let df = try LedringProcess.run(["--output=pcent", "/"], executable: URL(fileURLWithPath: "/bin/df"))
        let used = try #require(Int(df.stdout.filter(\.isNumber)), "\(df.stdout)")
        let daemon = try Self.start("command-sources", directory: directory) { config in
            var sources = config["sources"] as? [[String: Any]] ?? []
            sources[1]["command"] = [sensor, "--json"]
            config["sources"] = sources
        }
        defer { daemon.cleanUp() }
        // df's percentage of 24 LEDs (within one LED: the root's use may move meanwhile), and
        // (1300 - 400) / (2000 - 400) of 16 = 9.
        let wanted = Double(used) / 100 * 24
        #expect(daemon.waitUntil { Self.last(daemon, leds: 40).map {
            abs(Double(Self.litCount($0, 0..<24)) - wanted) <= 1.5 && Self.litCount($0, 24..<40) == 9 } == true },
                "df said \(used) %: \(String(describing: Self.last(daemon, leds: 40)?.map(\.hex))) \(daemon.stderr)")
    }

    /// Runs one line of the shell recipe as a user's shell would, with the built `ledring` and
    /// `stubs` first on the PATH and the daemon's socket where `ledring` looks by default.
    static func shell(_ line: String, daemon: DaemonProcess, stubs: String) throws -> LedringProcess.Result {
        let path = LedringProcess.executable.deletingLastPathComponent().path + ":" + stubs + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try LedringProcess.run(["-c", "cd '\(daemon.directory)' && " + line],
                                      environment: ["PATH": path, "XDG_RUNTIME_DIR": daemon.directory, "LEDRING_SOCKET": ""],
                                      executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// The README's shell recipes, line by line as they stand, against the config they use:
    /// the CI light, the pomodoro (25 minutes shortened to 3 s), the CO2 gauge with a stub
    /// sensor, and a copy's progress through the real `pv` and `ledring feed`. What is checked is
    /// what the LEDs show after each line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pv") || inCI, "needs pv (apt install pv)"))
    func theShellRecipes() throws {
        let directory = DaemonProcess.makeDirectory()
        let daemon = try Self.start("status-light", directory: directory) { _ in }
        defer { daemon.cleanUp() }
        let stubs = directory + "/bin"
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
        try "#!/bin/sh\necho 812\n".write(toFile: stubs + "/read-co2-sensor", atomically: true, encoding: .utf8)
        chmod(stubs + "/read-co2-sensor", 0o755)
        try FileManager.default.createDirectory(atPath: directory + "/usb", withIntermediateDirectories: true)
        let iso = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) })
        try iso.write(to: URL(fileURLWithPath: directory + "/big.iso"))

        let recipe = try String(contentsOf: Self.root.appendingPathComponent("examples/recipes/status-light.sh"), encoding: .utf8)
        let lines = recipe.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(lines.count == 7, "\(lines)")
        func run(_ index: Int, replacing: [(String, String)] = []) throws {
            var line = lines[index]
            for (from, to) in replacing {
                #expect(line.contains(from), "the recipe's line \(index + 1) no longer says \(from): \(line)")
                line = line.replacingOccurrences(of: from, with: to)
            }
            let result = try Self.shell(line, daemon: daemon, stubs: stubs)
            #expect(result.status == 0, "\(line): \(result.stdout) \(result.stderr)")
        }
        func frame() -> [RGB8] { Self.last(daemon, leds: 64) ?? [] }
        func isBlue(_ c: RGB8) -> Bool { c.b >= 20 && Int(c.b) > 2 * Int(c.r) && c.b > c.g }

        // A build starts: the spinner, in the running look's blue, on part of the ring only.
        try run(0)
        #expect(try daemon.rings()["build"]?.spinning == true)
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && f[0..<24].contains(where: isBlue) && Self.litCount(f, 0..<24) < 20 },
                "\(frame().prefix(24).map(\.hex))")
        // It failed: every LED red (blinking: some frames are dark).
        try run(1)
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && f[0..<24].allSatisfy(Self.isRed) }, "\(frame().prefix(24).map(\.hex))")
        // It passed: every LED green, and still.
        try run(2)
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && f[0..<24].allSatisfy(Self.isGreen) }, "\(frame().prefix(24).map(\.hex))")
        let passed = Array(frame()[0..<24])
        usleep(300_000)
        #expect(Array(frame()[0..<24]) == passed, "the passed look is still")

        // The pomodoro drains the focus ring, then every LED shows the done look's orange.
        try run(3, replacing: [("25m", "3s")])
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && Self.litCount(f, 24..<40) >= 12 }, "\(frame()[24..<40].map(\.hex))")
        #expect(daemon.waitUntil(timeout: 15) { let f = frame(); return !f.isEmpty && f[24..<40].allSatisfy(Self.isOrange) },
                "\(frame()[24..<40].map(\.hex)) \(daemon.stderr)")
        // Until lunch: the timer runs to the next 12:30 local time.
        try run(4)
        let now = Date()
        let lunch = try #require(Calendar.current.nextDate(after: now, matching: DateComponents(hour: 12, minute: 30, second: 0),
                                                           matchingPolicy: .nextTime))
        let reply = try daemon.client(["get", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any])
        let focus = try #require((object["rings"] as? [[String: Any]])?.first { $0["name"] as? String == "focus" })
        let left = try #require(focus["timerLeft"] as? Double, "\(focus)")
        #expect(abs(left - lunch.timeIntervalSince(now)) < 5, "\(left) s left, \(lunch.timeIntervalSince(now)) s to 12:30")

        // CO2 812 ppm: (812 - 400) / 1600 of 12 LEDs, in the orange zone (800…1200).
        try run(5)
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && Self.litCount(f, 40..<52) == 3
                    && f[40..<43].allSatisfy { $0.r > $0.g && $0.g > $0.b } && !f[40..<43].contains(where: Self.isGreen) },
                "\(frame()[40..<52].map(\.hex))")

        // The copy: pv's percentages through feed fill the copy ring; the file arrives whole.
        try run(6, replacing: [("/mnt/usb/", directory + "/usb/")])
        #expect(daemon.waitUntil { let f = frame(); return !f.isEmpty && Self.litCount(f, 52..<64) == 12 }, "\(frame()[52..<64].map(\.hex))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/usb/big.iso")) == iso)
    }
}
