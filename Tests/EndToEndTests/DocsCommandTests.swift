import Foundation
import Glibc
import LEDRingNet
import LEDRingNetTesting
import Testing

/// Every command the README and docs/ show in a ```sh block runs, against the built binary, as it
/// stands: a renamed option, a verb that went away or a wrong example fails here. A block that
/// cannot run on this machine says why in a comment line before it: `<!-- on a Pi -->` (hardware,
/// root, the installed service) or `<!-- not run by the docs test: REASON -->`; the recipe files
/// (`<!-- examples/recipes/… -->`) are run by RecipeTests.
///
/// The commands run in a scratch directory, one line at a time through bash (the shell of
/// Raspberry Pi OS and Debian users), with `ledring`
/// on the `PATH` and a service on the default socket (`XDG_RUNTIME_DIR`): the rings the pages
/// use, `http` on a free port and `mqtt` on a Mosquitto of its own, as the device `kitchen`.
/// Only what this machine cannot be is rewritten: the HTTP port (`localhost:8080`), the broker's
/// port (`mosquitto_pub -p …`), `/tmp/` and `/mnt/usb/` (into the scratch directory); `long-job`
/// and `read-co2-sensor` are stubs. A line that starts a service (`ledring run`, or
/// `mosquitto_sub`, which waits for messages) must still be running after two seconds and end on
/// SIGTERM; every other line must exit 0.
@Suite(.serialized) struct DocsCommandTests {
    static let root = DocsLinkTests.root

    struct Block {
        var page: String
        var line: Int
        var commands: [(line: Int, text: String)]
        /// The comment line before it, if any (`<!-- on a Pi -->`).
        var marker: String?
    }

