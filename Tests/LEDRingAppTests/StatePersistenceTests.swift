import Glibc
import LEDHardware
import LEDRingControl
import LEDRingTesting
import Testing
@testable import LEDRingApp

/// When the state is written: debounced, a failure logged once and retried later while the
/// previous file stays, on a fake kernel that fails where told.
@Suite struct StatePersistenceTests {
    let first = SavedState(rings: ["move": 0.25], spinning: [], brightness: 1)
    let second = SavedState(rings: ["move": 0.75], spinning: [], brightness: 1)
    let third = SavedState(rings: ["move": 1.0], spinning: [], brightness: 1)

    func persistence() -> (StatePersistence, FakeSystemCalls) {
        let fake = FakeSystemCalls()
        fake.addDirectory("/var/lib/ledring")
        return (StatePersistence(store: StateStore(path: "/var/lib/ledring/state.json", system: RetryingSystemCalls(fake))), fake)
    }

    @Test func nothingChangedNothingToWrite() {
        var (persistence, fake) = persistence()
        #expect(persistence.deadline == nil)
        #expect(persistence.saveIfDue(at: 0) { first } == nil)
        #expect(fake.calls.isEmpty)
    }

    @Test func aChangeIsWrittenAtOnceThenAtMostEverySaveInterval() throws {
        var (persistence, fake) = persistence()
        persistence.changed()
        #expect(persistence.deadline == -.infinity)
        #expect(persistence.saveIfDue(at: 10) { first } == nil)
        #expect(try fake.readFile("/var/lib/ledring/state.json").count > 0)
        #expect(persistence.deadline == nil)
        persistence.changed()
        #expect(persistence.deadline == 10 + StatePersistence.saveInterval)
        let before = try fake.readFile("/var/lib/ledring/state.json")
        _ = persistence.saveIfDue(at: 10.1) { second }
        #expect(try fake.readFile("/var/lib/ledring/state.json") == before, "written again within the debounce")
        let schedule = DaemonSchedule(fps: 30)
        var idle = schedule
        idle.frameSent(at: 10.1, animating: false, dithering: false)
        #expect(idle.pollTimeout(now: 10.1, save: persistence.deadline) == 150)
        _ = persistence.saveIfDue(at: 10.25) { second }
        #expect(try fake.readFile("/var/lib/ledring/state.json") != before)
        #expect(persistence.deadline == nil)
    }

    @Test(arguments: [(FakeSystemCalls.Syscall.open, EROFS), (.write, ENOSPC), (.fsync, EIO), (.rename, EIO)])
    func aFailedWriteIsLoggedOnceKeepsTheOldFileAndIsRetried(_ syscall: FakeSystemCalls.Syscall, _ errno: Int32) throws {
        var (persistence, fake) = persistence()
        persistence.changed()
        _ = persistence.saveIfDue(at: 0) { first }
        let saved = try fake.readFile("/var/lib/ledring/state.json")
        fake.fail(syscall, with: Errno(rawValue: errno), onCall: fake.calls.filter { $0.syscall == syscall }.count + 1, times: 2)
        persistence.changed()
        let said = persistence.saveIfDue(at: 1) { second }
        #expect(said?.hasPrefix("cannot save the state") == true)
        #expect(try fake.readFile("/var/lib/ledring/state.json") == saved)
        #expect(persistence.deadline == 1 + StatePersistence.saveRetry)
        // Not before the retry, and the second failure is not logged again.
        #expect(persistence.saveIfDue(at: 2) { second } == nil)
        #expect(persistence.saveIfDue(at: 6) { second } == nil)
        #expect(persistence.failing && persistence.deadline == 6 + StatePersistence.saveRetry)
        #expect(try fake.readFile("/var/lib/ledring/state.json") == saved)
        // The disk is back: written, and said so once.
        #expect(persistence.saveIfDue(at: 11) { third } == "state file /var/lib/ledring/state.json written again")
        #expect(persistence.deadline == nil && !persistence.failing)
        #expect(persistence.store.load() == .state(third))
    }

    /// Issue 28: the state is never written larger than the next start reads (it would set the
    /// file aside and lose every value): past the limit it is written without its notifications,
    /// and the values come back.
    @Test func aStateTooLargeForTheReaderIsWrittenWithoutItsNotifications() throws {
        let fake = FakeSystemCalls()
        fake.addDirectory("/var/lib/ledring")
        let store = StateStore(path: "/var/lib/ledring/state.json", system: RetryingSystemCalls(fake))
        var state = SavedState(rings: ["move": 0.25, "stand": 0.75], spinning: [], brightness: 0.5)
        let key = String(repeating: "k", count: Notice.maxKeyBytes)
        state.notices = (0..<6000).map { SavedState.SavedNotice(notice: Notice(look: "failed", duration: 60, key: key + "\($0)"), until: 1e9) }
        #expect(state.json.jsonText.utf8.count > StateStore.maxBytes, "the test needs a state over the limit")
        try store.save(state)
        #expect(try fake.readFile("/var/lib/ledring/state.json").count <= StateStore.maxBytes)
        guard case .state(let loaded) = store.load() else { Issue.record("the written state does not load"); return }
        #expect(loaded.rings == state.rings && loaded.brightness == 0.5 && loaded.notices.isEmpty)
    }

}
