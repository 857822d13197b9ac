import Foundation
import Glibc

/// A real Mosquitto broker on a free loopback port, started and killed by the test (Debian's
/// `mosquitto`), plus `mosquitto_pub`/`mosquitto_sub` (Debian's `mosquitto-clients`) to talk to it.
/// With `tls`, the listener speaks only TLS and the helper's own clients use the same CA (and
/// client certificate).
public final class MosquittoBroker {
    /// A TLS listener's files (PEM) and whether it insists on a client certificate.
    public struct TLS: Sendable {
        /// The CA the broker trusts for client certificates, and its clients trust for the broker's.
        public var caFile: String
        /// The broker's certificate and key.
        public var server: ThrowawayCA.Pair
        /// `require_certificate true`: a client without a certificate signed by `caFile` is refused.
        public var requireCertificate: Bool
        /// The certificate the helper's `mosquitto_pub`/`mosquitto_sub` present.
        public var client: ThrowawayCA.Pair?

        public init(caFile: String, server: ThrowawayCA.Pair, requireCertificate: Bool = false, client: ThrowawayCA.Pair? = nil) {
            self.caFile = caFile
            self.server = server
            self.requireCertificate = requireCertificate
            self.client = client
        }
    }

    public let port: Int
    /// The TLS listener's settings, nil for plain MQTT.
    public let tls: TLS?
    private let directory: URL
    private var process: ChildProcess?
    /// Background subscribers, ended with the broker.
    private var subscribers: [ChildProcess] = []

    /// Where a program is, or an error naming the package to install.
    public static func program(_ name: String, package: String) throws -> String {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"]
        for dir in dirs where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        throw LoopbackError(description: "\(name) not found: `sudo apt install \(package)` (the MQTT tests run a real broker)")
    }

    /// A port nobody listens on right now (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard ok else { throw LoopbackError(description: "cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public init(tls: TLS? = nil) throws {
        port = try Self.freePort()
        self.tls = tls
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // No persistence: a restarted broker has forgotten every retained message, so the test
        // sees that the bridge republishes them.
        var config = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
        if let tls {
            // Started as root, mosquitto switches to the `mosquitto` user before reading the key
            // files, which only their owner may read: stay the user who made them.
            config += "user \(Self.userName())\n"
            config += "cafile \(tls.caFile)\ncertfile \(tls.server.certificate)\nkeyfile \(tls.server.key)\n"
            if tls.requireCertificate { config += "require_certificate true\n" }
        }
        try config.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// The name of the user running the tests.
    private static func userName() -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }

    /// How `mosquitto_pub`/`mosquitto_sub` reach this broker: address, port and any TLS files.
    public var clientArguments: [String] {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)"]
        if let tls {
            arguments += ["--cafile", tls.caFile]
            if let client = tls.client { arguments += ["--cert", client.certificate, "--key", client.key] }
        }
        return arguments
    }

    deinit {
        subscribers.removeAll()  // each is killed as it goes
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker and waits (bounded) until it accepts connections.
    public func start() throws {
        // Its complaints (a bad config line, an unreadable key) go to a file quoted if it exits.
        let logPath = directory.appendingPathComponent("mosquitto.log").path
        let p = try ChildProcess(try Self.program("mosquitto", package: "mosquitto"),
                                 ["-c", directory.appendingPathComponent("mosquitto.conf").path],
                                 stdout: .null, stderr: .file(logPath))
        process = p
        for _ in 0..<200 {
            if let fd = try? LoopbackHTTP.connect(port: port) {
                close(fd)
                return
            }
            guard p.isRunning else {
                let said = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw LoopbackError(description: "mosquitto exited with status \(p.status ?? -1) on port \(port): \(said)")
            }
            usleep(50_000)
        }
        throw LoopbackError(description: "mosquitto did not listen on port \(port) within 10 s")
    }

    /// The running broker's process id, nil while it is stopped.
    public var pid: pid_t? { process?.pid }

    /// Sends `signal` to the running broker: SIGSTOP stalls it (its sockets stay open and the
    /// kernel still accepts bytes, but nothing is answered, as a hung broker would), SIGCONT
    /// resumes it.
    public func send(_ signal: Int32) {
        process?.send(signal)
    }

    /// Kills the broker hard (SIGKILL, as a crash or power cut would) and waits for it to exit.
    public func kill() {
        guard let p = process else { return }
        p.send(SIGKILL)
        p.wait(timeout: 30)
        process = nil
    }

    /// Publishes one message with `mosquitto_pub`.
    public func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let (status, _) = try run("mosquitto_pub", clientArguments + ["-t", topic, "-m", payload, "-q", "1"] + (retain ? ["-r"] : []))
        guard status == 0 else { throw LoopbackError(description: "mosquitto_pub to \(topic) failed with \(status)") }
    }

    /// Publishes the contents of the file at `path` (`mosquitto_pub -f`: a payload too large to
    /// be one argument).
    public func publish(_ topic: String, file path: String) throws {
        let (status, _) = try run("mosquitto_pub", clientArguments + ["-t", topic, "-f", path, "-q", "1"])
        guard status == 0 else { throw LoopbackError(description: "mosquitto_pub -f \(path) to \(topic) failed with \(status)") }
    }

    /// The retained (or next) messages on `filter`, `count` of them, within 10 s: "topic payload" lines.
    public func messages(_ filter: String, count: Int = 1) throws -> [(topic: String, payload: String)] {
        let (_, output) = try run("mosquitto_sub", clientArguments + ["-t", filter, "-v", "-C", "\(count)", "-W", "10"])
        return output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// Starts `mosquitto_sub` in the background (it stops by itself after `count` messages or
    /// 15 s); the returned function reads its next line, waiting at most 10 s.
    public func subscriber(_ filter: String, count: Int) throws -> () throws -> String {
        let p = try ChildProcess(try Self.program("mosquitto_sub", package: "mosquitto-clients"),
                                 clientArguments + ["-t", filter, "-C", "\(count)", "-W", "15"], stderr: .null)
        subscribers.append(p)
        var pending = ""
        return {
            for _ in 0..<100 {
                if let newline = pending.firstIndex(of: "\n") {
                    defer { pending.removeSubrange(...newline) }
                    return String(pending[..<newline])
                }
                let chunk = p.readOutput(timeout: 10)
                guard !chunk.isEmpty else { throw LoopbackError(description: "mosquitto_sub ended or said nothing for 10 s") }
                pending += String(decoding: chunk, as: UTF8.self)
            }
            throw LoopbackError(description: "no line from mosquitto_sub")
        }
    }

    /// Every retained message under `filter` (topic to payload), read in about a second: what
    /// a new subscriber (Home Assistant after a restart) would be given.
    public func retainedMessages(_ filter: String = "#") throws -> [String: String] {
        let (_, output) = try run("mosquitto_sub", clientArguments + ["-t", filter, "-v", "--retained-only", "-W", "1"])
        var found: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            found[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return found
    }

    /// The retained payload on one topic.
    public func retained(_ topic: String) throws -> String? {
        try messages(topic).first?.payload
    }

    private func run(_ name: String, _ arguments: [String]) throws -> (Int32, String) {
        // Bounded: mosquitto_sub stops itself after -W 10; anything still running at 20 s is ended.
        let result = try ChildProcess.run(try Self.program(name, package: "mosquitto-clients"), arguments, timeout: 20)
        return (result.status, result.stdout)
    }
}
