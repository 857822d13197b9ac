import RingModel
import Testing
@testable import LEDRingControl

/// The scene is the one thing the controller hands the renderer: what each ring shows, its paint,
/// the brightness, the run-time looks and the pace. Its pace decides dithering, so it must say
/// "animating" exactly when frames come at the full rate.
@Suite struct SceneTests {
    static func controller() throws -> Controller {
        Controller(layout: try RingLayout(rings: Palette.activityRings()), brightness: 0.5)
    }

    static func apply(_ c: inout Controller, _ line: String, at t: Double) throws {
        let outcome = c.apply(try Request.parse(line), at: t, status: { fatalError() })
        #expect(outcome.reply.ok, "\(line): \(outcome.reply)")
    }

    @Test func aTransitionAnimatesAndAStillRingDoesNot() throws {
        var c = try Self.controller()
        #expect(!c.scene(at: 0).animating)
        try Self.apply(&c, "set move 0.8 duration 2", at: 10)
        let moving = c.scene(at: 11)
        #expect(moving.animating && moving.brightness == 0.5 && moving.time == 11)
        guard case .progress(let halfway) = moving.values[0] else { Issue.record("\(moving.values)"); return }
        #expect(halfway > 0 && halfway < 0.8)
        let done = c.scene(at: 12.5)
        #expect(!done.animating && done.values[0] == .progress(0.8))
    }

    /// A day-long timer's frames are spaced out to when its ring changes a level, so they are not
    /// an animation: dithering them would bring back the full frame rate.
    @Test func aSlowTimerIsNotAnAnimationButASpinnerIs() throws {
        var c = try Self.controller()
        try Self.apply(&c, "timer stand 24h", at: 0)
        #expect(!c.scene(at: 60).animating)
        try Self.apply(&c, "spin exercise", at: 60)
        let spinning = c.scene(at: 60.25)
        #expect(spinning.animating)
        guard case .spinner = spinning.values[1] else { Issue.record("\(spinning.values)"); return }
    }

    /// A colour look made at run time is in the scene's extra looks, and the ring's paint points
    /// past the layout's looks to it.
    @Test func aRunTimeColourLookIsCarriedWithItsPaint() throws {
        var c = try Self.controller()
        try Self.apply(&c, "look move #ff2020", at: 0)
        let scene = c.scene(at: 1)
        #expect(scene.extraLooks.map { $0.name } == ["#ff2020"])
        #expect(scene.paints[0].look == c.looks.count && scene.paints[1].look == nil)
    }

    /// A still colour look asks for no frames, so the daemon sleeps under it; one that pulses
    /// animates. (The no-idle-wake-ups promise under a run-time look.)
    @Test func aStillColourLookLetsTheRingsRestAndAPulseDoesNot() throws {
        var c = try Self.controller()
        try Self.apply(&c, "look move #ff2020", at: 0)
        #expect(c.frameSpacing(at: 5) == nil && !c.scene(at: 5).animating)
        try Self.apply(&c, "look move #ff2020 pulse", at: 5)
        #expect(c.frameSpacing(at: 6) == 0 && c.scene(at: 6).animating)
        #expect(c.scene(at: 6).extraLooks == [ColorLook(name: "#ff2020 pulse", color: RGB8(r: 255, g: 32, b: 32), effect: .pulse(period: Effect.defaultPulsePeriod))])
    }
}
