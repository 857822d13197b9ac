import Glibc
import LEDRingControl
import LEDSystem

/// The command sources' programs while they run, inside the daemon's poll loop: nothing here
/// blocks. A run is started with its output on two pipes the loop polls; it ends
/// when both pipes have closed and `waitpid` has reaped it. One that outlives its time limit gets
/// SIGTERM, then SIGKILL `killGrace` seconds later, sent to its process group so whatever it
/// started goes too. A source has at most one run at a time.
final class CommandRuns {
    /// One program running for a source.
    struct Run {
        var source: SourceConfig
        var pid: Int32
        /// The pipes' read ends; -1 once closed (end of file).
        var output: Int32
        var errors: Int32
        var printed: [UInt8] = []
        var complained: [UInt8] = []
        /// More than `SourcePoller.maxBytes` came: the rest was dropped.
        var overflowed = false
        /// When it is stopped: SIGTERM at `deadline`, SIGKILL at `deadline + killGrace`.
        var deadline: Double
        var terminated = false
        var killed = false
        /// Both pipes closed but not reaped yet: when to look again.
        var reapAt: Double?
    }

    /// How a run ended: as `waitpid` said, or lost (reaped by someone else).
    enum Ending: Equatable {
        case child(ChildStatus)
        case lost
    }

    /// A run that ended, with what its source gets.
    struct Ended {
        var source: SourceConfig
        var outcome: Result<[UInt8], SourcePoller.SourceProblem>
    }

    /// Seconds between SIGTERM and SIGKILL (2 s, as a shell user would wait; tests shorten it).
    let killGrace: Double
    /// Seconds between looks at a child whose pipes closed before it could be reaped (it has
    /// closed its output and is still exiting, or it closed them and runs on).
    static let reapInterval = 0.02
    /// Bytes of standard error kept for the log line.
    static let errorBytes = 512

    private(set) var runs: [Run] = []
    private let system: any SystemCalls

    init(system: any SystemCalls, killGrace: Double = 2) {
        self.system = system
        self.killGrace = killGrace
    }

    /// Starts `source`'s command, unless it is still running from last time (then it is left to
    /// its time limit, which is never longer than `every`). A problem when it cannot be started.
    func start(_ source: SourceConfig, at now: Double) -> SourcePoller.SourceProblem? {
        guard let argv = source.command, !runs.contains(where: { $0.source == source }) else { return nil }
        let output: (read: Int32, write: Int32)
        let errors: (read: Int32, write: Int32)
        do {
            output = try system.pipe(flags: O_CLOEXEC)
        } catch {
            return SourcePoller.SourceProblem("cannot make a pipe to run it (\(error))")
        }
        do {
            errors = try system.pipe(flags: O_CLOEXEC)
        } catch {
            try? system.close(output.read)
            try? system.close(output.write)
            return SourcePoller.SourceProblem("cannot make a pipe to run it (\(error))")
        }
        defer {
            // The child has its own copies; with ours closed, its exit is the pipes' end of file.
            try? system.close(output.write)
            try? system.close(errors.write)
        }
        do {
            let pid = try system.spawn(argv, stdout: output.write, stderr: errors.write)
            runs.append(Run(source: source, pid: pid, output: output.read, errors: errors.read, deadline: now + source.commandTimeout))
            return nil
        } catch {
            try? system.close(output.read)
            try? system.close(errors.read)
            let fix = error == .noSuchFileOrDirectory
                ? (argv[0].hasPrefix("/") ? "; check the path" : "; is it installed, and on the service's PATH? Give its absolute path to be sure")
                : ""
            return SourcePoller.SourceProblem("cannot run \(argv[0]): \(error)\(fix)")
        }
    }

    /// The pipes to poll for input.
    var pollEntries: [pollfd] {
        runs.flatMap { run in
            [run.output, run.errors].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        }
    }

    /// The next time limit or reap to look at; nil when nothing runs.
    var nextDeadline: Double? {
        runs.map { run in
            let limit = run.killed ? Double.infinity : run.terminated ? run.deadline + killGrace : run.deadline
            return Swift.min(limit, run.reapAt ?? .infinity)
        }.filter { $0 < .infinity }.min()
    }

    /// Reads what the ready pipes in `ready` (poll's answer, any order) hold; `due` then reaps
    /// the runs whose pipes this closed.
    func read(_ ready: [pollfd]) {
        for pfd in ready where pfd.revents != 0 {
            guard let i = runs.firstIndex(where: { $0.output == pfd.fd || $0.errors == pfd.fd }) else { continue }
            drain(pfd.fd, run: i)
        }
    }

    /// Stops runs past their limits and reaps those whose pipes have closed; returns the runs
    /// that ended.
    func due(at now: Double) -> [Ended] {
        var ended: [Ended] = []
        var i = 0
        while i < runs.count {
            limit(run: i, at: now)
            if runs[i].output < 0 && runs[i].errors < 0 || runs[i].killed, let ending = reap(run: i, at: now) {
                ended.append(Ended(source: runs[i].source, outcome: outcome(of: runs[i], ending: ending)))
                close(run: i)
                runs.remove(at: i)
                continue
            }
            i += 1
        }
        return ended
    }

