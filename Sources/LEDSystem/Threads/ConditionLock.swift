// Threads serve only the network front ends (LEDRingNet and DaemonRemote), which the Embedded
// Swift build leaves out (see NetworkFrontEnds.swift); so does it these.
#if !hasFeature(Embedded)
import Glibc

/// A mutex with a condition variable whose timed waits run on the monotonic clock (a wall-clock
/// jump neither ends a wait early nor stretches it): what the event streams, the MQTT shutdown and
/// the network's wait for the daemon loop need from Foundation's `NSCondition` or Dispatch's
/// semaphores, without linking either.
public final class ConditionLock: @unchecked Sendable {
    // @unchecked: the pthread objects are made for thread use; they live as long as this object.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes every waiter (call with the lock held).
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (with the lock held) until woken or until `deadline`, seconds on `MonotonicClock`;
    /// false once the deadline has passed. A wake-up may be spurious: callers re-check.
    public func wait(until deadline: Double) -> Bool {
        guard deadline.isFinite else {
            if deadline > 0 { pthread_cond_wait(condition, mutex); return true }
            return false
        }
        let whole = max(0, deadline.rounded(.down))
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int(min(999_999_999, max(0, (deadline - whole) * 1e9))))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }
}

/// A one-time signal with a bounded wait: the daemon's loop signals it once it has applied a
/// network request; the thread that submitted the request waits for that.
public final class Completion: @unchecked Sendable {
    // @unchecked: `done` is only read and written with `condition` locked.
    private let condition = ConditionLock()
    private var done = false

    public init() {}

    /// Marks it done and wakes the waiter (any thread; more than once is harmless).
    public func signal() {
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `signal()` or until `seconds` have passed; true if it was signalled.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let deadline = MonotonicClock.seconds() + seconds
        condition.lock()
        defer { condition.unlock() }
        while !done {
            if !condition.wait(until: deadline) { return done }
        }
        return true
    }
}
#endif
