import LEDJSON
import LEDRingControl
import RingModel
import RingRender
import Testing

/// A ring switched on and off on its own, and a solid colour as a look: what Home Assistant's
/// per-ring light is built on.
@Suite struct RingLightTests {
    static func layout() throws -> RingLayout {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "failed", gradient: Gradient(solid: RGB8(r: 255, g: 32, b: 32)))]
        return layout
    }

    /// The frame `controller` shows at `t`, with no current limit (which would brighten the other
    /// rings when one goes dark).
    static func frame(_ controller: Controller, layout: RingLayout, at t: Double) -> [[String]] {
        var renderer = Renderer(layout: layout)
        renderer.limiter.maxMilliamps = 100_000
        // The controller's scene, still (not dithered), as the one frame builder draws it.
        var scene = controller.scene(at: t)
        scene.animating = false
        renderer.render(scene)
        return RingSnapshot.ledColors(of: renderer.frame, layout: layout)
    }

    static func apply(_ controller: inout Controller, _ line: String, at t: Double) throws {
        let outcome = controller.apply(try Request.parse(line), at: t, status: { fatalError() })
        if case .error(let message) = outcome.reply { Issue.record("\(line): \(message)") }
    }

    @Test func textAndJSONFormsOfTheRingsPower() throws {
        #expect(try Request.parse("power off move stand duration 2") == .light(rings: ["move", "stand"], on: false, duration: 2))
        #expect(try Request.parse("power on move") == .light(rings: ["move"], on: true, duration: 0))
        #expect(try Request.parse("power off") == .power(false))
        #expect(try Request.parse(#"{"verb":"power","on":false,"rings":["move"],"duration":1.5}"#) == .light(rings: ["move"], on: false, duration: 1.5))
        #expect(try Request.parse("look build #FF2020 pulse") == .look(rings: ["build"], name: "#FF2020 pulse"))
        #expect(throws: RequestError.self) { try Request.parse(#"{"verb":"power","on":false,"duration":1}"#) }
        #expect(throws: RequestError.self) { try Request.parse(#"{"verb":"power","on":false,"rings":[]}"#) }
    }

    @Test func offIsADarkRingThatKeepsItsValueAndLook() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        try Self.apply(&c, "set move 0.5 stand 1", at: 0)
        try Self.apply(&c, "look move failed", at: 0)
        let lit = Self.frame(c, layout: layout, at: 1)
        try Self.apply(&c, "power off move", at: 1)
        let dark = Self.frame(c, layout: layout, at: 1)
        #expect(dark[0].allSatisfy { $0 == "#000000" })
        #expect(dark[2] == lit[2], "only the ring switched off goes dark")
        #expect(c.look(of: 0) == "failed" && c.states[0].target == 0.5)
        // `get` says so (only while off, so a lit ring's reply is as before).
        let reply = c.report(at: 1).jsonLine
        #expect(reply.contains(#"{"name":"move","shown":0.5,"target":0.5,"spinning":false,"look":"failed","on":false}"#), "\(reply)")
        #expect(!reply.contains(#""name":"stand","shown":1,"target":1,"spinning":false,"on""#))
        try Self.apply(&c, "power on move", at: 2)
        #expect(Self.frame(c, layout: layout, at: 2) == lit)
    }

    @Test func aNotificationStillShowsOverARingThatIsOff() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        try Self.apply(&c, "power off move", at: 0)
        try Self.apply(&c, "notify move color #2020ff value 1 for 5s", at: 0)
        #expect(Self.frame(c, layout: layout, at: 1)[0].allSatisfy { RGB8(hex: $0).map { $0.b > 100 } ?? false })
        _ = c.expire(at: 6)
        #expect(Self.frame(c, layout: layout, at: 6)[0].allSatisfy { $0 == "#000000" })
    }

    @Test func aFadeTakesItsDuration() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        try Self.apply(&c, "set move 1", at: 0)
        try Self.apply(&c, "power off move duration 2", at: 0)
        #expect(c.level(of: 0, at: 1) == 0.5)
        #expect(c.frameSpacing(at: 1) == 0, "a fade asks for every frame")
        #expect(c.level(of: 0, at: 2) == 0)
        #expect(c.frameSpacing(at: 2) == nil)
        // Turned back on half way down: up from where it got to, not from dark.
        try Self.apply(&c, "power off exercise duration 4", at: 10)
        try Self.apply(&c, "power on exercise duration 4", at: 11)
        #expect(c.level(of: 1, at: 11) == 0.75)
        #expect(c.level(of: 1, at: 12) == 1)
    }

    @Test func aColourIsALookOfItsOwn() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        try Self.apply(&c, "set move 1", at: 0)
        try Self.apply(&c, "look move #00FF00", at: 0)
        #expect(c.look(of: 0) == "#00ff00")
        let green = Self.frame(c, layout: layout, at: 0)[0]
        #expect(green.allSatisfy { RGB8(hex: $0).map { $0.g > 150 && $0.r < 60 && $0.b < 60 } ?? false }, "\(green)")
        try Self.apply(&c, "look move #00ff00 blink", at: 0)
        #expect(c.frameSpacing(at: 0.1) == 0, "a blinking colour moves")
        #expect(Self.frame(c, layout: layout, at: 0.75)[0].allSatisfy { $0 == "#000000" })
        #expect(throws: RequestError.self) { try c.validate(.look(rings: ["move"], name: "#00ff00 sparkle")) }
    }

    @Test func offAndColoursSurviveARestartAndAReload() throws {
        let layout = try Self.layout()
        var c = Controller(layout: layout, brightness: 1)
        try Self.apply(&c, "look move #ff8000 pulse", at: 0)
        try Self.apply(&c, "power off stand", at: 0)
        let text = c.saved.json.jsonText
        #expect(text.contains(#""off":["stand"]"#) && text.contains(##""move":"#ff8000 pulse""##))
        var restored = Controller(layout: layout, brightness: 1)
        restored.restore(try SavedState(json: try JSONValue.parse(text)), at: 5)
        #expect(restored.look(of: 0) == "#ff8000 pulse")
        #expect(restored.ringsOn == [true, true, false])
        let reloaded = c.carried(to: layout)
        #expect(reloaded.look(of: 0) == "#ff8000 pulse" && reloaded.ringsOn == [true, true, false])
    }
}
