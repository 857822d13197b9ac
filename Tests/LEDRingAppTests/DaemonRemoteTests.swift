import LEDRingNet
import RingRender
import Synchronization
import Testing
@testable import LEDRingApp

/// The network's side of the daemon: checks at once, queues for the loop, never touches state.
@Suite struct DaemonRemoteTests {
    /// The last snapshot an observer saw.
    final class Box: Sendable {
        private let last = Mutex<RingSnapshot?>(nil)
        func set(_ snapshot: RingSnapshot) { last.withLock { $0 = snapshot } }
        func get() -> RingSnapshot? { last.withLock { $0 } }
    }

    func remote() throws -> DaemonRemote {
        try DaemonRemote(names: ["move", "stand"], snapshot: RingSnapshot(rings: [], brightness: 1, power: true))
    }

    @Test func badCommandsAreRefusedAtOnceAndNeverQueued() throws {
        let remote = try remote()
        #expect(throws: ControlError.unknownRing("moov", known: ["move", "stand"])) {
            try remote.set(["moov": 0.5], duration: nil, curve: nil)
        }
        #expect(throws: ControlError.badValue(ring: "move", value: 101)) { try remote.set(["move": 101], duration: nil, curve: nil) }
        #expect(throws: ControlError.badDuration(-1)) { try remote.set(["move": 1], duration: -1, curve: nil) }
        #expect(throws: ControlError.badBrightness(2)) { try remote.setBrightness(2) }
        #expect(throws: ControlError.unknownRing("x", known: ["move", "stand"])) { try remote.spin("x") }
        #expect(remote.takeCommands().isEmpty)
    }

    @Test func aClosedRemoteRefusesAndReleasesCallers() throws {
        let remote = try remote()
        remote.close()
        #expect(throws: ControlError.self) { try remote.set(["move": 1], duration: nil, curve: nil) }
        remote.reset()
        #expect(remote.takeCommands().isEmpty)
    }

    @Test func namesFollowAReload() throws {
        let remote = try remote()
        remote.updateNames(["queue"])
        #expect(throws: ControlError.unknownRing("move", known: ["queue"])) { try remote.stop("move") }
    }

    @Test func publishedSnapshotsReachObservers() throws {
        let remote = try remote()
        let snapshot = RingSnapshot(rings: [RingSnapshot.Ring(name: "move", value: 0.5, target: 1, spinning: false, leds: [])],
                                    brightness: 0.5, power: false)
        let box = Box()
        let id = remote.addObserver { box.set($0) }
        #expect(remote.isObserved)
        remote.publish(snapshot)
        #expect(remote.snapshot() == snapshot && box.get() == snapshot)
        remote.removeObserver(id)
        #expect(!remote.isObserved)
    }
}