    /// Every ```sh block of every page.
    static func blocks() throws -> [Block] {
        var out: [Block] = []
        for page in try DocsLinkTests.pages() {
            let lines = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                let trimmed = lines[i].trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("```") else { i += 1; continue }
                let isShell = trimmed == "```sh"
                var previous = i - 1
                while previous >= 0 && lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
                let before = previous >= 0 ? lines[previous].trimmingCharacters(in: .whitespaces) : ""
                var j = i + 1
                var commands: [(Int, String)] = []
                var continued = ""
                while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    let text = lines[j].trimmingCharacters(in: .whitespaces)
                    if text.hasSuffix("\\") {
                        continued += String(text.dropLast()) + " "
                    } else if !text.isEmpty && !text.hasPrefix("#") {
                        commands.append((j + 1, continued + text))
                        continued = ""
                    }
                    j += 1
                }
                if isShell {
                    out.append(Block(page: page, line: i + 1, commands: commands, marker: before.hasPrefix("<!--") ? before : nil))
                }
                i = j + 1
            }
        }
        return out
    }

    static func isSkipped(_ block: Block) -> Bool {
        guard let marker = block.marker else { return false }
        return marker == "<!-- on a Pi -->" || marker.hasPrefix("<!-- not run by the docs test: ")
            || marker.hasPrefix("<!-- examples/recipes/")
    }

    /// Every block either runs here or says why not.
    @Test func everyShellBlockRunsOrSaysWhyNot() throws {
        let blocks = try Self.blocks()
        for block in blocks where block.marker != nil {
            #expect(Self.isSkipped(block), "\(block.page):\(block.line): \(block.marker ?? "") is not a marker the docs test knows")
        }
        let run = blocks.filter { !Self.isSkipped($0) }
        #expect(run.count >= 9, "\(run.count) of \(blocks.count) blocks run")
    }

    @Test(.enabled(if: mosquittoInstalled || inCI,
                   "needs mosquitto (apt install mosquitto mosquitto-clients)"))
    func everyShownCommandRuns() throws {
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        let directory = DaemonProcess.makeDirectory()
        let config = """
            {"rings": [{"name": "move", "leds": 24}, {"name": "exercise", "leds": 16}, {"name": "stand", "leds": 12},
                       {"name": "build", "leds": 24}, {"name": "focus", "leds": 16}, {"name": "copy", "leds": 12},
                       {"name": "co2", "leds": 12, "range": [400, 2000], "laps": false}],
             "looks": {"failed": {"gradient": "#ff2020", "effect": "blink"}, "passed": {"gradient": "#20ff60"},
                       "running": {"gradient": "#2080ff", "effect": "pulse"}, "done": {"gradient": "#ff8020"}},
             "http": {"port": 0}, "mqtt": {"host": "127.0.0.1", "port": \(broker.port), "device": "kitchen"}}
            """
        let daemon = try DaemonProcess(config: config, directory: directory,
                                       arguments: ["--driver", "apa102-spi", "--dump-wire", directory + "/wire.bin"])
        defer { daemon.cleanUp() }
        let port = try NetworkTests.httpPort(daemon)
        let stubs = directory + "/bin", others = directory + "/other"
        for folder in [stubs, others, directory + "/usb", directory + "/state"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (name, script) in [("long-job", "#!/bin/sh\necho 'set move 0.5'\n"), ("read-co2-sensor", "#!/bin/sh\necho 812\n")] {
            try script.write(toFile: stubs + "/" + name, atomically: true, encoding: .utf8)
            chmod(stubs + "/" + name, 0o755)
        }
        try Data(count: 200_000).write(to: URL(fileURLWithPath: directory + "/big.iso"))
        let rewrites = [("localhost:8080", "127.0.0.1:\(port)"), ("mosquitto_pub ", "mosquitto_pub -p \(broker.port) "),
                        ("mosquitto_sub ", "mosquitto_sub -p \(broker.port) "), ("/tmp/", directory + "/"), ("/mnt/usb/", directory + "/usb/")]
        let path = LedringProcess.executable.deletingLastPathComponent().path + ":" + stubs + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        var ran = 0
        for block in try Self.blocks() where !Self.isSkipped(block) {
            for (line, text) in block.commands {
                var command = text
                for (from, to) in rewrites { command = command.replacingOccurrences(of: from, with: to) }
                let where_ = "\(block.page):\(line): \(text)"
                // A second service gets a socket of its own, so it does not meet the first.
                let service = command.contains("ledring run") || command.hasPrefix("mosquitto_sub")
                let environment = ["PATH": path, "XDG_RUNTIME_DIR": service ? others : directory, "LEDRING_SOCKET": "",
                                   "XDG_STATE_HOME": directory + "/state", "NO_COLOR": "1"]
                let log = directory + "/command.log"
                try? FileManager.default.removeItem(atPath: log)
                let child = try ChildProcess("/bin/bash", ["-c", "cd '\(directory)' && " + command], environment: environment,
                                             stdout: .file(log), stderr: .file(log))
                let output = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
                if service {
                    let ended = child.wait(timeout: 2)
                    #expect(ended == nil, "\(where_): exited \(ended ?? 0) at once: \(output())")
                    Glibc.kill(-child.pid, SIGTERM)
                    let status = child.wait(timeout: 10)
                    #expect(status != nil, "\(where_): did not end on SIGTERM")
                    if status == nil { Glibc.kill(-child.pid, SIGKILL); child.wait(timeout: 5) }
                } else {
                    let status = child.wait(timeout: 60)
                    if status == nil { Glibc.kill(-child.pid, SIGKILL); child.wait(timeout: 5) }
                    #expect(status == 0, "\(where_): exit \(status.map(String.init) ?? "none within 60 s"): \(output())")
                }
                ran += 1
            }
        }
        #expect(ran >= 40, "ran \(ran) commands")
        print("DocsCommandTests: ran \(ran) commands of \(try Self.blocks().filter { !Self.isSkipped($0) }.count) blocks")
        #expect(daemon.process.isRunning, "the service survived them all: \(daemon.stderr)")
    }
}
