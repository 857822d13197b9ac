import Foundation
import Testing
@testable import LEDRingControl

@Suite struct RequestTests {
    typealias Update = Request.RingValueUpdate

    @Test func textAndJSONSetMeanTheSame() throws {
        let text = try Request.parse("set move 0.8 exercise 40% duration 1.5 curve spring")
        let json = try Request.parse(#"{"verb":"set","rings":{"move":0.8,"exercise":"40%"},"duration":1.5,"curve":"spring"}"#)
        let expected = Request.set(values: [Update(ring: "move", value: 0.8), Update(ring: "exercise", value: 0.4, percent: true)],
                                   duration: 1.5, curve: .spring)
        #expect(text == expected)
        // JSON objects have no order: rings come sorted by name.
        #expect(json == .set(values: [Update(ring: "exercise", value: 0.4, percent: true), Update(ring: "move", value: 0.8)],
                             duration: 1.5, curve: .spring))
    }

    /// Issue 14: a byte order mark, JSON errors with a place, values not echoed whole.
    @Test func messagesHelpAndStayShort() throws {
        #expect(try Request.parse("\u{FEFF}get") == .get)
        #expect(try Request.parse("\u{FEFF}{\"verb\":\"get\"}") == .get)
        func message(_ line: String) -> String {
            do { _ = try Request.parse(line); return "" } catch { return error.message }
        }
        #expect(message(#"{"verb":"brightness","value":1e309}"#).contains("1e309"))
        #expect(message(#"{"verb":"get",}"#).contains("line 1, column 15"))
        #expect(message(#"{"verb":"get","verb":"set"}"#).contains("duplicate key"))
        let long = String(repeating: "x", count: 10_000)
        for line in ["set move \(long)", long, "brightness \(long)", "reset curve \(long)", "get \(long)"] {
            let text = message(line)
            #expect(!text.isEmpty && text.count < 300, "\(text.prefix(100))")
        }
        #expect(!message("set move 0.5\u{1B}[2J").contains("\u{1B}"))
    }

    @Test(arguments: [("90", 90.0), ("1.5", 1.5), ("1.5s", 1.5), ("25m", 1500), ("1h30m", 5400), ("2m30s", 150),
                      ("1h", 3600), (" 45s ", 45), ("-3", -3), ("0", 0)])
    func durationsAreWrittenWithUnits(text: String, seconds: Double) {
        #expect(DurationText.parse(text) == seconds)
    }

    @Test(arguments: ["", "s", "1x", "1m1h", "1h1h", "5 m", "1..2s", "m5", "1.5.2", "abc"])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func everyPathTakesTheSameDurations() throws {
        #expect(try Request.parse("set move 0.5 duration 1m") == .set(values: [Update(ring: "move", value: 0.5)], duration: 60, curve: .easeInOut))
        #expect(try Request.parse(#"{"verb":"reset","duration":"1m30s"}"#) == .reset(duration: 90, curve: .linear))
        #expect(try SetCommand.parse(#"{"value":0.5,"duration":"2s"}"#).duration == 2)
        #expect(DurationText.format(5400) == "1h30m" && DurationText.format(90) == "1m30s" && DurationText.format(1.5) == "1.5s")
    }

    @Test func equalsSignFormLikeTheClient() throws {
        #expect(try Request.parse("set move=0.8") == .set(values: [Update(ring: "move", value: 0.8)], duration: 0, curve: .easeInOut))
    }

    @Test(arguments: [
        ("get", Request.get), ("status", .status), ("  get  \n", .get),
        ("reset", .reset(duration: 1, curve: .linear)), ("reset duration 0", .reset(duration: 0, curve: .linear)),
        ("spin stand", .spin(rings: ["stand"])), ("spin stand move", .spin(rings: ["stand", "move"])),
        ("stop", .stop(rings: [])), ("stop stand", .stop(rings: ["stand"])),
        ("brightness 0.5", .brightness(0.5)), ("brightness 25%", .brightness(0.25)),
        (#"{"verb":"get"}"#, .get), (#"{"verb":"spin","rings":["stand"]}"#, .spin(rings: ["stand"])),
        (#"{"verb":"spin","rings":"stand"}"#, .spin(rings: ["stand"])), (#"{"verb":"stop"}"#, .stop(rings: [])),
        (#"{"verb":"brightness","value":0.5}"#, .brightness(0.5)), (#"{"verb":"reset","duration":2}"#, .reset(duration: 2, curve: .linear)),
        ("power off", .power(false)), ("power ON", .power(true)), (#"{"verb":"power","on":false}"#, .power(false)),
    ])
    func verbs(line: String, expected: Request) throws {
        #expect(try Request.parse(line) == expected)
    }

    @Test(arguments: [
        ("", "empty request"), ("dance", "unknown verb \"dance\""), ("set", "set: give at least one ring"),
        ("set move", "set: \"move\" needs a value"), ("set move abc", "move \"abc\": not a number"),
        ("set move nan", "move \"nan\": not a number"), ("set move inf", "move \"inf\": not a number"),
        ("set move -0.1", "move -0.1: must be 0…100"), ("set move 101", "move 101: must be 0…100"),
        ("set move 0.5 duration -1", "duration -1: must be seconds"), ("set move 0.5 curve bouncy", "curve \"bouncy\": unknown"),
        ("spin", "spin: name the ring"), ("brightness 2", "brightness 2: must be 0…1"), ("get now", "get takes no arguments"),
        ("{", "not valid JSON"), ("[1]", "unknown verb \"[1]\""), (#"{"verb":5}"#, "missing \"verb\""),
        (#"{"verb":"set","rings":{"move":"high"}}"#, "move \"high\": must be a number"),
        (#"{"verb":"set","rings":{"move":1e300}}"#, "move 1e+300: must be 0…100"),
        (#"{"verb":"set","rings":{"move":0.5},"speed":2}"#, "set: unknown key \"speed\""),
        (#"{"verb":"set","rings":[]}"#, "set: \"rings\" must be an object"),
        (#"{"verb":"brightness"}"#, "brightness: give \"value\""),
        ("look move", "look: give the ring(s) and a look"), ("look move sparkly", "no look called \"sparkly\"; the looks are failed, default, none"),
        ("look disco failed", "no ring called \"disco\""), (#"{"verb":"look","rings":["move"]}"#, "look: give \"rings\" and \"look\""),
        (#"{"verb":"look","rings":["move"],"look":"gone"}"#, "no look called \"gone\""),
        ("set move 10001%", "move 10001%: must be 0…100"),
        (#"{"verb":"set","rings":{"move":0.5},"duration":"long"}"#, "duration \"long\": not a duration; write seconds"),
        ("set move 0.5 duration 1h2", "duration \"1h2\": not a duration"), ("set move 0.5 duration 1s30m", "duration \"1s30m\": not a duration"),
        ("set move 0.5 duration -5s", "duration -5s: must be seconds from 0 to 3600"),
        ("set move 0.5 duration 2h", "duration 2h: must be seconds from 0 to 3600"),
    ])
    func badRequestsSayWhatIsWrong(line: String, expected: String) {
        do {
            // Parsed and checked against rings as the controller does (a value's limits are its ring's).
            let request = try Request.parse(line)
            try request.validate(rings: ["move", "stand"], looks: ["failed"])
            Issue.record("parsed \(line) as \(request)")
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
        }
    }

    @Test(arguments: [
        Request.set(values: [Update(ring: "move", value: 0.8)], duration: 1.5, curve: .spring), .get,
        .reset(duration: 1, curve: .linear), .spin(rings: ["a", "b"]), .stop(rings: []), .brightness(0.25), .status,
        .power(false), .power(true), .look(rings: ["build"], name: "failed"),
        .light(rings: ["move", "stand"], on: false, duration: 2), .light(rings: ["move"], on: true, duration: 0),
        .look(rings: ["build"], name: "#ff2020 pulse"), .look(rings: ["build"], name: "#ff2020"),
        .set(values: [Update(ring: "co2", value: 812), Update(ring: "move", value: 0.4, percent: true)], duration: 0, curve: .linear),
    ])
    func encodedRequestsParseBack(request: Request) throws {
        #expect(try Request.parse(request.jsonLine) == request)
    }

    @Test func repliesAreOneJSONLine() throws {
        let reply = Reply.rings([.init(name: "move", value: 0.5, target: 0.8, spinning: false, leds: [])], brightness: 1)
        #expect(reply.jsonLine == #"{"ok":true,"rings":[{"name":"move","shown":0.5,"target":0.8,"spinning":false}],"brightness":1}"#)
        let error = Reply.error("bad \"x\"\nnext")
        #expect(error.jsonLine == #"{"ok":false,"error":"bad \"x\"\nnext"}"#)
        let object = try JSONSerialization.jsonObject(with: Data(error.jsonLine.utf8)) as? [String: Any]
        #expect(object?["error"] as? String == "bad \"x\"\nnext")
    }
}
