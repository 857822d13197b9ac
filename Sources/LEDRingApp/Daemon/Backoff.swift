/// Exponential back-off for re-opening a driver: quick retries when a device blips, no busy
/// loop when it is gone for good.
struct Backoff: Equatable, Sendable {
    /// The first delay, seconds.
    let initial: Double
    /// The longest delay, seconds.
    let maximum: Double
    /// The delay the next failure waits.
    private(set) var next: Double

    /// 0.5 s doubling up to 30 s unless told otherwise.
    init(initial: Double = 0.5, maximum: Double = 30) {
        self.initial = initial
        self.maximum = maximum
        self.next = initial
    }

    /// The delay for this failure; the one after is twice as long, up to the maximum.
    mutating func delay() -> Double {
        let current = next
        next = Swift.min(next * 2, maximum)
        return current
    }

    /// Back to the first delay, after a success.
    mutating func reset() {
        next = initial
    }
}
