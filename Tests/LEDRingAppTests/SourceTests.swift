import LEDJSON
import LEDRingControl
import LEDSystem
import RingModel
import Testing
@testable import LEDRingApp

/// File sources: the config (every mistake with its path), how a file's text becomes a value,
/// and the poller's schedule, change-only sends and staleness on explicit times.
@Suite struct SourceTests {
    func problems(_ json: String) -> [String] { DaemonConfig.problems(json) }

    static let rings = #""rings": [{"name": "batt", "leds": 16}, {"name": "print", "leds": 24, "range": [0, 100]}]"#

    @Test func sourcesAreRead() throws {
        let config = try DaemonConfig.parse(Array(("{" + Self.rings + #"""
        , "looks": {"lost": {"gradient": "#808080"}},
          "sources": [{"ring": "batt", "file": "/sys/class/power_supply/BAT0/capacity", "every": "1m", "range": [0, 100]},
                      {"ring": "print", "file": "/run/print.json", "value": "/job/progress", "stale": 120, "whenStale": "lost"},
                      {"ring": "batt", "command": ["df", "--output=pcent", "/"], "every": "5m", "timeout": 30}]}
        """#).utf8))
        #expect(config.sources == [
            SourceConfig(ring: "batt", file: "/sys/class/power_supply/BAT0/capacity", every: 60, range: ValueRange(min: 0, max: 100)),
            SourceConfig(ring: "print", file: "/run/print.json", value: "/job/progress", stale: 120, staleLook: "lost"),
            SourceConfig(ring: "batt", command: ["df", "--output=pcent", "/"], every: 300, timeout: 30),
        ])
        #expect(config.sources[2].commandTimeout == 30 && config.sources[2].label == "command df --output=pcent /")
        #expect(SourceConfig(ring: "batt", command: ["x"], every: 2).commandTimeout == 2, "never past the next run")
        #expect(SourceConfig(ring: "batt", command: ["x"], every: 60).commandTimeout == 10)
    }

    @Test(arguments: [
        (#"{"ring": "nope", "file": "/x"}"#, "sources[0].ring: no ring called \"nope\""),
        (#"{"file": "/x"}"#, "sources[0]: says no \"ring\""),
        (#"{"ring": "batt"}"#, "sources[0]: says where the value comes from"),
        (#"{"ring": "batt", "file": "capacity"}"#, "sources[0].file: must be an absolute path"),
        (#"{"ring": "batt", "file": "/x", "every": 0}"#, "sources[0].every: must be at least 0.1 s"),
        (#"{"ring": "batt", "file": "/x", "every": "2d"}"#, "sources[0].every: every \"2d\": not a duration"),
        (#"{"ring": "batt", "file": "/x", "value": "progress"}"#, "sources[0].value: must be a JSON Pointer"),
        (#"{"ring": "batt", "file": "/x", "range": [5, 1]}"#, "sources[0].range: must be [min, max] with min below max"),
        (#"{"ring": "batt", "file": "/x", "stale": 60, "whenStale": "gone"}"#, "sources[0].whenStale: must be \"spin\" or a look"),
        (#"{"ring": "batt", "file": "/x", "whenStale": "spin"}"#, "sources[0].whenStale: needs \"stale\""),
        (#"{"ring": "batt", "command": "cat /x"}"#, "sources[0].command: must be the program and its arguments as a list of strings"),
        (#"{"ring": "batt", "command": []}"#, "sources[0].command: must be the program and its arguments"),
        (#"{"ring": "batt", "command": ["cat", 5]}"#, "sources[0].command[1]: must be a string"),
        (#"{"ring": "batt", "command": [""]}"#, "sources[0].command[0]: names no program"),
        (#"{"ring": "batt", "command": ["bin/level"]}"#, "sources[0].command[0]: must be a program on PATH"),
        (#"{"ring": "batt", "command": ["cat"], "file": "/x"}"#, "sources[0]: gives \"file\" and \"command\""),
        (#"{"ring": "batt", "command": ["cat"], "every": 5, "timeout": 6}"#, "sources[0].timeout: must not be longer than \"every\" (5s)"),
        (#"{"ring": "batt", "file": "/x", "timeout": 1}"#, "sources[0].timeout: applies to command sources"),
        (#"{"ring": "batt", "mqtt": "a/b"}"#, "sources[0].mqtt: needs the \"mqtt\" section"),
        (#"{"ring": "batt", "mqtt": "a/#/b"}"#, "sources[0].mqtt: must be an MQTT topic filter"),
        (#"{"ring": "batt", "mqtt": "a/b+"}"#, "sources[0].mqtt: must be an MQTT topic filter"),
        (#"{"ring": "batt", "mqtt": "a/b", "file": "/x"}"#, "sources[0]: gives \"file\" and \"mqtt\""),
        (#"{"ring": "batt", "mqtt": "a/b", "every": 5}"#, "sources[0].every: applies to file and command sources"),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s"}"#, "sources[0].state: needs \"looks\""),
        (#"{"ring": "batt", "mqtt": "a/b", "notify": {"x": {"look": "lost", "for": "1m"}}}"#, "sources[0].notify: needs \"state\""),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "notify": ["x"]}"#, "sources[0].notify: must map states to notifications"),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "notify": {"x": {"look": "gone", "for": "1m"}}}"#, "sources[0].notify.x: no look called \"gone\""),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "notify": {"x": {"look": "lost"}}}"#, "sources[0].notify.x: notify: give"),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "notify": {"x": {"look": "lost", "for": "1m", "rings": ["nope"]}}}"#, "sources[0].notify.x: no ring called \"nope\""),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "notify": {"x": {"look": "lost", "for": "1m", "lok": 1}}}"#, "sources[0].notify.x.lok: unknown key"),
        (#"{"ring": "batt", "mqtt": "a/b", "looks": {"x": "lost"}}"#, "sources[0].looks: needs \"state\""),
        (#"{"ring": "batt", "mqtt": "a/b", "state": "/s", "looks": {"x": "gone"}}"#, "sources[0].looks.x: no look called \"gone\""),
        (#"{"ring": "batt", "file": "/x", "evrey": 5}"#, "sources[0].evrey: unknown key"),
    ])
    func badSourcesAreRefusedWithTheirPath(source: String, expected: String) {
        let found = problems("{" + Self.rings + #", "sources": ["# + source + "]}")
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test func whatAFileSays() throws {
        let plain = SourceConfig(ring: "batt", file: "/f")
        #expect(try SourcePoller.reading(from: Array("87\n".utf8), plain).value == .init(ring: "batt", value: 87))
        #expect(try SourcePoller.reading(from: Array("temperature: 21.5 C".utf8), plain).value?.value == 21.5)
        #expect(try SourcePoller.reading(from: Array("level 40%".utf8), plain).value == .init(ring: "batt", value: 0.4, percent: true))
        var ranged = plain
        ranged.range = ValueRange(min: 0, max: 100)
        #expect(try SourcePoller.reading(from: Array("87".utf8), ranged).value?.value == 0.87)
        var json = ranged
        json.value = "/job/progress"
        #expect(try SourcePoller.reading(from: Array(#"{"job": {"progress": 25}}"#.utf8), json).value?.value == 0.25)
        #expect(try SourcePoller.reading(from: Array(#"{"job": {"progress": "50"}}"#.utf8), json).value?.value == 0.5)
        for (bytes, source, message) in [("no digits here", plain, "has no number in it"), ("{", json, "is not JSON"),
                                         (#"{"job": {}}"#, json, "has nothing at /job/progress"),
                                         (#"{"job": {"progress": true}}"#, json, "/job/progress is true, not a number")] {
            do throws(SourcePoller.SourceProblem) {
                _ = try SourcePoller.reading(from: Array(bytes.utf8), source)
                Issue.record("\(bytes) gave a value")
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
            }
        }
    }

    @Test func jsonPointers() throws {
        let document = try JSONValue.parse(Array(#"{"a": {"b/c": [10, {"~d": 7}]}, "": 1}"#.utf8))
        #expect(document.at(pointer: "/a/b~1c/0") == .number(10))
        #expect(document.at(pointer: "/a/b~1c/1/~0d") == .number(7))
        #expect(document.at(pointer: "/") == .number(1))
        #expect(document.at(pointer: "") == document)
        for missing in ["/a/x", "/a/b~1c/2", "/a/b~1c/01", "/a/b~1c/-1", "a", "/a~2"] { #expect(document.at(pointer: missing) == nil, "\(missing)") }
        #expect(!JSONValue.isPointer("progress") && !JSONValue.isPointer("/a~") && JSONValue.isPointer("/a~0~1"))
    }

    /// A poller on explicit times over a fake file: reads when due, sends only changes, says a
    /// problem once, turns the ring stale (spinner or look) and back.
    @Test func scheduleChangesAndStaleness() {
        var content: [UInt8]? = Array("50".utf8)
        var reads = 0
        var logged: [String] = []
        func read(_ path: String) throws(BoundedFile.Problem) -> [UInt8] {
            reads += 1
            guard let content else { throw .cannotOpen(.noSuchFileOrDirectory) }
            return content
        }
        var poller = SourcePoller(sources: [SourceConfig(ring: "batt", file: "/f", every: 10, range: ValueRange(min: 0, max: 100), stale: 25)],
                                  now: 100)
        #expect(poller.nextDeadline == 100)
        let first = poller.due(at: 100, read: read, log: { logged.append($0) })
        #expect(first == [.set(values: [.init(ring: "batt", value: 0.5)], duration: 0.5, curve: .easeInOut)])
        #expect(poller.nextDeadline == 110)
        #expect(poller.due(at: 105, read: read, log: { logged.append($0) }).isEmpty && reads == 1, "not due yet: no read")
        #expect(poller.due(at: 110, read: read, log: { logged.append($0) }).isEmpty && reads == 2, "unchanged: nothing sent")
        content = nil
        #expect(poller.due(at: 120, read: read, log: { logged.append($0) }).isEmpty)
        #expect(poller.due(at: 130, read: read, log: { logged.append($0) }).isEmpty)
        #expect(logged.count == 1 && logged[0].hasPrefix("source /f (ring batt): cannot read it"), "\(logged)")
        #expect(poller.nextDeadline == 135, "stale at the last good value (110) + 25 s")
        #expect(poller.due(at: 135, read: read, log: { logged.append($0) }) == [.spin(rings: ["batt"])])
        #expect(poller.nextDeadline == 140)
        content = Array("50".utf8)
        let back = poller.due(at: 140, read: read, log: { logged.append($0) })
        #expect(back == [.stop(rings: ["batt"]), .set(values: [.init(ring: "batt", value: 0.5)], duration: 0.5, curve: .easeInOut)],
                "the spinner stops and the value is sent again, though unchanged")
        // A reload that keeps the source keeps its state; a changed one starts afresh.
        let kept = poller.carried(to: poller.entries.map(\.source), now: 141)
        #expect(kept.entries == poller.entries)
        var look = SourceConfig(ring: "batt", file: "/f", every: 10, stale: 5, staleLook: "lost")
        look.every = 10
        var other = poller.carried(to: [look], now: 141)
        content = nil
        #expect(other.due(at: 141, read: read, log: { _ in }).isEmpty)
        #expect(other.due(at: 146, read: read, log: { _ in }) == [.look(rings: ["batt"], name: "lost")])
        content = Array("7".utf8)
        #expect(other.due(at: 151, read: read, log: { _ in }).first == .look(rings: ["batt"], name: "default"))
    }

    /// MQTT sources on explicit times: the value a JSON message points at, the look its state
    /// maps to (each sent only when it changes; unmapped states change nothing), one complaint
    /// for junk, and staleness with no file to read.
    /// A state can show a notification (over the source's ring unless it names rings) each time
    /// it comes anew; the same state again (a retained message seen twice) shows it once.
    @Test func aStateShowsANotification() throws {
        let config = try DaemonConfig.parse(Array(("{" + Self.rings + #"""
        , "looks": {"lost": {"gradient": "#808080"}}, "mqtt": {"host": "localhost"},
          "sources": [{"ring": "print", "mqtt": "octoPrint/event/#", "state": "/_event",
                       "notify": {"PrintDone": {"color": "#20ff60", "effect": "flash 3", "for": "1m"},
                                  "Error": {"look": "lost", "for": 30, "rings": ["batt", "print"], "priority": 5}}}]}
        """#).utf8))
        let source = try #require(config.sources.first)
        #expect(source.notices["PrintDone"]?.rings == ["print"] && source.notices["PrintDone"]?.duration == 60)
        #expect(source.notices["Error"]?.rings == ["batt", "print"] && source.notices["Error"]?.priority == 5)
        var poller = SourcePoller(sources: config.sources, now: 0)
        func got(_ event: String, at t: Double) -> [Request] {
            poller.received(Array(#"{"_event": "\#(event)"}"#.utf8), source: 0, at: t, log: { _ in })
        }
        #expect(got("PrintDone", at: 1) == [.notify(try #require(source.notices["PrintDone"]))])
        #expect(got("PrintDone", at: 2).isEmpty, "the same state again")
        #expect(got("ZChange", at: 3).isEmpty)
        #expect(got("PrintDone", at: 4).count == 1, "anew after another state")
        #expect(got("Error", at: 5) == [.notify(try #require(source.notices["Error"]))])
        // Issue 28: a retained state (the broker's replay after a restart) showed its
        // notification again every time; it is the state as it was, not news.
        var restarted = SourcePoller(sources: config.sources, now: 0)
        #expect(restarted.received(Array(#"{"_event": "Error"}"#.utf8), source: 0, retained: true, at: 1, log: { _ in }).isEmpty)
        #expect(restarted.received(Array(#"{"_event": "Error"}"#.utf8), source: 0, at: 2, log: { _ in }).isEmpty,
                "the same state live again")
        #expect(restarted.received(Array(#"{"_event": "PrintDone"}"#.utf8), source: 0, at: 3, log: { _ in }).count == 1)
    }

    @Test func mqttMessages() {
        var logged: [String] = []
        var poller = SourcePoller(sources: Self.printer(stale: 30), now: 0)
        #expect(poller.nextDeadline == nil, "no file to read, and no job running: no deadline")
        func got(_ json: String, _ index: Int, at t: Double) -> [Request] {
            poller.received(Array(json.utf8), source: index, at: t, log: { logged.append($0) })
        }
        #expect(got(#"{"_event": "PrintStarted"}"#, 1, at: 0.5) == [.look(rings: ["print"], name: "default")])
        #expect(poller.nextDeadline == 30.5, "a job runs: the stale clock starts")
        #expect(got(#"{"progress": 40}"#, 0, at: 1) == [.set(values: [.init(ring: "print", value: 0.4)], duration: 0.5, curve: .easeInOut)])
        #expect(got(#"{"progress": 40}"#, 0, at: 2).isEmpty)
        #expect(got(#"{"_event": "ZChange"}"#, 1, at: 3).isEmpty)
        #expect(got(#"{"_event": "PrintFailed"}"#, 1, at: 4) == [.look(rings: ["print"], name: "failed")])
        #expect(got(#"{"_event": "PrintFailed"}"#, 1, at: 5).isEmpty)
        #expect(poller.nextDeadline == nil, "the print failed: nothing more will come, and that is not stale")
        #expect(got("junk", 0, at: 6).isEmpty && got("junk", 0, at: 7).isEmpty)
        #expect(logged.count == 1 && logged[0].hasPrefix("source mqtt octoPrint/progress/printing (ring print): is not JSON"), "\(logged)")
        #expect(got(#"{"other": 1}"#, 0, at: 8).isEmpty)
        #expect(got(#"{"_event": "PrintStarted"}"#, 1, at: 9) == [.look(rings: ["print"], name: "default")])
        #expect(poller.nextDeadline == 39, "the clock starts with the job, not at the last print's progress (2)")
        #expect(poller.due(at: 39, read: { _ throws(BoundedFile.Problem) in [] }, log: { logged.append($0) }) == [.spin(rings: ["print"])])
        #expect(got(#"{"progress": 40}"#, 0, at: 40) == [.stop(rings: ["print"]), .set(values: [.init(ring: "print", value: 0.4)], duration: 0.5, curve: .easeInOut)])
        #expect(poller.received([], source: 9, at: 41, log: { _ in }).isEmpty, "an index out of range is ignored")
    }

    /// OctoPrint's recipe: a progress source with `stale` and an event source with looks.
    static func printer(stale: Double) -> [SourceConfig] {
        var progress = SourceConfig(ring: "print", file: nil, range: ValueRange(min: 0, max: 100), stale: stale, mqtt: "octoPrint/progress/printing")
        progress.value = "/progress"
        let events = SourceConfig(ring: "print", file: nil, mqtt: "octoPrint/event/#", state: "/_event",
                                  looks: ["PrintStarted": "default", "PrintFailed": "failed", "PrintDone": "done", "PrintPaused": "paused"])
        return [progress, events]
    }

    /// Issue 25: printers publish only on change, so a finished, paused or idle printer says
    /// nothing for hours; that must not turn its ring into the stale spinner. Staleness counts only
    /// while a job runs, and a job that ends while the ring is stale takes the spinner away.
    @Test func aPrinterThatIsDoneOrIdleIsNotStale() {
        var poller = SourcePoller(sources: Self.printer(stale: 120), now: 0)
        func got(_ json: String, _ index: Int, at t: Double) -> [Request] {
            poller.received(Array(json.utf8), source: index, at: t, log: { _ in })
        }
        func due(at t: Double) -> [Request] { poller.due(at: t, read: { _ throws(BoundedFile.Problem) in [] }, log: { _ in }) }
        // Idle from the start (a retained progress of the last print, no event yet).
        #expect(got(#"{"progress": 100}"#, 0, at: 1).count == 1)
        #expect(due(at: 10_000).isEmpty && poller.nextDeadline == nil, "an idle printer is not stale")
        // A print runs, then is done: the done look stays however long the printer is quiet.
        #expect(got(#"{"_event": "PrintStarted"}"#, 1, at: 10_001) == [.look(rings: ["print"], name: "default")])
        #expect(got(#"{"progress": 50}"#, 0, at: 10_050).count == 1)
        #expect(got(#"{"_event": "PrintDone"}"#, 1, at: 10_100) == [.look(rings: ["print"], name: "done")])
        #expect(due(at: 100_000).isEmpty && poller.nextDeadline == nil, "done stays done")
        // Paused is quiet too.
        #expect(got(#"{"_event": "PrintStarted"}"#, 1, at: 100_001).count == 1)
        #expect(got(#"{"_event": "PrintPaused"}"#, 1, at: 100_010) == [.look(rings: ["print"], name: "paused")])
        #expect(due(at: 200_000).isEmpty)
        // A print whose progress stops coming is stale; its end stops the spinner, then its look shows.
        #expect(got(#"{"_event": "PrintStarted"}"#, 1, at: 200_001).count == 1)
        #expect(due(at: 200_121) == [.spin(rings: ["print"])], "no progress for 2 min while printing")
        #expect(got(#"{"_event": "PrintFailed"}"#, 1, at: 200_200) == [.stop(rings: ["print"]), .look(rings: ["print"], name: "failed")])
        #expect(due(at: 300_000).isEmpty)
    }

}

