import Foundation
import Glibc
import LEDRingNetTesting
import LEDWire
import RingModel

/// A `ledring run` started for one test, in its own temporary directory (socket, state, dump
/// file, log), stopped with SIGKILL if the test did not stop it.
final class DaemonProcess {
    let directory: String
    /// The daemon; its standard input is a pipe the test writes (`--stdin`).
    let process: ChildProcess
    var socket: String { directory + "/ledring.sock" }
    var state: String { directory + "/state.json" }
    var dump: String { directory + "/wire.bin" }
    var log: String { directory + "/stderr.log" }
    var stdoutLog: String { directory + "/stdout.log" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A fresh temporary directory; short, so the socket path fits `sun_path`.
    static func makeDirectory() -> String {
        let path = "/tmp/lr-e2e-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `config` to `config.json` in `directory` and starts `ledring run --config` on it,
    /// with `arguments` after.
    convenience init(config: String, directory: String, arguments: [String] = []) throws {
        let path = directory + "/config.json"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        try self.init(["--config", path] + arguments, directory: directory)
    }

    /// Starts `ledring run --socket … --state … <arguments>`; by default on the APA102 dump driver.
    init(_ arguments: [String]? = nil, directory: String? = nil, waitForSocket: Bool = true) throws {
        self.directory = directory ?? DaemonProcess.makeDirectory()
        // A budget no test frame reaches, so frames show the colours the tests reason about; the
        // limiter has its own tests.
        let output = arguments ?? ["--driver", "apa102-spi", "--dump-wire", self.directory + "/wire.bin",
                                   "--max-milliamps", "100000"]
        let directory = self.directory
        process = try ChildProcess(LedringProcess.executable.path,
                                   ["run", "--socket", directory + "/ledring.sock", "--state", directory + "/state.json"] + output,
                                   stdin: .pipe, stdout: .file(directory + "/stdout.log"), stderr: .file(directory + "/stderr.log"))
        if waitForSocket {
            guard waitUntil({ (try? SocketConnection(path: self.socket)) != nil || !self.process.isRunning }),
                  process.isRunning else {
                throw Failure(description: "daemon did not start: \(stderr)")
            }
        }
    }

    /// Removes the directory (call at the end of a test that does not reuse it).
    func cleanUp() {
        if process.isRunning {
            process.send(SIGKILL)
            process.wait(timeout: 30)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    var stderr: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOfFile: stdoutLog, encoding: .utf8)) ?? "" }

    /// Runs a client command against this daemon.
    func client(_ arguments: [String]) throws -> LedringProcess.Result {
        try LedringProcess.run(arguments + ["--socket", socket])
    }

    /// The rings from `ledring get --json`: name → (shown, target, spinning).
    func rings() throws -> [String: (shown: Double, target: Double, spinning: Bool)] {
        let result = try client(["get", "--json"])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").first,
              let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let rings = reply["rings"] as? [[String: Any]] else {
            throw Failure(description: "get failed: \(result.status) \(result.stderr)")
        }
        var out: [String: (shown: Double, target: Double, spinning: Bool)] = [:]
        for ring in rings {
            guard let name = ring["name"] as? String else { continue }
            out[name] = ((ring["shown"] as? Double) ?? -1, (ring["target"] as? Double) ?? -1, (ring["spinning"] as? Bool) ?? false)
        }
        return out
    }

    /// Sends `signal` to the daemon.
    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the daemon to exit (bounded); its status, or nil if it is still running.
    func waitForExit(timeout: Double = 30) -> Int32? {
        process.wait(timeout: timeout)
    }

    /// Polls `condition` every 20 ms for at most `timeout` seconds (generous: the box is shared).
    @discardableResult
    func waitUntil(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        DaemonProcess.poll(timeout: timeout, condition)
    }

    /// Polls `condition` every 20 ms for at most `timeout` seconds, for processes that are not a
    /// `DaemonProcess`.
    @discardableResult
    static func poll(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Every APA102 frame in the dump file, decoded to colours.
    func frames(ledCount: Int = 52) throws -> [[RGB8]] {
        let encoder = try APA102Encoder()
        let length = encoder.encodedLength(ledCount: ledCount)
        let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))) ?? []
        var frames: [[RGB8]] = []
        var offset = 0
        while offset + length <= bytes.count {
            frames.append(try encoder.decode(Array(bytes[offset..<(offset + length)]), ledCount: ledCount).map(\.colour))
            offset += length
        }
        return frames
    }
}
