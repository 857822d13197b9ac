#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LEDSystem
import Synchronization

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif

/// Set by SIGINT/SIGTERM; the frame loops poll it between frames and while sleeping.
let stopRequested = Atomic<Bool>(false)

/// The process's terminal, clock and signals: the only place the one-shot command touches them.
enum Terminal {
    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Seconds on the monotonic clock.
    static func now() -> Double { MonotonicClock.seconds() }

    /// Routes SIGINT and SIGTERM to `stopRequested`, and turns SIGPIPE into a write error.
    static func installStopHandlers() {
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in stopRequested.store(true, ordering: .relaxed) }
        #else
        action.__sigaction_u.__sa_handler = { _ in stopRequested.store(true, ordering: .relaxed) }
        #endif
        // No SA_RESTART: a signal must cut a sleep short so Ctrl-C acts at once.
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may start us with these signals blocked (a blocked mask is inherited across
        // exec: test runners and some supervisors do this); then Ctrl-C would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Sleeps until the monotonic clock reads `deadline` or a stop is requested.
    static func sleep(until deadline: Double) {
        while !stopRequested.load(ordering: .relaxed) {
            let left = deadline - now()
            if left <= 0 { return }
            var ts = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
            _ = nanosleep(&ts, nil)
        }
    }

    /// Sleeps until a stop is requested.
    static func waitForStop() {
        while !stopRequested.load(ordering: .relaxed) {
            _ = pause()
        }
    }

    /// Writes all of `text` to standard output; false once the reader has gone (EPIPE) or
    /// writing fails.
    @discardableResult
    static func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return true }
            var done = 0
            while done < bytes.count {
                let n = systemWrite(STDOUT_FILENO, base + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            _ = systemWrite(STDERR_FILENO, bytes.baseAddress, bytes.count)
        }
    }
}
