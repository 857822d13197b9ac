import LEDRingControl

/// The state file and when to write it: a change is saved at once, then at most every
/// `saveInterval` however fast values change; a failed write (ENOSPC, EIO, a read-only
/// directory) is logged once, keeps the previous file (`StateStore.save` replaces it only by
/// rename) and is retried every `saveRetry` seconds while the daemon goes on serving.
struct StatePersistence: Sendable {
    /// Shortest time between two state-file writes: at most four writes a second, and nothing
    /// acknowledged longer ago than this is lost by a power cut.
    static let saveInterval = 0.25
    /// Wait after a failed state write before trying again.
    static let saveRetry = 5.0

    /// The file.
    let store: StateStore
    /// Values changed since the last successful write.
    private(set) var dirty = false
    /// The earliest time of the next write.
    private(set) var nextSave = -Double.infinity
    /// The last write failed (said once, until one succeeds).
    private(set) var failing = false

    /// Persistence through `store`.
    init(store: StateStore) {
        self.store = store
    }

    /// Notes a change to save.
    mutating func changed() {
        dirty = true
    }

    /// When the next write is due; nil when there is nothing to write.
    var deadline: Double? { dirty ? nextSave : nil }

    /// Writes `state()` when a write is due at `now`; returns the line to log, if any.
    mutating func saveIfDue(at now: Double, _ state: () -> SavedState) -> String? {
        guard dirty && now >= nextSave else { return nil }
        return save(state(), at: now)
    }

    /// Writes `state` now; returns the line to log, if any. Never throws: the daemon serves on.
    mutating func save(_ state: SavedState, at now: Double) -> String? {
        do {
            try store.save(state)
            dirty = false
            nextSave = now + StatePersistence.saveInterval
            defer { failing = false }
            return failing ? "state file \(store.path) written again" : nil
        } catch {
            nextSave = now + StatePersistence.saveRetry
            defer { failing = true }
            return failing ? nil
                : "cannot save the state: \(error.description); retrying every \(Int(StatePersistence.saveRetry)) s"
        }
    }
}
