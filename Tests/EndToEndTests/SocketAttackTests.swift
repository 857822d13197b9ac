import Foundation
import Glibc
import LEDRingNetTesting
import Synchronization
import Testing

/// Issue 14 on the control socket and standard input: idle clients, a byte order mark, huge
/// values echoed, junk flooding the log. At most 33 connections; every wait is bounded.
@Suite struct SocketAttackTests {
    @Test func idleClientsDoNotLockOthersOut() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        // The start-up probe's connection must be gone before counting: only the status client is left.
        #expect(daemon.waitUntil { (try? daemon.client(["status", "--json"]).stdout.contains("\"clients\":1,")) == true })
        var idle: [SocketConnection] = []
        for _ in 0..<32 { idle.append(try SocketConnection(path: daemon.socket)) }
        // They say nothing; after a moment a real client still gets its answer.
        usleep(1_500_000)
        let get = try daemon.client(["get"])
        #expect(get.status == 0, "ledring get: \(get.stderr)")
        #expect(idle.count == 32)
    }

    /// Connections kept busy by a thread of their own.
    final class Busy: @unchecked Sendable {
        let connections: [SocketConnection]
        let stop = Mutex(false)
        init(_ connections: [SocketConnection]) { self.connections = connections }
    }

    @Test func aFullSocketAnswersBusyNotBrokenPipe() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        #expect(daemon.waitUntil { (try? daemon.client(["status", "--json"]).stdout.contains("\"clients\":1,")) == true })
        var connections: [SocketConnection] = []
        for _ in 0..<32 { connections.append(try SocketConnection(path: daemon.socket)) }
        let busy = Busy(connections)
        // Every client asks something every 50 ms or so, so none is idle enough (1 s) to give way.
        let thread = Thread {
            for _ in 0..<1200 where !busy.stop.withLock({ $0 }) {
                for connection in busy.connections { try? connection.send("get\n") }
                for connection in busy.connections { _ = connection.readLine(timeout: 5) }
                usleep(50_000)
            }
        }
        thread.start()
        defer { busy.stop.withLock { $0 = true } }
        usleep(300_000)
        let get = try daemon.client(["get"])
        #expect(get.status == 69 && get.stderr.contains("busy") && !get.stderr.contains("Broken pipe"), "\(get.status) \(get.stderr)")
    }

    @Test func aByteOrderMarkBeforeARequestIsIgnored() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let connection = try SocketConnection(path: daemon.socket)
        let reply = try connection.request("\u{FEFF}get")
        #expect(reply["ok"] as? Bool == true, "\(reply)")
    }

    @Test func hugeValuesAreNotEchoedWhole() throws {
        let daemon = try DaemonProcess()
        defer { daemon.cleanUp() }
        let connection = try SocketConnection(path: daemon.socket)
        let value = String(repeating: "x", count: 10_000)
        for line in ["set move \(value)", "set \(value) 0.5", "\(value)", "brightness \(value)", "curve \(value)"] {
            try connection.send(line + "\n")
            let reply = try #require(connection.readLine())
            #expect(reply.contains("\"ok\":false") && reply.count < 600, "\(reply.prefix(200))")
        }
    }

    @Test func junkOnStandardInputDoesNotFloodTheLog() throws {
        let daemon = try DaemonProcess(["--driver", "apa102-spi", "--dump-wire", "WIRE", "--stdin"].map {
            $0 == "WIRE" ? DaemonProcess.makeDirectory() + "/wire.bin" : $0
        })
        defer { daemon.cleanUp() }
        let junk = (0..<500).map { "junk \($0) \u{1B}[31mred\u{1B}[0m" }.joined(separator: "\n") + "\n"
        daemon.process.write(junk)
        daemon.process.closeInput()
        #expect(daemon.waitUntil { daemon.stderr.contains("standard input closed") })
        let complaints = daemon.stderr.split(separator: "\n").filter { $0.contains("standard input line") }
        #expect(complaints.count >= 1 && complaints.count <= 10)
        #expect(!daemon.stderr.contains("\u{1B}"))
    }
}

/// Issue 28 item 7: without `XDG_RUNTIME_DIR` the socket falls back to `/tmp/ledring-UID.sock`,
/// which another user can bind first. Needs root (to act as two users) and `setpriv`
/// (util-linux); CI runs as root.
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
struct SocketSquattingTests {
    /// Runs the built ledring as `uid`, with no XDG runtime directory and HOME in `home`.
    static func run(as uid: UInt32, home: String, _ arguments: [String], timeout: Double = 30) throws -> LedringProcess.Result {
        try LedringProcess.run(["--reuid", "\(uid)", "--regid", "\(uid)", "--clear-groups",
                                "/usr/bin/env", "-u", "XDG_RUNTIME_DIR", "-u", "LEDRING_SOCKET", "HOME=\(home)",
                                LedringProcess.executable.path] + arguments,
                               executable: URL(fileURLWithPath: "/usr/bin/setpriv"), timeout: timeout)
    }

