import RingModel

/// What the rings show right now: what MQTT state topics publish and the web page draws.
public struct RingSnapshot: Equatable, Sendable {
    /// One ring's part of the snapshot.
    public struct Ring: Equatable, Sendable {
        /// The ring's name.
        public var name: String
        /// The value shown in the current frame (mid-transition it lies between old and new).
        public var value: Double
        /// The value the ring is heading for (equal to `value` once settled).
        public var target: Double
        /// Whether the indeterminate spinner runs (the target is kept for when it stops).
        public var spinning: Bool
        /// The current frame's drive levels as `#rrggbb`, from 12 o'clock in the direction of
        /// travel (position order, not chain order), segment after segment.
        public var leds: [String]
        /// The look it shows (nil: its own picture).
        public var look: String? = nil
        /// Its timer, if it has one.
        public var timer: Timer? = nil
        /// The notification showing over it, if one does.
        public var notice: ShownNotice? = nil
        /// Whether it is switched on (`Request.light`); off, its LEDs are dark unless a
        /// notification shows over it.
        public var on = true
        /// `target` in the ring's own units, for a ring with a `range` (`812` ppm, not 0.406
        /// laps); nil without one.
        public var units: Double? = nil
        /// The same LEDs as a screen shows their light (`SRGB.display` of each drive level), in
        /// the same order: what a picture of the ring paints.
        public var display: [String]
        /// How its spinner moves, while it shows one (for a page to move it between snapshots).
        public var spin: Spin? = nil

        /// Makes a ring entry; `display` defaults to the screen colours of `leds`.
        public init(name: String, value: Double, target: Double, spinning: Bool, leds: [String],
                    display: [String]? = nil) {
            self.name = name
            self.value = value
            self.target = target
            self.spinning = spinning
            self.leds = leds
            self.display = display ?? Ring.display(of: leds)
        }

        /// How a screen shows `leds` (drive levels as `#rrggbb`): `SRGB.display` of each.
        public static func display(of leds: [String]) -> [String] {
            leds.map { RGB8(hex: $0).map { SRGB.display($0).hex } ?? $0 }
        }
    }

    /// Where a ring's spinner is and where it goes, so a page can move it between snapshots
    /// (they come at most every `eventInterval`, 10 Hz, while the LEDs move at the frame rate)
    /// without knowing the spinner's curve: its tail sampled over one whole cycle.
    public struct Spin: Equatable, Sendable {
        /// Seconds after which the motion repeats: a sweep, or two when every other one reverses.
        public var cycle: Double
        /// Seconds into the cycle at the snapshot's time (when its LEDs were drawn).
        public var at: Double
        /// The tail's position, in turns from 12 o'clock, at `samplesPerSweep` even steps per
        /// sweep over one cycle, both ends included (positions are mod 1: a sweep that starts
        /// again at 12 o'clock ends on 1 and the next sample is 0, the same place).
        public var tail: [Double]
        /// The LED count of each circle the spinner runs on (a pie spins on each of its
        /// circles), in the order of `leds`.
        public var segments: [Int]

        /// Samples of the tail per sweep: enough that straight lines between them stay within a
        /// thousandth of a turn of an ease-in-out sweep.
        public static let samplesPerSweep = 64

        /// A spin entry.
        public init(cycle: Double, at: Double, tail: [Double], segments: [Int]) {
            self.cycle = cycle
            self.at = at
            self.tail = tail
            self.segments = segments
        }

        /// `spinner`, `elapsed` seconds after it began, on circles of `segments` LEDs.
        public init(_ spinner: Spinner, elapsed: Double, segments: [Int]) {
            let sweeps = spinner.reverses ? 2 : 1
            let cycle = spinner.period * Double(sweeps)
            let steps = Spin.samplesPerSweep * sweeps
            let tail = (0...steps).map { i -> Double in
                // The last sample is the cycle's end, not the next cycle's start (they differ
                // only when a sweep starts again at 12 o'clock: 1 against 0).
                i == steps && !spinner.reverses ? 1 : spinner.tailPosition(at: cycle * Double(i) / Double(steps))
            }
            let at = cycle > 0 && elapsed.isFinite ? elapsed - (elapsed / cycle).rounded(.down) * cycle : 0
            self.init(cycle: cycle, at: at, tail: tail, segments: segments)
        }
    }

    /// A ring's timer as the snapshot's time sees it.
    public struct Timer: Equatable, Sendable {
        /// Seconds left.
        public var left: Double
        /// How long it runs in all, seconds.
        public var duration: Double
        /// Whether it is paused (`left` then stays put).
        public var paused: Bool
        /// Whether the ring fills instead of draining.
        public var up: Bool
        /// The look it switches to at the end, if any.
        public var then: String?

        /// A timer entry.
        public init(left: Double, duration: Double, paused: Bool = false, up: Bool = false, then: String? = nil) {
            self.left = left
            self.duration = duration
            self.paused = paused
            self.up = up
            self.then = then
        }

        /// `timer` as it stands at `t`.
        public init(_ timer: RingTimer, at t: Double) {
            self.init(left: timer.remaining(at: t), duration: timer.duration, paused: timer.pausedAt != nil,
                      up: timer.up, then: timer.then)
        }
    }

    /// Every ring, in chain order.
    public var rings: [Ring]
    /// Overall brightness, 0…1.
    public var brightness: Double
    /// Whether the LEDs are on (off shows black whatever the values).
    public var power: Bool
    /// The looks the config names, which any ring can switch to.
    public var looks: [String] = []

    /// Makes a snapshot.
    public init(rings: [Ring], brightness: Double, power: Bool) {
        self.rings = rings
        self.brightness = brightness
        self.power = power
    }

    /// The ring called `name`, if there is one.
    public func ring(named name: String) -> Ring? {
        rings.first { $0.name == name }
    }

    /// Each ring's LEDs of `frame` (chain order, as `Renderer.frame`) as `#rrggbb` in position
    /// order, so a drawing starts at 12 o'clock whichever LED sits there on the chain.
    public static func ledColors(of frame: [RGB8], layout: RingLayout) -> [[String]] {
        layout.rings.enumerated().map { index, ring in
            var colours: [String] = []
            colours.reserveCapacity(ring.ledCount)
            var offset = layout.offsets[index]
            for segment in ring.segments {
                for k in 0..<segment.ledCount {
                    let i = offset + segment.physicalIndex(ofPosition: k)
                    colours.append(i < frame.count ? frame[i].hex : RGB8.black.hex)
                }
                offset += segment.ledCount
            }
            return colours
        }
    }
}
