import Foundation

/// Polls `condition` every 50 ms for at most `seconds`; true once it holds. A bounded wait, not a
/// timing assertion: the timeout is generous and only fails a test that would otherwise hang.
func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    for _ in 0..<Int(seconds / 0.05) {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
