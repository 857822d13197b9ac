import LEDRingControl
import RingRender
import Synchronization

/// A `RingControl` that keeps the rings in memory and renders real frames with RingRender, on a
/// clock the caller moves (`advance(by:)`): what tests drive the MQTT bridge and the HTTP server
/// with, and a reference for how the daemon should behave.
public final class InMemoryRingControl: RingControl {
    /// One request the control accepted, in order, so tests can check what a front end sent.
    public enum Command: Equatable, Sendable {
        /// `set(values, duration:, curve:)`.
        case set([String: Double], duration: Double?, curve: Curve?)
        /// `reset()`.
        case reset
        /// `spin(ring)`.
        case spin(String)
        /// `stop(ring)`.
        case stop(String)
        /// `setBrightness(value)`.
        case brightness(Double)
        /// `setPower(on)`.
        case power(Bool)
    }

    private struct State: ~Copyable {
        var renderer: Renderer
        var rings: [RingState]
        var now = 0.0
        var brightness = 1.0
        var power = true
        var commands: [Command] = []
    }

    /// The rings.
    public let layout: RingLayout
    private let state: Mutex<State>
    private let observers = ObserverList()

    /// A control for `layout`, every ring at 0 and the clock at 0.
    public init(layout: RingLayout) {
        self.layout = layout
        state = Mutex(State(renderer: Renderer(layout: layout),
                            rings: Array(repeating: RingState(), count: layout.rings.count)))
    }

    /// A control for the seeds' three activity rings (move 24, exercise 16, stand 12 LEDs).
    public convenience init() throws(RingLayout.Problem) {
        self.init(layout: try RingLayout(rings: Palette.activityRings()))
    }

    /// Every request accepted so far, oldest first.
    public var commands: [Command] { state.withLock { $0.commands } }

    /// Moves the clock on (transitions progress, spinners turn) and tells observers.
    public func advance(by seconds: Double) {
        state.withLock { $0.now += max(0, seconds) }
        observers.notify(snapshot())
    }

    /// Heads each named ring for its value; see `RingControl.set`.
    public func set(_ values: [String: Double], duration: Double?, curve: Curve?) throws(ControlError) {
        var indices: [(Int, Double)] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let index = layout.index(of: name) else {
                throw .unknownRing(name, known: layout.rings.map(\.name))
            }
            guard value.isFinite, (0...SetCommand.maxValue).contains(value) else {
                throw .badValue(ring: name, value: value)
            }
            indices.append((index, value))
        }
        if let duration, !(duration.isFinite && (0...SetCommand.maxDuration).contains(duration)) {
            throw .badDuration(duration)
        }
        state.withLock { s in
            for (index, value) in indices {
                s.rings[index].set(value, at: s.now, duration: duration ?? 0, curve: curve ?? .easeInOut)
            }
            s.commands.append(.set(values, duration: duration, curve: curve))
        }
        observers.notify(snapshot())
    }

    /// Every ring back to 0, spinners stopped.
    public func reset() {
        state.withLock { s in
            for index in s.rings.indices { s.rings[index].set(0, at: s.now, duration: 0) }
            s.commands.append(.reset)
        }
        observers.notify(snapshot())
    }

    /// Starts the spinner on `ring`.
    public func spin(_ ring: String) throws(ControlError) {
        let index = try self.index(of: ring)
        state.withLock { s in
            s.rings[index].spin(at: s.now)
            s.commands.append(.spin(ring))
        }
        observers.notify(snapshot())
    }

    /// Stops the spinner on `ring`.
    public func stop(_ ring: String) throws(ControlError) {
        let index = try self.index(of: ring)
        state.withLock { s in
            s.rings[index].stopSpinning()
            s.commands.append(.stop(ring))
        }
        observers.notify(snapshot())
    }

    /// Overall brightness, 0…1.
    public func setBrightness(_ brightness: Double) throws(ControlError) {
        guard brightness.isFinite, (0...1).contains(brightness) else { throw .badBrightness(brightness) }
        state.withLock { s in
            s.brightness = brightness
            s.renderer.pipeline.brightness = Float(brightness)
            s.commands.append(.brightness(brightness))
        }
        observers.notify(snapshot())
    }

    /// LEDs on or off.
    public func setPower(_ on: Bool) {
        state.withLock { s in
            s.power = on
            s.commands.append(.power(on))
        }
        observers.notify(snapshot())
    }

    /// Renders the frame at the current time and describes it.
    public func snapshot() -> RingSnapshot {
        state.withLock { s in
            let values = s.renderer.values(for: s.rings, at: s.now)
            s.renderer.render(values)
            let frame = s.power ? s.renderer.frame : Array(repeating: .black, count: layout.ledCount)
            let colours = RingSnapshot.ledColors(of: frame, layout: layout)
            var rings: [RingSnapshot.Ring] = []
            for (index, spec) in layout.rings.enumerated() {
                let ring = s.rings[index]
                rings.append(RingSnapshot.Ring(name: spec.name, value: ring.shown(at: s.now), target: ring.target,
                                               spinning: ring.spinningSince != nil, leds: colours[index]))
            }
            return RingSnapshot(rings: rings, brightness: s.brightness, power: s.power)
        }
    }

    /// See `RingControl.addObserver`.
    public func addObserver(_ observer: @escaping @Sendable (RingSnapshot) -> Void) -> ObserverID {
        observers.add(observer)
    }

    /// See `RingControl.removeObserver`.
    public func removeObserver(_ id: ObserverID) {
        observers.remove(id)
    }

    private func index(of ring: String) throws(ControlError) -> Int {
        guard let index = layout.index(of: ring) else {
            throw .unknownRing(ring, known: layout.rings.map(\.name))
        }
        return index
    }
}
