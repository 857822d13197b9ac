import LEDJSON
import Testing
@testable import LEDRingControl

@Suite struct ControllerTests {
    let status = StatusReport(driver: "test", device: nil, driverUp: true, leds: 52, fps: 30, frameInterval: 1.0 / 30,
                              framesSent: 0, errors: 0, lastError: nil, estimatedMilliamps: 0, maxMilliamps: nil,
                              animating: false, clients: 0, uptime: 0, config: nil)

    @Test func statusRoundsTheFrameIntervalToTenMicroseconds() {
        #expect(status.jsonLine.contains("\"frameInterval\":0.03333,"))
    }

    func controller() -> Controller { Controller(names: ["move", "exercise", "stand"], brightness: 1) }

    func apply(_ c: inout Controller, _ line: String, at t: Double) throws -> Controller.Outcome {
        c.apply(try Request.parse(line), at: t, status: { status })
    }

    func rings(_ reply: Reply) -> [RingSnapshot.Ring] {
        if case .rings(let rings, _, _) = reply { return rings }
        return []
    }

    @Test func setAnimatesFromTheShownValue() throws {
        var c = controller()
        let outcome = try apply(&c, "set move 0.8 duration 2 curve linear", at: 10)
        #expect(outcome.changed)
        #expect(rings(outcome.reply)[0] == .init(name: "move", value: 0, target: 0.8, spinning: false, leds: []))
        #expect(c.isAnimating(at: 11))
        #expect(rings(c.report(at: 11))[0].value == 0.4)
        #expect(rings(c.report(at: 12))[0].value == 0.8)
        #expect(!c.isAnimating(at: 12))
        // A new value starts from what is shown, not from the old target.
        _ = try apply(&c, "set move 0 duration 2 curve linear", at: 11)
        #expect(abs(rings(c.report(at: 12))[0].value - 0.2) < 1e-12)
    }

    @Test func aBadRequestChangesNothing() throws {
        var c = controller()
        _ = try apply(&c, "set move 0.5", at: 0)
        let outcome = try apply(&c, "set move 0.9 nope 0.1", at: 1)
        #expect(!outcome.changed)
        #expect(outcome.reply == .error("no ring called \"nope\"; the rings are move, exercise, stand"))
        #expect(rings(c.report(at: 2))[0].target == 0.5)
    }

    @Test func aBadValueAfterAGoodOneChangesNothingEither() {
        var c = controller()
        let outcome = c.apply(.set(values: [.init(ring: "move", value: 0.5), .init(ring: "stand", value: 101)], duration: 0,
                                   curve: .easeInOut), at: 0, status: { status })
        #expect(!outcome.changed && !outcome.reply.ok)
        #expect(rings(c.report(at: 1))[0].target == 0)
    }

    /// Issue 28: all LEDs off was lost on a restart, so a reboot at night lit them.
    @Test func powerOffKeepsTheValuesAndIsSaved() throws {
        var c = controller()
        _ = try apply(&c, "set move 0.5", at: 0)
        #expect(c.saved.json.jsonText == #"{"rings":{"exercise":0,"move":0.5,"stand":0},"spinning":[]}"#,
                "lit: the same bytes as before power was saved")
        #expect(try apply(&c, "power off", at: 1).changed)
        #expect(!c.power && rings(c.report(at: 1))[0].target == 0.5)
        #expect(try !apply(&c, "power off", at: 2).changed)
        var off = SavedState(rings: ["move": 0.5, "exercise": 0, "stand": 0], spinning: [], brightness: nil)
        off.power = false
        #expect(c.saved == off)
        let file = try SavedState(json: c.saved.json)
        #expect(file == off, "through the file's JSON")
        var restarted = controller()
        restarted.restore(file, at: 0)
        #expect(!restarted.power && rings(restarted.report(at: 0))[0].target == 0.5)
        #expect(!c.carried(to: ["move"]).power)
        _ = try apply(&c, "power on", at: 3)
        #expect(c.power && c.saved.power)
        let wrong = try JSONValue.parse(#"{"rings":{},"spinning":[],"power":"off"}"#)
        #expect(throws: JSONProblem.self) { try SavedState(json: wrong) }
    }

