import CLinux
import Glibc
import LEDRingControl
import LEDRingTesting
import LEDSystem
import Testing
@testable import LEDRingApp

/// Command sources: real programs on the real kernel (what they print, how they fail, a time
/// limit that ends a whole process group), the fake kernel's faults, and the poller's side on
/// explicit times.
@Suite struct CommandSourceTests {
    static func source(_ argv: [String], every: Double = 10, timeout: Double? = nil) -> SourceConfig {
        SourceConfig(ring: "disk", command: argv, every: every, timeout: timeout)
    }

    /// Runs `source` once through `runs` on the real clock, polling as the daemon does, until it
    /// ends or `bound` seconds pass.
    static func runOnce(_ source: SourceConfig, runs: CommandRuns, bound: Double = 10) throws -> Result<[UInt8], SourcePoller.SourceProblem> {
        let system = RetryingSystemCalls(LinuxSystemCalls())
        if let problem = runs.start(source, at: MonotonicClock.seconds()) { return .failure(problem) }
        let giveUp = MonotonicClock.seconds() + bound
        while MonotonicClock.seconds() < giveUp {
            var fds = runs.pollEntries
            let now = MonotonicClock.seconds()
            let wait = runs.nextDeadline.map { Int32(max(0, min(1, $0 - now)) * 1000) + 1 } ?? 100
            _ = try system.poll(&fds, timeout: fds.isEmpty ? wait : wait)
            runs.read(fds)
            if let ended = runs.due(at: MonotonicClock.seconds()).first { return ended.outcome }
        }
        throw CommandSourceFailure(message: "\(source.label) did not end within \(bound) s")
    }

    struct CommandSourceFailure: Error { var message: String }

    static func text(_ outcome: Result<[UInt8], SourcePoller.SourceProblem>) -> String {
        switch outcome {
        case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .failure(let problem): return "problem: " + problem.message
        }
    }

    /// Whether every process of group `pgid` has ended within 3 s: none left, or only zombies
    /// (an orphan's is for init to reap).
    static func groupIsGone(_ pgid: Int32) -> Bool {
        for _ in 0..<300 {
            if kill(-pgid, 0) != 0 && errno == ESRCH { return true }
            // A /proc that cannot be listed (a busy machine's EMFILE) says nothing: look again.
            if let entries = try? LinuxSystemCalls().listDirectory("/proc") {
                let alive = entries.filter { entry in
                    guard Int32(entry) != nil, let stat = try? LinuxSystemCalls().readFile("/proc/\(entry)/stat") else { return false }
                    // pid (comm) state ppid pgrp …: after the last ')'.
                    let fields = String(decoding: stat, as: UTF8.self).split(separator: ")").last?.split(separator: " ") ?? []
                    return fields.count > 2 && fields[2] == "\(pgid)" && fields[0] != "Z"
                }
                if alive.isEmpty { return true }
            }
            usleep(10_000)
        }
        return false
    }

