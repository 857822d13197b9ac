import CLinux
import Glibc

/// A program the tests start (ledring, a script, mosquitto, openssl), with every wait bounded.
///
/// Not Foundation's `Process`: its `waitUntilExit()` spins a run loop and, called off the main
/// thread under load (Swift Testing runs tests on a pool), can miss the child's exit and wait for
/// ever (swift-corelibs-foundation's Process.swift; reported as swiftlang/swift#79881 and seen in
/// other suites after a few hundred runs). A test that hangs says nothing about what went wrong:
/// here the child is reaped with `waitpid` itself, output is read with `poll`, and anything past
/// its deadline is killed (its whole process group) and reported by name.
public final class ChildProcess {
    /// Where a standard stream goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe this object reads (`finish`) or writes (`write`, `closeInput`).
        case pipe
        /// A file, created if missing and appended to.
        case file(String)
    }

    /// What a finished program left.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it (as a shell reports it).
        public var status: Int32
        /// The signal that ended it, nil when it exited.
        public var signal: Int32?
        public var stdout: String
        public var stderr: String
    }

    /// A program that ran past its deadline (it has been killed).
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: String
        public var seconds: Double
        public var stdout: String
        public var stderr: String
        public var description: String {
            "\(command) did not finish within \(seconds) s and was killed; it had printed: \(stdout.suffix(400)) \(stderr.suffix(400))"
        }
    }

    public let pid: pid_t
    /// The command line, for messages.
    public let command: String
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var errors: Int32 = -1
    private var ended: (status: Int32, signal: Int32?)?

    /// Starts `executable` with `arguments` (no shell), the test's environment plus `environment`,
    /// in its own process group (so a timeout also ends what it started).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe) throws {
        command = ([executable] + arguments).joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = Glibc.close($0) } }
        func wire(_ stream: Stream, to target: Int32, reading: Bool) throws -> Int32 {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0)
                return -1
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                return -1
            case .pipe:
                var ends: [Int32] = [0, 0]
                // Close-on-exec from the start: a child another test spawns at the same moment must not
                // inherit this pipe and hold it open.
                guard cledring_pipe2(&ends, O_CLOEXEC) == 0 else { throw ChildProcess.Failure("pipe: errno \(errno)") }
                let (mine, theirs) = reading ? (ends[1], ends[0]) : (ends[0], ends[1])
                parentEnds.append(mine)
                childEnds.append(theirs)
                posix_spawn_file_actions_adddup2(&actions, theirs, target)
                return mine
            }
        }
        do {
            input = try wire(stdin, to: 0, reading: true)
            output = try wire(stdout, to: 1, reading: false)
            errors = try wire(stderr, to: 2, reading: false)
        } catch {
            parentEnds.forEach { _ = Glibc.close($0) }
            throw error
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // The test process may ignore SIGPIPE (a browser that dies must not kill it); the child
        // starts with default signal handling, as from a shell.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        for (key, value) in environment { variables[key] = value }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        guard rc == 0 else {
            parentEnds.forEach { _ = Glibc.close($0) }
            throw ChildProcess.Failure("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
    }

    deinit {
        if isRunning {
            Glibc.kill(-pid, SIGKILL)
            Glibc.kill(pid, SIGKILL)
            _ = wait(timeout: 10)
        }
        for fd in [input, output, errors] where fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Runs a program to its end (at most `timeout` seconds) and returns what it printed.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           stdin: Stream = .null, timeout: Double = 120) throws -> Result {
        try ChildProcess(executable, arguments, environment: environment, stdin: stdin).finish(timeout: timeout)
    }

    /// Whether it is still running (reaps it once it has ended).
    public var isRunning: Bool {
        if ended != nil { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return reaped == 0 }
        let signal = status & 0x7f
        ended = signal == 0 ? ((status >> 8) & 0xff, nil) : (128 + signal, signal)
        return false
    }

    /// Its exit status (128 + signal when a signal ended it), nil while it runs.
    public var status: Int32? { isRunning ? nil : ended?.status }

    /// The signal that ended it, nil while it runs or when it exited.
    public var endingSignal: Int32? { isRunning ? nil : ended?.signal }

    /// Waits at most `timeout` seconds for it to end; its status, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = ChildProcess.now() + timeout
        while isRunning {
            guard ChildProcess.now() < deadline else { return nil }
            usleep(5_000)
        }
        return ended?.status
    }

    /// Sends `signal` to the program itself (not its group).
    public func send(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// Writes to its standard input (a `.pipe`); false if it has closed it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        guard input >= 0 else { return false }
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Closes its standard input: it reads end of file.
    public func closeInput() {
        if input >= 0 { _ = Glibc.close(input) }
        input = -1
    }

    /// Reads whatever its `.pipe` standard output has now, waiting at most `timeout` seconds for
    /// something to arrive; empty at end of output or timeout.
    public func readOutput(timeout: Double) -> [UInt8] {
        guard output >= 0 else { return [] }
        var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(max(0, timeout) * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer.prefix(n)) : []
    }

    /// Reads its piped output until it ends and waits for it, all within `timeout` seconds; past
    /// that it is killed (with what it started) and `TimedOut` thrown.
    public func finish(timeout: Double) throws -> Result {
        closeInput()
        let deadline = ChildProcess.now() + timeout
        var collected: [Int32: [UInt8]] = [:]
        var open = [output, errors].filter { $0 >= 0 }
        var exitedAt: Double?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let now = ChildProcess.now()
            // Something it started may hold the pipe open after it exits: a moment's grace, then stop.
            if exitedAt == nil, !isRunning { exitedAt = now }
            if let exitedAt, now > exitedAt + 2 { break }
            guard now < deadline else { break }
            var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), 100)
            guard ready > 0 else { continue }
            for entry in entries where entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(entry.fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    collected[entry.fd, default: []] += buffer.prefix(n)
                } else if n == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        let stdout = String(decoding: collected[output] ?? [], as: UTF8.self)
        let stderr = String(decoding: collected[errors] ?? [], as: UTF8.self)
        guard let status = wait(timeout: max(0, deadline - ChildProcess.now())) else {
            Glibc.kill(-pid, SIGKILL)
            Glibc.kill(pid, SIGKILL)
            _ = wait(timeout: 10)
            throw TimedOut(command: command, seconds: timeout, stdout: stdout, stderr: stderr)
        }
        return Result(status: status, signal: ended?.signal, stdout: stdout, stderr: stderr)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