    /// Every run killed, reaped (waiting at most a second for each) and its pipes closed: the
    /// daemon is stopping.
    func stopAll() {
        for i in runs.indices {
            try? system.signalGroup(runs[i].pid, SIGKILL)
            // SIGKILL cannot be caught, so the child ends within moments; it is reaped here so
            // no zombie is left to whoever inherits it.
            for _ in 0..<100 {
                do {
                    if try system.reap(runs[i].pid) != nil { break }
                } catch {
                    break
                }
                usleep(10_000)
            }
            close(run: i)
        }
        runs = []
    }

    /// One read of a ready pipe (poll wakes again while more is there); past `maxBytes` the
    /// output is closed and the program stopped. The pipes are blocking, as the child must get them (`O_NONBLOCK` is
    /// on the open file, which both ends of a dup share: a child handed a non-blocking pipe sees
    /// `EAGAIN` when it fills, and `head` fails on it), so the daemon reads only what poll said is
    /// there, and one read of a ready pipe never blocks.
    private func drain(_ fd: Int32, run i: Int) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        switch system.readAvailable(fd, into: &buffer) {
        case .data(count: let n):
            if fd == runs[i].output {
                let room = SourcePoller.maxBytes - runs[i].printed.count
                runs[i].printed += buffer[0..<Swift.min(n, Swift.max(room, 0))]
                if n > room {
                    // Past the limit nothing it prints can be used: its output is closed (a
                    // writer then gets SIGPIPE) and `due` stops it, rather than reading `yes`
                    // until its time limit (26 % of a core for the whole of it).
                    runs[i].overflowed = true
                    try? system.close(fd)
                    runs[i].output = -1
                }
            } else {
                runs[i].complained += buffer[0..<Swift.min(n, Swift.max(CommandRuns.errorBytes - runs[i].complained.count, 0))]
            }
        case .wouldBlock:
            return
        case .endOfFile, .failed:
            try? system.close(fd)
            if fd == runs[i].output { runs[i].output = -1 } else { runs[i].errors = -1 }
        }
    }

    /// SIGTERM at the limit, SIGKILL after the grace.
    private func limit(run i: Int, at now: Double) {
        if !runs[i].terminated && (now >= runs[i].deadline || runs[i].overflowed) {
            runs[i].terminated = true
            runs[i].deadline = Swift.min(runs[i].deadline, now)
            try? system.signalGroup(runs[i].pid, SIGTERM)
        } else if runs[i].terminated && !runs[i].killed && now >= runs[i].deadline + killGrace {
            runs[i].killed = true
            try? system.signalGroup(runs[i].pid, SIGKILL)
            runs[i].reapAt = now
        }
    }

    /// The child's end if it has one; else when to look again.
    private func reap(run i: Int, at now: Double) -> Ending? {
        do {
            if let status = try system.reap(runs[i].pid) { return .child(status) }
        } catch {
            // ECHILD: the kernel reaped it (SIGCHLD ignored; SignalPipe prevents that in the
            // daemon); it is gone, its status lost.
            return .lost
        }
        runs[i].reapAt = now + CommandRuns.reapInterval
        return nil
    }

    private func close(run i: Int) {
        for fd in [runs[i].output, runs[i].errors] where fd >= 0 { try? system.close(fd) }
        runs[i].output = -1
        runs[i].errors = -1
    }

    /// What the source gets: the output of a run that exited 0 in time, else why not.
    private func outcome(of run: Run, ending: Ending) -> Result<[UInt8], SourcePoller.SourceProblem> {
        let said = CommandRuns.firstLine(run.complained)
        let limit = DurationText.format(run.source.commandTimeout)
        if run.overflowed { return .failure(.init("printed over \(SourcePoller.maxBytes / 1024) KiB; print only the value")) }
        if run.terminated {
            return .failure(.init("ran past its \(limit) time limit and was stopped; make it quicker or raise \"timeout\" (at most \"every\")"))
        }
        switch ending {
        case .child(.exited(0)):
            return .success(run.printed)
        case .child(.exited(let code)):
            return .failure(.init("exited with status \(code)" + (said.isEmpty ? "" : ": \(said)")))
        case .child(.signalled(let signal)):
            return .failure(.init("was ended by signal \(signal)" + (said.isEmpty ? "" : ": \(said)")))
        case .lost:
            return .failure(.init("ended, but its exit status was lost (is SIGCHLD ignored?)"))
        }
    }

    /// The first line of what a command wrote to standard error, trimmed, for the log.
    static func firstLine(_ bytes: [UInt8]) -> String {
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first ?? []
        return String(decoding: line.prefix(200), as: UTF8.self)
    }
}
