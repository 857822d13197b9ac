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

    /// Seconds from now until the local clock next reads `hour:minute:second` (later today, else
    /// tomorrow), by the C library's local time (`TZ`, else /etc/localtime), with `mktime`
    /// working out the date, so a daylight-saving change in between is counted. Nil when the
    /// C library cannot say (no such local time).
    public static func secondsUntil(hour: Int, minute: Int, second: Int) -> Double? {
        let now = seconds()
        var whole = time_t(now.rounded(.down))
        var local = tm()
        guard localtime_r(&whole, &local) != nil else { return nil }
        for dayAhead in 0...1 {
            var target = local
            target.tm_mday += Int32(dayAhead)
            target.tm_hour = Int32(hour)
            target.tm_min = Int32(minute)
            target.tm_sec = Int32(second)
            target.tm_isdst = -1
            let at = mktime(&target)
            guard at != -1 else { return nil }
            if Double(at) > now { return Double(at) - now }
        }
        return nil
    }
}
