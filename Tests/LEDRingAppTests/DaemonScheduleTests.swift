import Glibc
import LEDHardware
import LEDRingControl
import LEDRingTesting
import RingModel
import Testing
@testable import LEDRingApp

/// The daemon's promises about time, on the pure schedule: an idle daemon never wakes, and two
/// frames are never closer than the wire time plus latch of the driver, for every driver kind at
/// the highest frame rate `--fps` accepts.
@Suite struct DaemonScheduleTests {
    /// The highest `--fps` (DaemonOptions, DaemonConfig: 1...240).
    static let maxFPS = 240.0
    static let ledCount = 1024

    /// The wire time plus latch of `kind` driving `ledCount` LEDs, as the daemon learns it: from
    /// the driver it opened (on a fake kernel, dumping the wire to a file).
    static func wireInterval(_ kind: DriverKind) throws -> Double {
        guard kind != .simulate else { return 0 }
        let fake = FakeSystemCalls()
        fake.addDirectory("/tmp")
        var settings = DriverSettings(kind: kind, ledCount: ledCount)
        settings.dumpPath = "/tmp/wire.bin"
        let output = DriverOutput(name: kind.rawValue, device: nil) { () throws(HardwareError) -> LEDDriver in
            try settings.makeDriver(system: fake)
        }
        try output.open(at: 0)
        #expect(output.isUp, "\(kind) did not open")
        return output.minimumFrameInterval
    }

    /// Frames while only a slow timer runs come `spacing` apart, never closer than the frame
    /// rate; when the animation stops needing the pace, the full rate is back.
    @Test func aSlowTimerSpacesFramesOut() {
        var schedule = DaemonSchedule(fps: 60)
        schedule.frameSent(at: 10, animating: true, dithering: false, spacing: 0.25)
        #expect(schedule.nextFrame == 10.25)
        #expect(schedule.pollTimeout(now: 10) == 250)
        schedule.frameSent(at: 10.25, animating: true, dithering: false, spacing: 0.001)
        #expect(schedule.nextFrame == 10.25 + 1.0 / 60)
        schedule.frameSent(at: 11, animating: true, dithering: false)
        #expect(schedule.nextFrame == 11 + 1.0 / 60)
        schedule.frameSent(at: 12, animating: false, dithering: false, spacing: 0.25)
        #expect(schedule.nextFrame == nil)
    }

    /// A request while a slow timer paces the frames (24 h over 12 LEDs × 256 levels: 28 s
    /// apart) is shown one frame interval after the last frame, not at the timer's next step.
    @Test func aRequestDuringASlowTimerIsShownWithinAFrame() {
        var schedule = DaemonSchedule(fps: 30)
        let pace = 86_400.0 / (12 * 256)
        schedule.frameSent(at: 100, animating: true, dithering: false, spacing: pace)
        #expect(schedule.nextFrame == 100 + pace)
        schedule.wantFrame()
        #expect(schedule.nextFrame == 100 + 1.0 / 30)
        #expect(schedule.pollTimeout(now: 100.01) == 24)
        // After that frame the timer paces them again.
        schedule.frameSent(at: 100 + 1.0 / 30, animating: true, dithering: false, spacing: pace)
        #expect(schedule.nextFrame == 100 + 1.0 / 30 + pace)
        // The dither refresh's slower rate gives way to a request too.
        schedule.frameSent(at: 200, animating: false, dithering: true)
        schedule.wantFrame()
        #expect(schedule.nextFrame == 200 + 1.0 / 30)
    }

