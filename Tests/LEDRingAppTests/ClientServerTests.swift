import Glibc
import LEDHardware
import LEDRingControl
import LEDRingTesting
import Testing
@testable import LEDRingApp

/// The control socket's server over the fake kernel: a client connects, sends a line and gets
/// the reply bytes; interrupted calls are retried by the seam; a broken client is closed alone.
@Suite struct ClientServerTests {
    static let path = "/run/ledring/ledring.sock"

    /// A server on a fake kernel, what it logged, and the fake.
    final class Rig {
        let fake = FakeSystemCalls()
        var logged: [String] = []
        var server: ClientServer!
        var now = 100.0

        init() throws {
            fake.addDirectory("/run/ledring")
            server = try ClientServer(listeningOn: ClientServerTests.path, mode: 0o660, system: RetryingSystemCalls(fake),
                                      log: { [unowned self] in self.logged.append($0) })
        }

        /// One turn of the daemon's loop for the server: poll (the fake answers at once), handle.
        func turn(_ answer: ClientServer.Answer = { line, _ in "reply to \(line)" }) throws {
            var entries = server.pollEntries()
            _ = try RetryingSystemCalls(fake).poll(&entries, timeout: 0)
            server.handle(entries[...], at: now, answer: answer)
        }

        /// A connected and accepted client.
        func client() throws -> Int32 {
            let fd = try fake.connectClient(to: ClientServerTests.path)
            let before = server.clients.count
            try turn()
            #expect(server.clients.count == before + 1)
            return fd
        }

        /// The server's descriptor for the `index`th client.
        func serverSide(_ index: Int) -> Int32 { server.clients[index].fd }
    }

    @Test func theSocketIsCreatedWithItsModeAndTheUmaskRestored() throws {
        let rig = try Rig()
        #expect(rig.fake.mode(of: ClientServerTests.path) == 0o660)
        #expect(try rig.fake.lstat(ClientServerTests.path).isSocket)
        #expect(rig.fake.setFileCreationMask(0o022) == 0o022)
    }

