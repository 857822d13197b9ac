import Foundation
import Glibc
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
