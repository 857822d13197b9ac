import Glibc

/// `poll(2)` on GPIO event descriptors: the only way the inputs wait, so there is no busy loop.
public enum GPIOPoll {
    /// Waits until any of `descriptors` is readable or `timeoutNanoseconds` passes (negative:
    /// forever); returns the readable ones, empty on timeout. `EINTR` is retried with the
    /// time left, so a signal does not end the wait early.
    public static func wait(_ descriptors: [Int32], timeoutNanoseconds: Int64) throws(HardwareError) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let deadline = timeoutNanoseconds < 0 ? nil : monotonicNanoseconds() &+ UInt64(timeoutNanoseconds)
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let now = monotonicNanoseconds()
                let left = deadline > now ? deadline - now : 0
                // Round up so a wait never ends just before the deadline and spins.
                milliseconds = Int32(clamping: (left + 999_999) / 1_000_000)
            }
            let result = fds.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
            }
            if result >= 0 {
                return fds.filter { $0.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 }.map(\.fd)
            }
            let error = Errno.current
            if error == .interrupted { continue }
            throw HardwareError.gpio(error, chip: "GPIO event descriptors \(descriptors)", operation: "waiting on")
        }
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: the clock the kernel stamps GPIO edge events with.
    public static func monotonicNanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }
}
