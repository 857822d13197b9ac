/// When the daemon next has to act, as a pure function of its state and the time it is given:
/// the next frame (never sooner than the wire carries one), and the poll timeout that covers it
/// and the other deadlines (state save, driver retry, idle client, button/knob). No deadline
/// means an endless poll, so an idle daemon never wakes.
struct DaemonSchedule: Equatable, Sendable {
    /// Frame rate while only dithering needs frames: enough for the eye to average two levels,
    /// far below an animation's.
    static let ditherFPS = 25.0
    /// The longest single poll, milliseconds (poll(2) takes an int; an hour is plenty).
    static let longestTimeout = 3_600_000.0

    /// Frames per second asked for (`--fps`, else the config's).
    var fps: Double
    /// The driver's wire time plus latch for one frame, seconds (0 for the simulated output).
    var wireInterval: Double
    /// When the last frame went out (monotonic seconds).
    var lastFrame = -Double.infinity
    /// Whether another frame is wanted (something moves, a value changed, a driver came back).
    var needsFrame = true
    /// Whether frames go on only because dithered LEDs sit between two levels.
    var ditherRefreshing = false
    /// How far apart the animation lets frames be (seconds; 0: as fast as allowed). Only timers
    /// running: the time their rings take to change one level (`Controller.frameSpacing`).
    var spacing = 0.0

    /// A schedule for `fps` on a wire that needs `wireInterval` seconds a frame.
    init(fps: Double, wireInterval: Double = 0) {
        self.fps = fps
        self.wireInterval = wireInterval
    }

    /// Time between frames while animating: never shorter than the wire and latch need.
    var frameInterval: Double { max(1 / fps, wireInterval) }

    /// Time between frames now: slower while only dithering, or while only slow timers move.
    var currentInterval: Double {
        ditherRefreshing ? max(frameInterval, 1 / DaemonSchedule.ditherFPS) : max(frameInterval, spacing)
    }

    /// When the next frame is due; nil when none is wanted.
    var nextFrame: Double? { needsFrame ? lastFrame + currentInterval : nil }

    /// Whether a frame should be rendered and sent at `now`.
    func frameDue(at now: Double) -> Bool {
        guard let next = nextFrame else { return false }
        return now >= next
    }

    /// Asks for a frame because something changed (a request, a driver back, a button): it comes
    /// one frame interval after the last, not a slow timer's or the dither refresh's spacing
    /// later, so a `set` shows within a frame even while a 24-hour timer paces the frames.
    mutating func wantFrame() {
        needsFrame = true
        spacing = 0
        ditherRefreshing = false
    }

    /// Records a frame sent at `now`; frames go on while `animating` (at most every `spacing`
    /// seconds apart) or `dithering`.
    mutating func frameSent(at now: Double, animating: Bool, dithering: Bool, spacing: Double = 0) {
        lastFrame = now
        ditherRefreshing = dithering
        needsFrame = animating || dithering
        self.spacing = animating ? spacing : 0
    }

    /// Milliseconds from `now` until the earliest of the next frame and the other deadlines
    /// (monotonic seconds, nil for none); -1 when there is no deadline at all. Rounded up, so
    /// the loop never wakes just before a deadline and spins; 0 when one has passed.
    func pollTimeout(now: Double, save: Double? = nil, retry: Double? = nil, idleClient: Double? = nil,
                     inputs: Double? = nil, notice: Double? = nil, source: Double? = nil) -> Int32 {
        let deadlines = [nextFrame, save, retry, idleClient, inputs, notice, source].compactMap { $0 }
        guard let deadline = deadlines.min(), deadline < .infinity else { return -1 }
        // Less a microsecond, so the rounding noise of seconds as doubles (10.25 - 10.1 is
        // 0.15000000000000036) does not add a whole millisecond.
        let milliseconds = (deadline - now) * 1000 - 0.001
        guard milliseconds > 0 else { return 0 }
        return Int32(min(milliseconds.rounded(.up), DaemonSchedule.longestTimeout))
    }
}
