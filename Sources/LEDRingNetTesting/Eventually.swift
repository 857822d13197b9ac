import Foundation

/// Polls `condition` every 50 ms until it holds, for at most `seconds` of monotonic time (and
/// at most that many polls, should a slow condition stretch each one); true once it holds. A
/// bounded wait, not a timing assertion: the limit is generous and only fails a test that would
/// otherwise hang.
public func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    for _ in 0..<Int(seconds / 0.05) {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        usleep(50_000)
    }
    return try condition()
}

/// A monotonic deadline for loops that read from sockets and pipes.
public struct Deadline {
    private let clock = ContinuousClock()
    private let end: ContinuousClock.Instant

    /// `seconds` from now.
    public init(seconds: Double) { end = clock.now.advanced(by: .milliseconds(Int(seconds * 1000))) }

    /// Whether it has passed.
    public var passed: Bool { clock.now >= end }
}
