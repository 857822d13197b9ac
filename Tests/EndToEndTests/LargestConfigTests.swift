import Foundation
import Testing

/// Issue 28, item 2: what the largest config ledring accepts costs, measured on the built binary.
/// Memory is a bound, not a timing: the figures in the README come from these runs.
@Suite struct LargestConfigTests {
    /// The caps (`RingConfig.maxRings`, `RingConfig.maxZones`, `DaemonConfig.maxLooks`), all
    /// reached at once: 512 rings of 32 LEDs (the 16 384-LED chain), 256 colour zones, 256 looks
    /// of four stops, and every ring showing a look of its own.
    static func largest(directory: String) -> String {
        let rings = (0..<512).map { i -> String in
            let zones = i < 128 ? ##", "zones": [{"upTo": 0.5, "gradient": ["#00ff00", "#0000ff"]}, {"gradient": "#ff0000"}]"## : ""
            return ##"{"name": "r\##(i)", "leds": 32, "gradient": ["#ff2020", "#20ff20", "#2020ff"], "look": "l\##(i % 256)"\##(zones)}"##
        }
        let looks = (0..<256).map { j in
            ##""l\##(j)": {"gradient": ["#ff2020", "#20ff20", "#2020ff", "#ffffff"]}"##
        }
        return """
        {"rings": [\(rings.joined(separator: ",\n"))],
         "looks": {\(looks.joined(separator: ",\n"))},
         "output": {"driver": "apa102-spi", "dumpWire": "\(directory)/wire.bin"}, "maxMilliamps": 1000000}
        """
    }

    /// The limit a test holds; the README states what was measured (about half of it).
    static let boundKilobytes = 64 * 1024

    /// 512 rings × 100 looks took 646 MB to start, because every ring kept a mapper (and a 12 KB
    /// gradient table) for every look.
    @Test func theLargestAcceptedConfigIsCheckedAndRunInLittleMemory() throws {
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        try Self.largest(directory: directory).write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try Self.measured(["check-config", path])
        #expect(checked.status == 0, "\(checked.stderr)")
        // One line, not 512 ring names.
        #expect(checked.stdout.hasSuffix(": OK — 16384 LEDs: r0 (32 LEDs), r1 (32 LEDs), r2 (32 LEDs), r3 (32 LEDs), r4 (32 LEDs), r5 (32 LEDs), r6 (32 LEDs), r7 (32 LEDs) and 504 more rings; 256 looks\n"),
                "\(checked.stdout)")
        #expect(checked.peakResidentKilobytes > 0 && checked.peakResidentKilobytes < Self.boundKilobytes,
                "check-config took \(checked.peakResidentKilobytes) kB")

        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        // Every ring has drawn its look once the first frame is on the wire.
        #expect(daemon.waitUntil { ((try? FileManager.default.attributesOfItem(atPath: daemon.dump)[.size] as? Int) ?? 0) > 0 })
        #expect(try daemon.client(["look", "r0", "l255"]).status == 0)
        #expect(try daemon.client(["look", "r511", "#ff8000", "pulse"]).status == 0)
        let peak = try Self.peakKilobytes(of: daemon.process.pid)
        #expect(peak > 0 && peak < Self.boundKilobytes, "ledring run took \(peak) kB")
        print("largest config: check-config \(checked.peakResidentKilobytes) kB, run \(peak) kB")
    }

    /// One reload into the largest config and back: the peak stays within the bound.
    @Test func aReloadIntoTheLargestConfigStaysWithinTheBound() throws {
        let directory = DaemonProcess.makeDirectory()
        let path = directory + "/config.json"
        try #"{"rings": [{"name": "a", "leds": 8}], "output": {"driver": "apa102-spi", "dumpWire": "\#(directory)/wire.bin"}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        defer { daemon.cleanUp() }
        try Self.largest(directory: directory).write(toFile: path, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(daemon.waitUntil { daemon.stderr.contains("reloaded") }, "\(daemon.stderr)")
        #expect(try daemon.rings().count == 512)
        let peak = try Self.peakKilobytes(of: daemon.process.pid)
        #expect(peak > 0 && peak < Self.boundKilobytes, "a reload took ledring run to \(peak) kB")
    }

    struct Measured {
        var status: Int32
        var stdout: String
        var stderr: String
        var peakResidentKilobytes: Int
    }

    /// Runs ledring with `arguments` and its own peak resident memory, from `wait4` in a Python
    /// that forks it. Not `ru_maxrss` of a child this test spawns: `posix_spawn` shares the test
    /// runner's memory until the exec, and the kernel counts that memory's peak (often 100 MB
    /// with the other suites running) as the child's (`exec_mmap`, `setmax_mm_hiwater_rss`).
    static func measured(_ arguments: [String]) throws -> Measured {
        let script = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        _, status, usage = os.wait4(pid, 0)
        sys.stderr.write("peak-kB %d exit %d\\n" % (usage.ru_maxrss, os.waitstatus_to_exitcode(status)))
        """
        let result = try LedringProcess.run(["-c", script, LedringProcess.executable.path] + arguments,
                                            executable: URL(fileURLWithPath: "/usr/bin/python3"))
        let last = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kB ") } ?? ""
        let words = last.split(separator: " ")
        guard words.count == 4, let peak = Int(words[1]), let status = Int32(words[3]) else {
            throw DaemonProcess.Failure(description: "no figure from python3: \(result.status) \(result.stderr)")
        }
        return Measured(status: status, stdout: result.stdout, stderr: result.stderr, peakResidentKilobytes: peak)
    }

    /// VmHWM from `/proc/PID/status`, in kB.
    static func peakKilobytes(of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