    /// A look without an effect is a still picture: the controller asks for no more frames, so
    /// the schedule has no deadline; a pulsing look keeps frames coming until it is switched off.
    @Test func aStillLookHasNoDeadlineAndAPulseHasOne() throws {
        var layout = try RingLayout(rings: Palette.activityRings())
        layout.looks = [Look(name: "passed", gradient: Gradient(solid: RGB8(r: 32, g: 255, b: 96))),
                        Look(name: "failed", effect: .pulse(period: 2))]
        var controller = Controller(layout: layout, brightness: 1)
        var schedule = DaemonSchedule(fps: 30)
        _ = controller.apply(.look(rings: ["move"], name: "passed"), at: 10, status: { fatalError() })
        schedule.frameSent(at: 10, animating: controller.isAnimating(at: 10), dithering: false)
        #expect(schedule.pollTimeout(now: 10) == -1)
        _ = controller.apply(.look(rings: ["stand"], name: "failed"), at: 11, status: { fatalError() })
        schedule.frameSent(at: 11, animating: controller.isAnimating(at: 11), dithering: false)
        #expect(schedule.pollTimeout(now: 11) == 34)
        _ = controller.apply(.look(rings: ["stand"], name: "default"), at: 12, status: { fatalError() })
        schedule.frameSent(at: 12, animating: controller.isAnimating(at: 12), dithering: false)
        #expect(schedule.pollTimeout(now: 12) == -1)
    }

    @Test func anIdleDaemonHasNoDeadline() {
        var schedule = DaemonSchedule(fps: 30, wireInterval: 0.031)
        schedule.frameSent(at: 100, animating: false, dithering: false)
        #expect(!schedule.frameDue(at: 1e9))
        #expect(schedule.pollTimeout(now: 100) == -1)
        #expect(schedule.pollTimeout(now: 1e6) == -1)
        // Nothing else pending either: nil deadlines add none.
        #expect(schedule.pollTimeout(now: 100, save: nil, retry: nil, idleClient: nil, inputs: nil) == -1)
    }

    @Test func theFirstFrameIsDueAtOnce() {
        let schedule = DaemonSchedule(fps: 30)
        #expect(schedule.frameDue(at: 0))
        #expect(schedule.pollTimeout(now: 0) == 0)
    }

    @Test(arguments: DriverKind.allCases)
    func framesAreNeverCloserThanTheWireAllows(_ kind: DriverKind) throws {
        let wire = try DaemonScheduleTests.wireInterval(kind)
        if kind.clocklessChip != nil {
            // 1024 WS2812/SK6812 LEDs are ~31 ms on the wire, far more than 1/240 s.
            #expect(wire > 1 / DaemonScheduleTests.maxFPS)
        }
        var schedule = DaemonSchedule(fps: DaemonScheduleTests.maxFPS, wireInterval: wire)
        var now = 0.0
        var frames: [Double] = []
        // An endless animation, with the loop also woken early by input at odd moments.
        for step in 0..<2000 {
            if schedule.frameDue(at: now) {
                frames.append(now)
                schedule.frameSent(at: now, animating: true, dithering: false)
            }
            let timeout = schedule.pollTimeout(now: now)
            #expect(timeout >= 0, "an animating daemon must wake for its next frame")
            let early = step % 3 == 0 ? Double(step % 7) * 0.0007 : .infinity
            now += min(Double(timeout) / 1000, early)
        }
        #expect(frames.count > 10)
        let shortest = zip(frames.dropFirst(), frames).map { $0 - $1 }.min() ?? .infinity
        #expect(shortest >= wire, "\(kind): frames \(shortest) s apart, the wire needs \(wire) s")
        #expect(shortest >= 1 / DaemonScheduleTests.maxFPS - 1e-9)
    }

    @Test func ditheringRefreshesSlowly() {
        var schedule = DaemonSchedule(fps: 240)
        schedule.frameSent(at: 10, animating: false, dithering: true)
        #expect(schedule.nextFrame == 10 + 1 / DaemonSchedule.ditherFPS)
        #expect(schedule.pollTimeout(now: 10) == 40)
        schedule.frameSent(at: 10.04, animating: true, dithering: false)
        #expect(schedule.pollTimeout(now: 10.04) == 5)  // 1/240 s, rounded up
    }

    @Test func theEarliestDeadlineWinsAndIsRoundedUp() {
        var schedule = DaemonSchedule(fps: 30)
        schedule.frameSent(at: 0, animating: false, dithering: false)
        #expect(schedule.pollTimeout(now: 0, save: 0.2501) == 251)
        #expect(schedule.pollTimeout(now: 0, save: 5, retry: 0.5, idleClient: 30, inputs: 2) == 500)
        #expect(schedule.pollTimeout(now: 1, retry: 0.5) == 0)
        #expect(schedule.pollTimeout(now: 0, idleClient: 1e7) == 3_600_000)
    }
}
