import Foundation
import Glibc
import LEDSystem
import Testing

/// The one reader for configs and secrets refuses what could make it read for ever or fill the
/// memory, before reading, with a reason a message can name.
@Suite struct BoundedFileTests {
    @Test func readsASmallRegularFileWhole() throws {
        let path = "/tmp/lr-bounded-\(UUID().uuidString.prefix(8))"
        defer { unlink(path) }
        try "hello\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try BoundedFile.read(path, limit: 6) == Array("hello\n".utf8))
        #expect(throws: BoundedFile.Problem.tooLarge(bytes: 6)) { try BoundedFile.read(path, limit: 5) }
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        #expect(throws: BoundedFile.Problem.notRegular(kind: "a character device")) { try BoundedFile.read("/dev/zero", limit: 64) }
        #expect(throws: BoundedFile.Problem.notRegular(kind: "a directory")) { try BoundedFile.read("/tmp", limit: 64) }
        let fifo = "/tmp/lr-fifo-\(UUID().uuidString.prefix(8))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: BoundedFile.Problem.notRegular(kind: "a pipe")) { try BoundedFile.read(fifo, limit: 64) }
        #expect(throws: BoundedFile.Problem.cannotOpen(Errno(rawValue: ENOENT))) { try BoundedFile.read("/nonexistent/x", limit: 64) }
    }
}