    @Test func aRequestGetsItsReply() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.fake.clientSend(client, "status\n")
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "reply to status\n")
        #expect(rig.logged.isEmpty)
    }

    @Test func aLineSplitAcrossReadsIsOneRequest() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.fake.clientSend(client, "set move")
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "")
        rig.fake.clientSend(client, " 0.5\r\n")
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "reply to set move 0.5\n")
    }

    @Test(arguments: [FakeSystemCalls.Syscall.accept, .read, .send])
    func anInterruptedCallIsRetried(_ syscall: FakeSystemCalls.Syscall) throws {
        let rig = try Rig()
        rig.fake.fail(syscall, with: .interrupted, onCall: 1)
        let client = try rig.fake.connectClient(to: ClientServerTests.path)
        rig.fake.clientSend(client, "get\n")
        try rig.turn()
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "reply to get\n")
        #expect(rig.server.clients.count == 1 && rig.logged.isEmpty)
        #expect(rig.fake.calls.filter { $0.syscall == syscall }.count >= 2)
    }

    @Test(arguments: [ECONNRESET, EIO])
    func aReadErrorClosesThatClientOnlyAndIsLoggedOnce(_ errno: Int32) throws {
        let rig = try Rig()
        let broken = try rig.client()
        let healthy = try rig.client()
        rig.fake.fail(.read, with: Errno(rawValue: errno), times: 100, fd: rig.serverSide(0))
        rig.fake.clientSend(broken, "get\n")
        rig.fake.clientSend(healthy, "get\n")
        try rig.turn()
        #expect(rig.fake.clientIsClosedByPeer(broken), "the broken client stays open")
        #expect(rig.fake.clientReceive(broken) == "", "a read error was taken for a request")
        #expect(!rig.fake.clientIsClosedByPeer(healthy))
        #expect(rig.fake.clientReceive(healthy) == "reply to get\n")
        #expect(rig.server.clients.count == 1)
        try rig.turn()
        #expect(rig.logged.count == 1)
        #expect(rig.logged.first?.contains(Errno(rawValue: errno).description) == true)
    }

    @Test func aClientThatHangsUpIsClosedQuietly() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.fake.clientSend(client, "get\n")
        rig.fake.clientClose(client)
        try rig.turn()
        // Its reply hit EPIPE: closed, not logged (a client leaving is ordinary).
        #expect(rig.server.clients.isEmpty)
        #expect(rig.logged.isEmpty)
    }

    @Test func aLineOverTheLimitGetsTheErrorReply() throws {
        let rig = try Rig()
        let client = try rig.client()
        var answered: [String] = []
        rig.fake.clientSend(client, String(repeating: "x", count: 64 * 1024 + 1) + "\nget\n")
        for _ in 0..<3 { try rig.turn { line, _ in answered.append(line); return "ok" } }
        let replies = rig.fake.clientReceive(client).split(separator: "\n").map(String.init)
        #expect(replies == [ClientServer.tooLongReply, "ok"])
        #expect(answered == ["get"], "the over-long line reached the daemon")
        #expect(rig.server.clients.count == 1)
    }

    @Test func aFullSocketKeepsTheReplyQueued() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.fake.fail(.send, with: Errno(rawValue: EAGAIN), onCall: 1)
        rig.fake.clientSend(client, "get\n")
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "")
        #expect(rig.server.clients.first?.outgoing.isEmpty == false)
        #expect(rig.server.pollEntries()[1].events & Int16(POLLOUT) != 0, "not waiting to write")
        try rig.turn()
        #expect(rig.fake.clientReceive(client) == "reply to get\n")
        #expect(rig.server.clients.first?.outgoing.isEmpty == true && rig.logged.isEmpty)
    }

    @Test func aSlowReaderGetsTheReplyInPieces() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.fake.limitSocketBuffers(to: 5)
        rig.fake.clientSend(client, "get\n")
        var received = ""
        for _ in 0..<6 {
            try rig.turn()
            received += rig.fake.clientReceive(client)
        }
        #expect(received == "reply to get\n")
    }

    @Test func nothingWaitingIsNotAnError() throws {
        let rig = try Rig()
        rig.server.acceptClients(at: rig.now)  // accept: EAGAIN
        let client = try rig.client()
        // POLLIN without data (a spurious wake-up): EAGAIN, the client stays.
        #expect(rig.server.serve(rig.server.clients[0], events: Int16(POLLIN), at: rig.now) { _, _ in nil })
        #expect(rig.server.clients.count == 1 && rig.logged.isEmpty)
        _ = client
    }

    @Test func aSilentClientIsClosedAfterTheIdleTimeout() throws {
        let rig = try Rig()
        let client = try rig.client()
        #expect(rig.server.nextIdleDeadline == rig.now + ClientServer.clientIdleTimeout)
        rig.server.closeIdleClients(at: rig.now + ClientServer.clientIdleTimeout + 0.1)
        #expect(rig.server.clients.isEmpty && rig.fake.clientIsClosedByPeer(client))
        #expect(rig.fake.clientReceive(client).contains("without a request"))
        #expect(rig.server.nextIdleDeadline == nil)
    }

    @Test func closingRemovesTheSocketAndEveryDescriptor() throws {
        let rig = try Rig()
        let client = try rig.client()
        rig.server.close(at: rig.now)
        #expect(rig.fake.clientIsClosedByPeer(client))
        #expect(throws: Errno.self) { try rig.fake.lstat(ClientServerTests.path) }
        #expect(rig.fake.openEndpoints == [client])
    }

    @Test func aStaleSocketIsReplacedButALiveOneIsLeftAlone() throws {
        let fake = FakeSystemCalls()
        fake.addDirectory("/run/ledring")
        let seam = RetryingSystemCalls(fake)
        let first = try ClientServer(listeningOn: ClientServerTests.path, mode: 0o660, system: seam, log: { _ in })
        let refused = #expect(throws: SystemError.self) {
            _ = try ClientServer(listeningOn: ClientServerTests.path, mode: 0o660, system: seam, log: { _ in })
        }
        #expect(refused?.code == EADDRINUSE)
        // A crashed daemon leaves its socket's name behind: the next one takes its place.
        try fake.close(first.listener)
        let second = try ClientServer(listeningOn: ClientServerTests.path, mode: 0o660, system: seam, log: { _ in })
        _ = try fake.connectClient(to: ClientServerTests.path)
        second.acceptClients(at: 0)
        #expect(second.clients.count == 1)
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() throws {
        let fake = FakeSystemCalls()
        fake.addFile(ClientServerTests.path, "precious")
        let error = #expect(throws: SystemError.self) {
            _ = try ClientServer(listeningOn: ClientServerTests.path, mode: 0o660, system: RetryingSystemCalls(fake), log: { _ in })
        }
        #expect(error?.code == EEXIST)
        #expect(try fake.readFile(ClientServerTests.path) == Array("precious".utf8))
    }
}
