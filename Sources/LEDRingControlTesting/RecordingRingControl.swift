import LEDRingControl
import RingModel
import RingRender
import Synchronization

/// A `RingControl` for tests of the front ends: the real `Controller` (the same `apply` the
/// daemon's loop runs) and a real renderer, on a clock the test moves (`advance(by:)`), checking
/// each request the way `DaemonRemote` does before applying it. It records every request it
/// carried out and every refusal, so a test can check exactly what a front end sent.
public final class RecordingRingControl: RingControl {
    private struct State: ~Copyable {
        var controller: Controller
        var renderer: Renderer
        var now = 0.0
        var commands: [Request] = []
        var refusals: [RequestError] = []
    }

    /// The rings.
    public let layout: RingLayout
    private let state: Mutex<State>
    private let observers = ObserverList()

    /// A control for `layout`, every ring at 0, lit, at `brightness` and the clock at 0.
    public init(layout: RingLayout, brightness: Double = 1) {
        self.layout = layout
        state = Mutex(State(controller: Controller(layout: layout, brightness: brightness),
                            renderer: Renderer(layout: layout)))
    }

    /// A control for the seeds' three activity rings (move 24, exercise 16, stand 12 LEDs).
    public convenience init() throws(RingLayout.Problem) {
        self.init(layout: try RingLayout(rings: Palette.activityRings()))
    }

    /// Every request carried out so far, oldest first.
    public var commands: [Request] { state.withLock { $0.commands } }
    /// Every refusal so far, oldest first (a refused request changed nothing).
    public var refusals: [RequestError] { state.withLock { $0.refusals } }
    /// The controller as it is now.
    public var controller: Controller { state.withLock { $0.controller } }
    /// The clock, seconds since the control was made.
    public var now: Double { state.withLock { $0.now } }

    /// Moves the clock on (transitions progress, spinners turn, ended timers and notifications
    /// are let go as the daemon's loop does at their deadline) and tells observers.
    public func advance(by seconds: Double) {
        state.withLock {
            $0.now += max(0, seconds)
            _ = $0.controller.expire(at: $0.now)
        }
        observers.notify(snapshot())
    }

    /// Checks `request` against the rings, then applies it with `Controller.apply` at the
    /// current time; see `RingControl.submit`.
    public func submit(_ request: Request) throws(RequestError) {
        try state.withLock { (s: inout State) throws(RequestError) in
            do throws(RequestError) {
                try s.controller.validate(request)
            } catch {
                s.refusals.append(error)
                throw error
            }
            do throws(RequestError) {
                _ = try s.controller.perform(request, at: s.now, status: { RecordingRingControl.status })
            } catch {
                // Validated above, so only what `validate` cannot know (a notification's key) gets here.
                s.refusals.append(error)
                throw error
            }
            s.commands.append(request)
        }
        observers.notify(snapshot())
    }

    /// Renders the frame at the current time, as the daemon does, and describes it.
    public func snapshot() -> RingSnapshot {
        state.withLock { s in
            s.renderer.render(s.controller.scene(at: s.now))
            return RingSnapshot(controller: s.controller, frame: s.renderer.frame, layout: layout, at: s.now)
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

    /// What a `status` request reports here: a simulated output that sent nothing.
    public static let status = StatusReport.withoutOutput("test")
}
