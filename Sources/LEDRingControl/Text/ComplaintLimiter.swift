/// Lets a burst of complaints about bad input into the log, then counts the rest until the
/// window ends and reports the count once, so a flood of junk cannot flood the journal.
public struct ComplaintLimiter: Sendable {
    /// Complaints logged per window.
    public let burst: Int
    /// Window length, seconds.
    public let window: Double
    private var windowStart = -Double.infinity
    private var logged = 0
    private var suppressed = 0

    /// A limiter letting `burst` complaints through every `window` seconds.
    public init(burst: Int = 10, window: Double = 60) {
        self.burst = burst
        self.window = window
    }

    /// What to log for a complaint at `now`: lines to write (the complaint, perhaps preceded by a
    /// count of those held back and followed by a note that more will be held back). Empty when
    /// this one is held back.
    public mutating func admit(_ complaint: String, at now: Double) -> [String] {
        var lines: [String] = []
        if now >= windowStart + window {
            if suppressed > 0 { lines.append("\(suppressed) more like that were not logged in the last \(Int(window)) s") }
            windowStart = now
            logged = 0
            suppressed = 0
        }
        guard logged < burst else {
            suppressed += 1
            return lines
        }
        logged += 1
        lines.append(logged == burst ? complaint + " (further ones in the next \(Int(window)) s are counted, not logged)" : complaint)
        return lines
    }
}