    @Test func resetAnimatesEveryRingToZeroAndStopsSpinners() throws {
        var c = controller()
        _ = try apply(&c, "set move 1 stand 0.5", at: 0)
        _ = try apply(&c, "spin exercise", at: 0)
        _ = try apply(&c, "reset duration 1", at: 5)
        #expect(c.isAnimating(at: 5.5))
        #expect(rings(c.report(at: 5.5)).allSatisfy { !$0.spinning && $0.target == 0 })
        #expect(rings(c.report(at: 6)).allSatisfy { $0.value == 0 })
    }

    @Test func spinKeepsTheTargetAndStopShowsItAgain() throws {
        var c = controller()
        _ = try apply(&c, "set stand 0.45", at: 0)
        _ = try apply(&c, "spin stand", at: 1)
        #expect(rings(c.report(at: 2))[2] == .init(name: "stand", value: 0.45, target: 0.45, spinning: true, leds: []))
        #expect(c.isAnimating(at: 100))
        _ = try apply(&c, "stop", at: 3)
        #expect(!c.isAnimating(at: 3))
        #expect(c.saved.spinning.isEmpty)
    }

    @Test func brightnessAndStatus() throws {
        var c = controller()
        let b = try apply(&c, "brightness 0.25", at: 0)
        #expect(b.changed && c.brightness == 0.25)
        let s = try apply(&c, "status", at: 0)
        #expect(!s.changed && s.reply == .status(status))
        #expect(try apply(&c, "get", at: 0).changed == false)
    }

    @Test func manyRequestsCollapseIntoTheLatestValues() throws {
        var c = controller()
        for k in 0..<10_000 {
            _ = c.apply(.set(values: [.init(ring: "move", value: Double(k % 100) / 100)], duration: 0.5, curve: .linear),
                        at: Double(k) * 1e-4, status: { status })
        }
        #expect(c.states.count == 3)
        #expect(rings(c.report(at: 10))[0].target == 0.99)
    }

    @Test func savedStateRestoresTargetsSpinnersAndBrightness() throws {
        var c = controller()
        _ = try apply(&c, "set move 1.3 exercise 0.75 duration 5", at: 0)
        _ = try apply(&c, "spin stand", at: 0)
        _ = try apply(&c, "brightness 0.5", at: 0)
        var d = controller()
        d.restore(c.saved, at: 100)
        // Restored values are shown at once: the targets were acknowledged before the restart.
        #expect(rings(d.report(at: 100)).map(\.value) == [1.3, 0.75, 0])
        #expect(rings(d.report(at: 100))[2].spinning && d.brightness == 0.5)
    }

    @Test func onlyARunTimeBrightnessIsSaved() throws {
        var c = controller()
        #expect(c.saved.brightness == nil)
        _ = try apply(&c, "brightness 0.3", at: 0)
        #expect(c.saved.brightness == 0.3)
        #expect(c.carried(to: c.names).saved.brightness == 0.3)
        #expect(c.carried(to: c.names, brightness: 0.8).saved.brightness == nil)
    }

    @Test func reloadKeepsValuesByName() throws {
        var c = controller()
        _ = try apply(&c, "set move 0.8 stand 0.3", at: 0)
        let d = c.carried(to: ["stand", "queue"])
        #expect(rings(d.report(at: 1)).map(\.target) == [0.3, 0])
        #expect(d.names == ["stand", "queue"])
    }

    @Test func savedStateWithValuesOutOfRangeIsRefused() {
        #expect(SavedState(rings: ["a": 1000], spinning: [], brightness: nil).problem != nil)
        #expect(SavedState(rings: ["a": 0.5], spinning: [], brightness: 3).problem != nil)
        #expect(SavedState(rings: ["a": 0.5], spinning: [], brightness: 1).problem == nil)
    }
}
