import Glibc
import Synchronization

/// The write end of the self-pipe; the handler reads it (an atomic, so it is Sendable and
/// async-signal-safe to load).
private let signalWriteEnd = Atomic<Int32>(-1)

/// Signals as bytes on a pipe: the handler only writes the signal number, and the daemon's poll
/// loop reads it like any other input, so no work happens inside a signal handler.
final class SignalPipe {
    /// The read end, for `poll`.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Creates the pipe and routes SIGTERM, SIGINT and SIGHUP to it; SIGPIPE is ignored so a
    /// vanished client is an error on the write, not the end of the daemon.
    init() throws(SystemError) {
        (readEnd, writeEnd) = try Posix.wakePipe("the signal pipe")
        signalWriteEnd.store(writeEnd, ordering: .relaxed)
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signo in
            // Only async-signal-safe work: save errno, write one byte, restore errno.
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: signo)
            _ = write(signalWriteEnd.load(ordering: .relaxed), &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for signo in [SIGTERM, SIGINT, SIGHUP] { sigaction(signo, &action, nil) }
        // A parent may start us with these signals blocked (the mask survives exec, and some
        // launchers spawn from threads that block them); blocked, SIGTERM would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signo in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, signo) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The signals that arrived since the last call, in order.
    func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while let n = Posix.read(readEnd, into: &buffer), n > 0 {
            signals += buffer[0..<n].map(Int32.init)
        }
        return signals
    }

    deinit {
        signalWriteEnd.store(-1, ordering: .relaxed)
        for signo in [SIGTERM, SIGINT, SIGHUP] { signal(signo, SIG_DFL) }
        close(readEnd)
        close(writeEnd)
    }
}
