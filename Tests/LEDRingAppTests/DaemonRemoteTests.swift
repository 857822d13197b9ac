import Foundation
import LEDRingControl
import LEDRingNet
import LEDRingNetTesting
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
        #expect(throws: RequestError.unknownRing("moov", known: ["move", "stand"])) { try remote.submit(.set(["moov": 0.5])) }
        // The same words the socket and the controller use: one check for every front end.
        for request in [Request.set(["move": 101]), .set(["move": 1], duration: -1), .brightness(2), .spin(rings: ["x"])] {
            var controller = Controller(names: ["move", "stand"], brightness: 1)
            let reply = controller.apply(request, at: 0, status: { fatalError("no status here") }).reply
            #expect(throws: RequestError.self) { try remote.submit(request) }
            do { try remote.submit(request) } catch { #expect(reply == .error(error.message)) }
        }
        #expect(remote.takeCommands().isEmpty)
    }

    @Test func aClosedRemoteRefusesAndReleasesCallers() throws {
        let remote = try remote()
        remote.close()
        #expect(throws: RequestError.self) { try remote.submit(.set(["move": 1])) }
        do { try remote.reset() } catch { #expect(error.kind == .unavailable) }
        #expect(remote.takeCommands().isEmpty)
    }

    @Test func acceptedCommandsAreQueuedAsTheyCameForTheLoop() throws {
        let remote = try DaemonRemote(names: ["move", "stand"], snapshot: RingSnapshot(rings: [], brightness: 1, power: true),
                                      applyWait: 0)
        try remote.submit(.set(["move": 0.5], duration: 1, curve: .spring))
        try remote.submit(.power(false))
        #expect(remote.takeCommands().map(\.request) == [.set(["move": 0.5], duration: 1, curve: .spring), .power(false)])
    }

    @Test func namesFollowAReload() throws {
        let remote = try remote()
        remote.updateNames(["queue"])
        #expect(throws: RequestError.unknownRing("move", known: ["queue"])) { try remote.submit(.stop(rings: ["move"])) }
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