    @Test func anotherUsersSocketIsNeitherAskedNorReplaced() throws {
        let victim = UInt32(40_000 + Int(getpid()) % 20_000)
        let path = "/tmp/ledring-\(victim).sock"
        let directory = DaemonProcess.makeDirectory()
        chmod(directory, 0o777)
        unlink(path)
        defer {
            unlink(path)
            try? FileManager.default.removeItem(atPath: directory)
        }
        // User nobody gets to the victim's fallback path first and answers as a daemon would.
        let squatter = try ChildProcess("/usr/bin/setpriv",
                                        ["--reuid", "65534", "--regid", "65534", "--clear-groups",
                                         LedringProcess.executable.path, "run", "--socket", path,
                                         "--state", directory + "/squatter.json", "--driver", "apa102-spi",
                                         "--dump-wire", directory + "/wire.bin"],
                                        stdin: .pipe, stdout: .file(directory + "/squatter.out"),
                                        stderr: .file(directory + "/squatter.err"))
        defer { if squatter.isRunning { squatter.send(SIGKILL); squatter.wait(timeout: 30) } }
        let started = DaemonProcess.poll { (try? SocketConnection(path: path)) != nil || !squatter.isRunning }
        try #require(started && squatter.isRunning, "the squatter did not start")
        // A squatter means the victim to connect: its socket is open to all.
        chmod(path, 0o666)

        let get = try Self.run(as: victim, home: directory, ["get"])
        #expect(get.status == 77 && get.stderr.contains("user 65534") && get.stdout.isEmpty,
                "get: \(get.status) \(get.stdout) \(get.stderr)")
        let set = try Self.run(as: victim, home: directory, ["set", "move=0.5"])
        #expect(set.status == 77 && set.stderr.contains("user 65534"), "set: \(set.status) \(set.stderr)")
        let run = try Self.run(as: victim, home: directory, ["run", "--driver", "apa102-spi",
                                                             "--dump-wire", directory + "/victim.bin"])
        #expect(run.status == 69 && run.stderr.contains("user 65534") && !run.stderr.contains("writable"),
                "run: \(run.status) \(run.stderr)")

        // Killed, it leaves its socket behind: still not the victim's to use or to replace.
        squatter.send(SIGKILL)
        squatter.wait(timeout: 30)
        var node = stat()
        try #require(lstat(path, &node) == 0 && node.st_uid == 65534, "the squatter's socket is gone")
        let stale = try Self.run(as: victim, home: directory, ["run", "--driver", "apa102-spi",
                                                               "--dump-wire", directory + "/victim.bin"])
        #expect(stale.status == 69 && stale.stderr.contains("user 65534") && !stale.stderr.contains("writable"),
                "run over a stale socket: \(stale.status) \(stale.stderr)")
    }

    @Test func onesOwnSocketInTmpIsUsed() throws {
        let victim = UInt32(40_000 + (Int(getpid()) + 1) % 20_000)
        let path = "/tmp/ledring-\(victim).sock"
        let directory = DaemonProcess.makeDirectory()
        chmod(directory, 0o777)
        unlink(path)
        defer {
            unlink(path)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let daemon = try ChildProcess("/usr/bin/setpriv",
                                      ["--reuid", "\(victim)", "--regid", "\(victim)", "--clear-groups",
                                       "/usr/bin/env", "-u", "XDG_RUNTIME_DIR", "HOME=\(directory)",
                                       LedringProcess.executable.path, "run", "--driver", "apa102-spi",
                                       "--dump-wire", directory + "/wire.bin"],
                                      stdin: .pipe, stdout: .file(directory + "/daemon.out"),
                                      stderr: .file(directory + "/daemon.err"))
        defer { if daemon.isRunning { daemon.send(SIGKILL); daemon.wait(timeout: 30) } }
        let started = DaemonProcess.poll { (try? SocketConnection(path: path)) != nil || !daemon.isRunning }
        try #require(started && daemon.isRunning, "the daemon did not start")
        let set = try Self.run(as: victim, home: directory, ["set", "move=0.5"])
        #expect(set.status == 0, "set: \(set.status) \(set.stderr)")
        let get = try Self.run(as: victim, home: directory, ["get"])
        #expect(get.status == 0 && get.stdout.contains("move"), "get: \(get.status) \(get.stdout) \(get.stderr)")
    }
}
