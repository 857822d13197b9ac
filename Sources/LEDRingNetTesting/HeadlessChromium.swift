import Foundation
import Glibc

/// Debian's `chromium`, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands in on fd 3, replies out on fd 4, NUL-separated JSON), so
/// the test needs no WebSocket client and no port of its own.
public final class HeadlessChromium {
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: URL
    private var nextID = 0
    private var buffer: [UInt8] = []
    private var session: String?

    /// The browser, or nil when none is installed.
    public static var path: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts the browser (root in a container needs --no-sandbox; no GPU on a server).
    public init() throws {
        guard let path = Self.path else { throw LoopbackError(description: "chromium not found: `sudo apt install chromium`") }
        // A browser that dies mid-test must fail the write, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else { throw LoopbackError(description: "pipe: errno \(errno)") }
        // Close-on-exec on all four ends: the child gets only the dup2 copies on fds 3 and 4.
        for fd in down + up { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, down[0], 3)
        posix_spawn_file_actions_adddup2(&actions, up[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "about:blank"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, &argv, environ)
        close(down[0])
        close(up[1])
        guard rc == 0 else {
            close(down[1]); close(up[0])
            throw LoopbackError(description: "cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        toBrowser = down[1]
        fromBrowser = up[0]
    }

    deinit {
        _ = try? send("Browser.close", [:], inSession: false)
        var status: Int32 = 0
        // Bounded: give it two seconds to close, then kill the process this test started.
        var exited = false
        for _ in 0..<40 where !exited {
            exited = waitpid(pid, &status, WNOHANG) == pid
            if !exited { usleep(50_000) }
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(toBrowser)
        close(fromBrowser)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends one command and waits (bounded) for its reply's `result`.
    @discardableResult
    public func send(_ method: String, _ params: [String: Any], inSession: Bool = true) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if inSession, let session { message["sessionId"] = session }
        let data = try JSONSerialization.data(withJSONObject: message)
        try write(Array(data) + [0])
        let deadline = Deadline(seconds: 60)
        for _ in 0..<10_000 where !deadline.passed {
            if let end = buffer.firstIndex(of: 0) {
                let reply = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                guard let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
                      object["id"] as? Int == nextID else { continue }
                if let error = object["error"] as? [String: Any] {
                    throw LoopbackError(description: "\(method): \(error["message"] ?? error)")
                }
                return object["result"] as? [String: Any] ?? [:]
            }
            let chunk = try LoopbackHTTP.readSome(fromBrowser, timeout: 30_000)
            guard !chunk.isEmpty else { throw LoopbackError(description: "chromium closed the DevTools pipe") }
            buffer += chunk
        }
        throw LoopbackError(description: "no reply to \(method) within 60 s")
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.write(toBrowser, $0.baseAddress, $0.count) }
            guard n > 0 else { throw LoopbackError(description: "writing to chromium: errno \(errno)") }
            sent += n
        }
    }

    /// Opens `url` in a new tab and attaches to it.
    public func open(_ url: String) throws {
        let target = try send("Target.createTarget", ["url": url], inSession: false)
        guard let id = target["targetId"] as? String else { throw LoopbackError(description: "no targetId in \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": id, "flatten": true], inSession: false)
        guard let session = attached["sessionId"] as? String else { throw LoopbackError(description: "no sessionId in \(attached)") }
        self.session = session
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its JSON value.
    @discardableResult
    public func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw LoopbackError(description: "page script failed: \(exception["text"] ?? "")  \(exception["exception"] ?? "")")
        }
        return (result["result"] as? [String: Any])?["value"]
    }
}
