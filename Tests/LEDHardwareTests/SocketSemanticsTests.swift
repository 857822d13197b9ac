import Foundation
import Glibc
import LEDHardware
import LEDRingTesting
import Testing

/// The fake kernel's sockets and pipes answer as Linux does: each scenario runs on the real
/// kernel (in a temporary directory) and on `FakeSystemCalls`, and both must give the same result,
/// so a daemon test on the fake cannot pass on behaviour Linux does not have.
@Suite struct SocketSemanticsTests {
    enum Kernel: String, CaseIterable, CustomTestStringConvertible {
        case linux, fake
        var testDescription: String { rawValue }
    }

    /// A seam and a directory to put socket names in.
    static func machine(_ kernel: Kernel) -> (seam: any SystemCalls, directory: String, cleanup: () -> Void) {
        switch kernel {
        case .linux:
            let directory = NSTemporaryDirectory() + "ledring-sock-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return (LinuxSystemCalls(), directory, { try? FileManager.default.removeItem(atPath: directory) })
        case .fake:
            let fake = FakeSystemCalls()
            fake.addDirectory("/run/test")
            return (fake, "/run/test", {})
        }
    }

    static func outcome(_ body: () throws(Errno) -> Int) -> String {
        do {
            return "\(try body())"
        } catch {
            return "errno \(error.rawValue)"
        }
    }

    static func read(_ seam: any SystemCalls, _ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        return outcome { () throws(Errno) -> Int in
            try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try seam.read(fd, into: raw) } }.get()
        }
    }

    static func send(_ seam: any SystemCalls, _ fd: Int32, _ text: String) -> String {
        outcome { () throws(Errno) -> Int in
            try Array(text.utf8).withUnsafeBytes { raw in Result { () throws(Errno) in try seam.send(fd, raw) } }.get()
        }
    }

    @Test(arguments: Kernel.allCases)
    func aConnectionFromAcceptToHangUp(_ kernel: Kernel) throws {
        let (seam, directory, cleanup) = SocketSemanticsTests.machine(kernel)
        defer { cleanup() }
        let path = directory + "/control.sock"
        let listener = try seam.unixSocket(flags: O_NONBLOCK)
        try seam.bind(listener, path: path)
        try seam.listen(listener, backlog: 4)
        #expect(try seam.lstat(path).isSocket)
        // accept(2): a non-blocking listener with nothing waiting is EAGAIN.
        #expect(SocketSemanticsTests.outcome { () throws(Errno) in Int(try seam.accept(listener, flags: O_NONBLOCK)) } == "errno \(EAGAIN)")
        let client = try seam.unixSocket(flags: 0)
        try seam.connect(client, path: path)
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        #expect(try seam.poll(&fds, timeout: 0) == 1)
        #expect(fds[0].revents == Int16(POLLIN))
        let server = try seam.accept(listener, flags: O_NONBLOCK | O_CLOEXEC)
        // Nothing sent yet: EAGAIN, not end of file.
        #expect(SocketSemanticsTests.read(seam, server) == "errno \(EAGAIN)")
        #expect(SocketSemanticsTests.send(seam, client, "status\n") == "7")
        fds = [pollfd(fd: server, events: Int16(POLLIN | POLLOUT), revents: 0)]
        _ = try seam.poll(&fds, timeout: 0)
        #expect(fds[0].revents == Int16(POLLIN | POLLOUT))
        #expect(SocketSemanticsTests.read(seam, server) == "7")
        try seam.close(client)
        // The peer closed: POLLIN and POLLHUP, a read of 0, a send that fails with EPIPE.
        fds = [pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 0)
        #expect(fds[0].revents & Int16(POLLIN | POLLHUP) == Int16(POLLIN | POLLHUP))
        #expect(SocketSemanticsTests.read(seam, server) == "0")
        #expect(SocketSemanticsTests.send(seam, server, "late") == "errno \(EPIPE)")
        try seam.close(server)
        try seam.close(listener)
        // A name without a listener (a crashed daemon's) refuses; a missing name is ENOENT.
        let again = try seam.unixSocket(flags: 0)
        defer { try? seam.close(again) }
        #expect(SocketSemanticsTests.outcome { () throws(Errno) in try seam.connect(again, path: path); return 0 } == "errno \(ECONNREFUSED)")
        #expect(SocketSemanticsTests.outcome { () throws(Errno) in try seam.connect(again, path: directory + "/none"); return 0 }
                == "errno \(ENOENT)")
        // bind(2) over a stale name is EADDRINUSE: the name must be unlinked first.
        let third = try seam.unixSocket(flags: 0)
        defer { try? seam.close(third) }
        #expect(SocketSemanticsTests.outcome { () throws(Errno) in try seam.bind(third, path: path); return 0 } == "errno \(EADDRINUSE)")
        try seam.unlink(path)
        try seam.bind(third, path: path)
    }

    @Test(arguments: Kernel.allCases)
    func aConnectToAPlainFileIsRefused(_ kernel: Kernel) throws {
        let (seam, directory, cleanup) = SocketSemanticsTests.machine(kernel)
        defer { cleanup() }
        let path = directory + "/plain"
        let fd = try seam.open(path, flags: O_WRONLY | O_CREAT | O_CLOEXEC, mode: 0o600)
        try seam.close(fd)
        let client = try seam.unixSocket(flags: 0)
        defer { try? seam.close(client) }
        // unix(7): "ECONNREFUSED ... This error can also occur if the target pathname is not a socket."
        #expect(SocketSemanticsTests.outcome { () throws(Errno) in try seam.connect(client, path: path); return 0 } == "errno \(ECONNREFUSED)")
    }

    @Test(arguments: Kernel.allCases)
    func aPipeFromWriteToHangUp(_ kernel: Kernel) throws {
        let (seam, _, cleanup) = SocketSemanticsTests.machine(kernel)
        defer { cleanup() }
        let (readEnd, writeEnd) = try seam.pipe(flags: O_NONBLOCK | O_CLOEXEC)
        #expect(SocketSemanticsTests.read(seam, readEnd) == "errno \(EAGAIN)")
        #expect(try [UInt8]([15]).withUnsafeBytes { raw in Result { () throws(Errno) in try seam.write(writeEnd, raw) } }.get() == 1)
        #expect(SocketSemanticsTests.read(seam, readEnd) == "1")
        try seam.close(writeEnd)
        var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 0)
        #expect(fds[0].revents == Int16(POLLHUP))
        #expect(SocketSemanticsTests.read(seam, readEnd) == "0")
        try seam.close(readEnd)
        // A descriptor that is not open is POLLNVAL. Not readEnd's number: the kernel hands it to
        // the next open(2), which a test running beside this one may just have made.
        fds = [pollfd(fd: 1_000_000, events: Int16(POLLIN), revents: 0)]
        _ = try seam.poll(&fds, timeout: 0)
        #expect(fds[0].revents == Int16(POLLNVAL))
    }
}
