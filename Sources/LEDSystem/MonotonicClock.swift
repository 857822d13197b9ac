import Glibc

/// `CLOCK_MONOTONIC`: time that never jumps with the wall clock, the clock the kernel stamps GPIO
/// edge events with. Read here only, so every deadline in ledring is on the same clock.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot).
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Seconds since an arbitrary start (boot).
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
