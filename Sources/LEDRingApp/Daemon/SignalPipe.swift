import Glibc
import LEDSystem
import Synchronization

/// The write end of the self-pipe; the handler reads it (an atomic, so it is Sendable and
/// async-signal-safe to load).
private let signalWriteEnd = Atomic<Int32>(-1)

/// The handler: only async-signal-safe work (signal-safety(7)): save errno, write one byte,
/// restore errno. It stays a plain C-compatible function outside the seam; installing it goes
/// through the seam.
private let writeSignalNumber: @convention(c) (Int32) -> Void = { signo in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = Glibc.write(signalWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = saved
}

/// Signals as bytes on a pipe: the handler only writes the signal number, and the daemon's poll
/// loop reads it like any other input, so no work happens inside a signal handler.
final class SignalPipe {
    /// The signals routed to the pipe.
    static let routed = [SIGTERM, SIGINT, SIGHUP]
    /// The read end, for `poll`.
    let readEnd: Int32
    private let writeEnd: Int32
    private let system: any SystemCalls

    /// Creates the pipe and routes SIGTERM, SIGINT and SIGHUP to it; SIGPIPE is ignored so a
    /// vanished client is an error on the write, not the end of the daemon; SIGCHLD gets its
    /// default action back, so command sources' children wait to be reaped.
    init(system: any SystemCalls) throws(SystemError) {
        self.system = system
        do {
            (readEnd, writeEnd) = try system.pipe(flags: O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw SystemError(operation: "creating", path: "the signal pipe", code: error.rawValue)
        }
        signalWriteEnd.store(writeEnd, ordering: .relaxed)
        do throws(Errno) {
            try system.setSignalAction(SIGPIPE, .ignore)
            // An ignored SIGCHLD survives exec, and with it the kernel reaps children itself
            // (do_notify_parent in kernel/signal.c), so waitpid on a command source would find
            // no child and no exit status: the default keeps them for the daemon to reap.
            try system.setSignalAction(SIGCHLD, .standard)
            for signo in SignalPipe.routed { try system.setSignalAction(signo, .handler(writeSignalNumber, restart: true)) }
            // A parent may start us with these signals blocked (the mask survives exec, and some
            // launchers spawn from threads that block them); blocked, SIGTERM would never arrive.
            try system.unblockSignals(SignalPipe.routed)
        } catch {
            throw SystemError(operation: "installing the signal handlers for", path: "SIGTERM, SIGINT and SIGHUP", code: error.rawValue)
        }
    }

    /// The signals that arrived since the last call, in order.
    func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while case .data(let n) = system.readAvailable(readEnd, into: &buffer) {
            signals += buffer[0..<n].map(Int32.init)
        }
        return signals
    }

    deinit {
        signalWriteEnd.store(-1, ordering: .relaxed)
        for signo in SignalPipe.routed { try? system.setSignalAction(signo, .standard) }
        try? system.close(readEnd)
        try? system.close(writeEnd)
    }
}