    @Test func whatAProgramPrintsIsItsValue() throws {
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()))
        #expect(Self.text(try Self.runOnce(Self.source(["echo", "42"]), runs: runs)) == "42\n")
        // Standard error is not the value, however much of it there is.
        let noisy = Self.source(["sh", "-c", "seq 1 20000 >&2; echo 7"])
        #expect(Self.text(try Self.runOnce(noisy, runs: runs)) == "7\n")
        #expect(runs.runs.isEmpty && runs.pollEntries.isEmpty && runs.nextDeadline == nil, "nothing left open")
    }

    @Test func failuresSayWhatTheProgramSaid() throws {
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()))
        let failed = try Self.runOnce(Self.source(["sh", "-c", "echo 12; echo 'df: /mnt: No such file' >&2; exit 3"]), runs: runs)
        #expect(Self.text(failed) == "problem: exited with status 3: df: /mnt: No such file")
        let missing = try Self.runOnce(Self.source(["ledring-no-such-program", "x"]), runs: runs)
        #expect(Self.text(missing).hasPrefix("problem: cannot run ledring-no-such-program: No such file or directory; is it installed, and on the service's PATH?"))
        let absolute = try Self.runOnce(Self.source(["/nonexistent/level"]), runs: runs)
        #expect(Self.text(absolute).hasSuffix("No such file or directory; check the path"))
        let huge = try Self.runOnce(Self.source(["sh", "-c", "head -c 100000 /dev/zero"]), runs: runs)
        #expect(Self.text(huge) == "problem: printed over 64 KiB; print only the value")
        let signalled = try Self.runOnce(Self.source(["sh", "-c", "kill -USR1 $$"]), runs: runs)
        #expect(Self.text(signalled) == "problem: was ended by signal \(SIGUSR1)")
    }

    /// Issue 28: a program gets standard input, output and error and nothing else of the
    /// daemon's, even a descriptor opened without close-on-exec (libmosquitto's connection to the
    /// broker is one: a command source's program got it as fd 12 and could publish as ledring).
    @Test func aCommandInheritsNoOtherDescriptor() throws {
        let leaky = cledring_open("/dev/null", O_RDONLY, 0)
        #expect(leaky > 2)
        defer { Glibc.close(leaky) }
        #expect(fcntl(leaky, F_GETFD) & FD_CLOEXEC == 0, "the test's descriptor would survive exec")
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()))
        // `ls` itself holds the directory it lists open as the lowest free descriptor, 3.
        let listed = try Self.runOnce(Self.source(["sh", "-c", "exec ls /proc/self/fd"]), runs: runs)
        #expect(Self.text(listed) == "0\n1\n2\n3\n")
    }

    /// `yes` floods its output: it is stopped as soon as it passes the limit, not read until its
    /// time limit (it was drained at 26 % of a core for the whole of it).
    @Test func aFloodIsStoppedAtTheLimit() throws {
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()), killGrace: 0.3)
        let flood = try Self.runOnce(Self.source(["yes"], every: 120, timeout: 120), runs: runs, bound: 20)
        #expect(Self.text(flood) == "problem: printed over 64 KiB; print only the value")
        #expect(runs.runs.isEmpty && runs.pollEntries.isEmpty, "nothing left open")
        // One that ignores SIGPIPE and SIGTERM is killed after the grace.
        let stubborn = Self.source(["sh", "-c", "trap '' PIPE TERM; while :; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy 2>/dev/null; done"], every: 120, timeout: 120)
        #expect(Self.text(try Self.runOnce(stubborn, runs: runs, bound: 20)) == "problem: printed over 64 KiB; print only the value")
    }

    /// The daemon ignores SIGPIPE; a command must not inherit that, or `yes | head -1` style
    /// pipelines inside it would run for ever.
    @Test func aCommandStartsWithDefaultSignals() throws {
        let system = RetryingSystemCalls(LinuxSystemCalls())
        try system.setSignalAction(SIGPIPE, .ignore)
        let runs = CommandRuns(system: system)
        let line = try Self.runOnce(Self.source(["sh", "-c", "grep SigIgn /proc/self/status"]), runs: runs)
        // Only what the shell itself ignores may show; SIGPIPE (bit 13) must not.
        let mask = UInt64(Self.text(line).split(separator: "\t").last.map { $0.trimmingCharacters() } ?? "", radix: 16) ?? .max
        #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "\(Self.text(line))")
    }

    /// A program past its limit gets SIGTERM; one that ignores it gets SIGKILL after the grace,
    /// and so does everything in its process group (here a `sleep` holding the pipe open).
    @Test func theTimeLimitEndsTheWholeGroup() throws {
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()), killGrace: 0.3)
        let started = MonotonicClock.seconds()
        let slow = try Self.runOnce(Self.source(["sleep", "30"], every: 1, timeout: 0.3), runs: runs)
        #expect(Self.text(slow) == "problem: ran past its 0.3s time limit and was stopped; make it quicker or raise \"timeout\" (at most \"every\")")
        #expect(MonotonicClock.seconds() - started < 5)

        let stubborn = Self.source(["sh", "-c", "trap '' TERM; sleep 30 & echo 5; wait"], every: 1, timeout: 0.3)
        _ = runs.start(stubborn, at: MonotonicClock.seconds())
        let group = try #require(runs.runs.first?.pid)
        // Alive now (not "gone within 3 s", which a busy machine's /proc could answer wrongly).
        #expect(kill(-group, 0) == 0, "the group runs before stopAll")
        runs.stopAll()
        #expect(Self.groupIsGone(group), "stopAll kills the group")

        let holder = Self.source(["sh", "-c", "trap '' TERM; sleep 30 & echo 5"], every: 1, timeout: 0.3)
        _ = runs.start(holder, at: MonotonicClock.seconds())
        let holderGroup = try #require(runs.runs.first?.pid)
        runs.stopAll()
        #expect(Self.groupIsGone(holderGroup))
        let again = try Self.runOnce(holder, runs: runs)
        #expect(Self.text(again).hasPrefix("problem: ran past its 0.3s time limit"), "the shell exited, but its sleep held the pipe")
    }

    @Test func aSourceHasOneRunAtATime() throws {
        let runs = CommandRuns(system: RetryingSystemCalls(LinuxSystemCalls()))
        let source = Self.source(["sleep", "5"], every: 10, timeout: 5)
        #expect(runs.start(source, at: 0) == nil)
        #expect(runs.start(source, at: 1) == nil)
        #expect(runs.runs.count == 1)
        runs.stopAll()
        #expect(runs.runs.isEmpty)
    }

    /// The fake kernel: a failed pipe or spawn is a problem, not a crash, and leaves no
    /// descriptor open; a program still exiting after its pipes close is reaped later.
    @Test func faultsAreProblemsAndCloseEverything() throws {
        let fake = FakeSystemCalls()
        fake.addProgram("level", .init(stdout: "81\n", runs: 2))
        let runs = CommandRuns(system: fake)
        let source = Self.source(["level"])
        fake.fail(.pipe, with: Errno(rawValue: EMFILE), onCall: 2)
        #expect(runs.start(source, at: 0)?.message == "cannot make a pipe to run it (Too many open files)")
        fake.fail(.spawn, with: Errno(rawValue: EAGAIN), onCall: 1)
        #expect(runs.start(source, at: 0)?.message == "cannot run level: Resource temporarily unavailable")
        let closes = fake.calls.filter { $0.syscall == .close }.count
        let pipes = fake.calls.filter { $0.syscall == .pipe }.count
        #expect(closes == 2 * (pipes - 1), "every end of every pipe made was closed: \(fake.calls)")

        #expect(runs.start(source, at: 0) == nil)
        // One read per wake: the output, then both ends of file.
        for _ in 0..<2 {
            var fds = runs.pollEntries
            _ = try fake.poll(&fds, timeout: 0)
            runs.read(fds)
            #expect(runs.due(at: 0.1).isEmpty, "its pipes are closed, but it has not exited yet")
        }
        #expect(runs.pollEntries.isEmpty)
        #expect(runs.nextDeadline == 0.1 + CommandRuns.reapInterval)
        #expect(runs.due(at: 0.12).isEmpty)
        let ended = runs.due(at: 0.14)
        #expect(ended.count == 1 && Self.text(ended[0].outcome) == "81\n")
        #expect(fake.calls.filter { if case .reap = $0 { return true } else { return false } }.count == 3)
    }

    /// The poller's side: a command source is started when due, on its cadence; what it printed
    /// becomes the ring's value (sent once while unchanged); a failure is said once; no value
    /// for `stale` seconds is the spinner.
    @Test func thePollerStartsCommandsAndTakesWhatTheyPrint() {
        var started: [Double] = []
        var logged: [String] = []
        var source = Self.source(["df", "--output=pcent", "/"], every: 60)
        source.stale = 150
        var poller = SourcePoller(sources: [source], now: 0)
        func due(_ t: Double) -> [Request] {
            poller.due(at: t, read: { _ throws(BoundedFile.Problem) in [] }, start: { _ in started.append(t); return nil }, log: { logged.append($0) })
        }
        #expect(due(0).isEmpty && started == [0])
        #expect(poller.nextDeadline == 60)
        let value = poller.finished(source, .success(Array("Use%\n 41%\n".utf8)), at: 0.2, log: { logged.append($0) })
        guard case .set(let values, 0.5, .easeInOut)? = value.first, value.count == 1, values.count == 1 else {
            Issue.record("\(value)")
            return
        }
        #expect(values[0].ring == "disk" && values[0].percent && abs(values[0].value - 0.41) < 1e-9)
        #expect(due(30).isEmpty && started == [0])
        #expect(due(60).isEmpty && started == [0, 60])
        #expect(poller.finished(source, .success(Array("41%".utf8)), at: 60.1, log: { logged.append($0) }).isEmpty, "unchanged")
        let failure = SourcePoller.SourceProblem("exited with status 1: df: /: no such file")
        #expect(poller.finished(source, .failure(failure), at: 120.1, log: { logged.append($0) }).isEmpty)
        #expect(poller.finished(source, .failure(failure), at: 180.1, log: { logged.append($0) }).isEmpty)
        #expect(logged == ["source command df --output=pcent / (ring disk): exited with status 1: df: /: no such file"])
        #expect(due(210.1) == [.spin(rings: ["disk"])], "stale 150 s after the last good value at 60.1")
        #expect(poller.finished(SourceConfig(ring: "disk", command: ["other"]), .success([0x31]), at: 211, log: { _ in }).isEmpty,
                "a source the config no longer has is ignored")
        var problems: [String] = []
        var failing = SourcePoller(sources: [source], now: 0)
        _ = failing.due(at: 0, read: { _ throws(BoundedFile.Problem) in [] }, start: { _ in .init("cannot run df: No such file or directory") },
                        log: { problems.append($0) })
        #expect(problems == ["source command df --output=pcent / (ring disk): cannot run df: No such file or directory"])
    }
}

private extension Substring {
    func trimmingCharacters() -> String { String(self.filter { !$0.isWhitespace }) }
}
