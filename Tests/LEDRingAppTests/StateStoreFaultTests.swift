import Foundation
import Glibc
import LEDHardware
import LEDRingControl
import LEDRingTesting
import Testing
@testable import LEDRingApp

/// A state write that fails anywhere (a full disk, an I/O error, a read-only file system) keeps
/// the previous state file, leaves no temp file behind, reports the failure, and leaves the
/// store usable for the next try; an interrupted call is retried. Every call goes through the
/// fake kernel, so each failure is made exactly where it would happen.
@Suite struct StateStoreFaultTests {
    struct Fault: CustomStringConvertible, Sendable {
        var syscall: FakeSystemCalls.Syscall
        var errno: Int32
        var description: String { "\(syscall) \(String(cString: strerror(errno)))" }
    }

    static let faults: [Fault] = [
        Fault(syscall: .open, errno: EROFS), Fault(syscall: .open, errno: EACCES),
        Fault(syscall: .write, errno: ENOSPC), Fault(syscall: .write, errno: EIO),
        Fault(syscall: .fsync, errno: EIO), Fault(syscall: .close, errno: EIO),
        Fault(syscall: .rename, errno: EROFS), Fault(syscall: .rename, errno: EXDEV),
    ]

    let old = SavedState(rings: ["move": 0.25], spinning: [], brightness: 1)
    let new = SavedState(rings: ["move": 0.75, "stand": 1.3], spinning: ["stand"], brightness: 0.5)

    /// A real directory (the store checks it exists) and a state file in the fake kernel only.
    func setUp() throws -> (path: String, directory: String, fake: FakeSystemCalls, oldBytes: [UInt8]) {
        let directory = "/tmp/lr-fault-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/state.json"
        let fake = FakeSystemCalls()
        fake.addDirectory(directory)
        try StateStore(path: path, system: RetryingSystemCalls(fake)).save(old)
        let oldBytes = try fake.readFile(path)
        return (path, directory, fake, oldBytes)
    }

    /// A rename is on disk only once its directory is: after the rename the store opens the
    /// directory and fsyncs it (a power cut could otherwise bring back the old state, or none).
    @Test func theDirectoryIsSyncedAfterTheRename() throws {
        let (path, directory, fake, _) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = fake.calls.count
        try StateStore(path: path, system: RetryingSystemCalls(fake)).save(new)
        let calls = Array(fake.calls[before...])
        let rename = try #require(calls.firstIndex { if case .rename(_, path) = $0 { return true } else { return false } })
        let open = try #require(calls[rename...].firstIndex {
            if case .open(directory, let flags) = $0 { return flags & O_DIRECTORY != 0 } else { return false }
        }, "the directory is not opened after the rename: \(calls[rename...])")
        let sync = calls[open...].firstIndex { if case .fsync = $0 { return true } else { return false } }
        #expect(sync != nil, "no fsync of the directory after the rename: \(calls[rename...])")
        #expect(calls[open...].contains { if case .close = $0 { return true } else { return false } }, "the directory is left open")
    }

    @Test("a failed save keeps the previous state", arguments: StateStoreFaultTests.faults)
    func aFailedSaveKeepsThePreviousState(_ fault: Fault) throws {
        let (path, directory, fake, oldBytes) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StateStore(path: path, system: RetryingSystemCalls(fake))
        fake.fail(fault.syscall, with: Errno(rawValue: fault.errno), onCall: fake.calls.filter { $0.syscall == fault.syscall }.count + 1)
        let callsBefore = fake.calls.count
        var thrown: SystemError?
        do { try store.save(new) } catch { thrown = error }
        let failure = try #require(thrown, "the save reported no failure")
        #expect(failure.code == fault.errno)
        #expect(try fake.readFile(path) == oldBytes, "the previous state was lost")
        #expect(store.load() == .state(old))
        let leftovers = try fake.listDirectory(directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "temp files left: \(leftovers)")
        #expect(fake.calls.count > callsBefore)
        // The fault was one-shot: the next save goes through.
        try store.save(new)
        #expect(store.load() == .state(new))
    }

    @Test func interruptedCallsAreRetried() throws {
        let (path, directory, fake, _) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for syscall: FakeSystemCalls.Syscall in [.open, .write, .fsync, .rename] {
            fake.fail(syscall, with: .interrupted, onCall: fake.calls.filter { $0.syscall == syscall }.count + 1)
        }
        let store = StateStore(path: path, system: RetryingSystemCalls(fake))
        try store.save(new)
        #expect(store.load() == .state(new))
    }

    @Test func aHugeStateFileIsSetAsideUnread() throws {
        let (path, directory, fake, _) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        fake.addFile(path, bytes: [UInt8](repeating: UInt8(ascii: " "), count: StateStore.maxBytes + 1))
        let store = StateStore(path: path, system: RetryingSystemCalls(fake))
        let readsBefore = fake.calls.filter { $0.syscall == .readFile }.count
        guard case .corrupt(let reason, let movedTo?) = store.load() else {
            Issue.record("a huge state file was not set aside")
            return
        }
        #expect(reason.contains("bytes; a state file is at most"))
        #expect(fake.calls.filter { $0.syscall == .readFile }.count == readsBefore, "the huge file was read")
        #expect(try fake.readFile(movedTo).count == StateStore.maxBytes + 1)
    }
}
