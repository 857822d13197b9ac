/// The values written to the state file: what a restart puts back.
public struct SavedState: Equatable, Sendable {
    /// Target value per ring name.
    public var rings: [String: Double]
    /// Rings showing the spinner.
    public var spinning: [String]
    /// Overall light, 0…1, when it was changed at run time.
    public var brightness: Double?
    /// Looks chosen at run time, by ring name.
    public var looks: [String: String]
    /// Notifications still showing, each with its end on the wall clock (`CLOCK_REALTIME`
    /// seconds): the monotonic clock restarts with the machine, the wall clock carries across.
    public var notices: [SavedNotice] = []
    /// Timers by ring name, their times on the wall clock.
    public var timers: [String: RingTimer] = [:]
    /// Rings switched off (`Request.light`), by name.
    public var off: [String] = []
    /// False when every LED was switched off (`power off`): a reboot at night keeps them dark.
    public var power = true

    /// A notification in the state file.
    public struct SavedNotice: Equatable, Sendable {
        /// What was asked.
        public var notice: Notice
        /// When it ends, wall-clock seconds since 1970.
        public var until: Double

        /// A saved notification.
        public init(notice: Notice, until: Double) {
            self.notice = notice
            self.until = until
        }
    }

    /// Saved values.
    public init(rings: [String: Double], spinning: [String], brightness: Double?, looks: [String: String] = [:]) {
        self.rings = rings
        self.spinning = spinning
        self.brightness = brightness
        self.looks = looks
    }

    /// Why a decoded state cannot be used, or nil when every value is in range.
    public var problem: String? {
        // The limits every request is held to, so a hand-edited file cannot restore what no
        // front end would accept.
        do throws(RequestError) {
            for (name, value) in rings.sorted(by: { $0.key < $1.key }) { _ = try Request.checkedValue(value, ring: name) }
            if let b = brightness { _ = try Request.checkedBrightness(b) }
        } catch {
            return error.message
        }
        return nil
    }
}
