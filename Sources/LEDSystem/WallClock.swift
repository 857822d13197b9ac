import Glibc

/// `CLOCK_REALTIME`: the wall clock, which can step (NTP, a person). Read only to carry a time
/// across a restart (a notification's end in the state file); everything that runs is timed on
/// `MonotonicClock`, so a step while running moves nothing.
public enum WallClock {
    /// Seconds since 1970.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
