import Foundation
import LEDJSON

/// What the daemon costs while it runs: CPU time idle and animating, wake-ups, peak memory.
///
/// Starts the built `ledring run` (next to this benchmark) on a 112-LED chain written to
/// /dev/null through the WS2812 encoder, and reads the process's own accounting from /proc:
/// `schedstat` (CPU time in ns), `status` (context switches = wake-ups, VmHWM = peak RSS).
struct DaemonCost {
    /// Seconds each phase is measured over.
    var seconds: Double
    /// The ledring binary; nil uses the one next to this benchmark.
    var binary: String?

    struct Sample {
        var cpuNanoseconds: UInt64
        var wakeups: Int
    }

    enum Failure: Error, CustomStringConvertible {
        case noBinary(String)
        case didNotStart(String)
        case noProc(String)

        var description: String {
            switch self {
            case .noBinary(let path): "no ledring binary at \(path); build it first (swift build -c release)"
            case .didNotStart(let log): "ledring run did not start: \(log)"
            case .noProc(let path): "cannot read \(path)"
            }
        }
    }

    func measure() throws -> [String] {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let ledring = binary.map { URL(fileURLWithPath: $0) }
            ?? bench.deletingLastPathComponent().appendingPathComponent("ledring")
        guard FileManager.default.isExecutableFile(atPath: ledring.path) else { throw Failure.noBinary(ledring.path) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        let socket = directory.appendingPathComponent("s.sock").path
        try """
        {"rings": [{"name": "fill", "leds": 56}, {"name": "spin", "leds": 56}],
         "output": {"driver": "ws2812-spi", "dumpWire": "/dev/null", "board": "rpi4b"},
         "fps": 60, "maxMilliamps": 100000}
        """.write(to: config, atomically: true, encoding: .utf8)

        let daemon = try start(ledring, ["--config", config.path], socket: socket,
                               state: directory.appendingPathComponent("state.json").path)
        defer {
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
        }
        let pid = daemon.processIdentifier
        // Let the start-up frame go out, then measure a still picture.
        usleep(500_000)
        let idle = try cost(of: pid) { Thread.sleep(forTimeInterval: seconds) }
        // Both rings animate: a spinner and a 10 000 s transition, so every frame differs.
        try client(ledring, ["spin", "spin", "--socket", socket])
        try client(ledring, ["set", "fill=10000%", "--duration", "3600", "--curve", "linear", "--socket", socket])
        let busy = try cost(of: pid) { Thread.sleep(forTimeInterval: seconds) }
        let peakKB = try peakResidentKB(of: pid)
        func line(_ name: String, _ sample: Sample) -> String {
            JSONValue.object([("case", .string(name)), ("leds", .integer(112)), ("seconds", .number(seconds)),
                              ("cpu_ms", .number(Double(sample.cpuNanoseconds / 1000) / 1000)),
                              ("wakeups", .integer(sample.wakeups))]).jsonText
        }
        daemon.terminate()
        daemon.waitUntilExit()
        let threeRingsKB = try threeRingPeak(ledring, directory: directory)
        return [line("daemon-idle", idle), line("daemon-animating-60fps", busy),
                JSONValue.object([("case", .string("daemon-peak-rss")), ("leds", .integer(112)), ("kb", .integer(peakKB))]).jsonText,
                JSONValue.object([("case", .string("daemon-peak-rss-three-rings")), ("leds", .integer(52)),
                                  ("kb", .integer(threeRingsKB))]).jsonText]
    }

    /// Peak memory of `ledring run` with its default three rings, after the demo's fill animation.
    private func threeRingPeak(_ ledring: URL, directory: URL) throws -> Int {
        let socket = directory.appendingPathComponent("three.sock").path
        let daemon = try start(ledring, ["--driver", "ws2812-spi", "--dump-wire", "/dev/null"], socket: socket,
                               state: directory.appendingPathComponent("three.json").path)
        defer {
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
        }
        try client(ledring, ["set", "move=1.3", "exercise=0.75", "stand=0.45", "--duration", "1", "--socket", socket])
        Thread.sleep(forTimeInterval: 1.5)
        return try peakResidentKB(of: daemon.processIdentifier)
    }

    /// Starts `ledring run` with `arguments` and waits (at most 20 s) for its socket.
    private func start(_ ledring: URL, _ arguments: [String], socket: String, state: String) throws -> Process {
        let daemon = Process()
        daemon.executableURL = ledring
        daemon.arguments = ["run"] + arguments + ["--socket", socket, "--state", state]
        let log = Pipe()
        daemon.standardError = log
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline && daemon.isRunning {
            usleep(20_000)
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
            throw Failure.didNotStart(String(decoding: log.fileHandleForReading.availableData, as: UTF8.self))
        }
        return daemon
    }

    private func client(_ ledring: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = ledring
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// CPU time and wake-ups of process `pid` while `body` runs.
    private func cost(of pid: Int32, during body: () -> Void) throws -> Sample {
        let before = try sample(pid)
        body()
        let after = try sample(pid)
        return Sample(cpuNanoseconds: after.cpuNanoseconds - before.cpuNanoseconds,
                      wakeups: after.wakeups - before.wakeups)
    }

    private func sample(_ pid: Int32) throws -> Sample {
        let schedstat = "/proc/\(pid)/schedstat", status = "/proc/\(pid)/status"
        guard let sched = try? String(contentsOfFile: schedstat, encoding: .utf8),
              let cpu = sched.split(separator: " ").first.flatMap({ UInt64($0) }) else { throw Failure.noProc(schedstat) }
        return Sample(cpuNanoseconds: cpu, wakeups: try field("voluntary_ctxt_switches", in: status)
                        + field("nonvoluntary_ctxt_switches", in: status))
    }

    private func peakResidentKB(of pid: Int32) throws -> Int {
        try field("VmHWM", in: "/proc/\(pid)/status")
    }

    private func field(_ name: String, in path: String) throws -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
              let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
        else { throw Failure.noProc(path) }
        return value
    }
}
