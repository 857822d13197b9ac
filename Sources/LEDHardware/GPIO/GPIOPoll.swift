import Glibc

/// `poll(2)` on GPIO event descriptors: the only way the inputs wait, so there is no busy loop.
public enum GPIOPoll {
    /// Waits until any of `descriptors` is readable or `timeoutNanoseconds` passes (negative:
    /// forever); returns the readable ones, empty on timeout. The seam retries `EINTR` with the
    /// time left, so a signal does not end the wait early.
    public static func wait(_ descriptors: [Int32], timeoutNanoseconds: Int64,
                            system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(HardwareError) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Round up so a wait never ends just before the deadline and spins.
        let milliseconds = timeoutNanoseconds < 0 ? -1 : Int32(clamping: (timeoutNanoseconds + 999_999) / 1_000_000)
        do {
            _ = try system.poll(&fds, timeout: milliseconds)
        } catch {
            throw HardwareError.gpio(error, chip: "GPIO event descriptors \(descriptors)", operation: "waiting on")
        }
        return fds.filter { $0.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 }.map { $0.fd }
    }
}
