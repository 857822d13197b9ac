import Glibc
import LEDHardware
import LEDRingTesting
import Testing
@testable import LEDRingApp

/// Signals reach the daemon as bytes on a pipe; the handlers are installed through the seam.
@Suite struct SignalPipeTests {
    @Test func handlersAreInstalledUnblockedAndRemovedAgain() throws {
        let fake = FakeSystemCalls()
        do {
            let pipe = try SignalPipe(system: fake)
            for signo in [SIGTERM, SIGINT, SIGHUP] {
                #expect(fake.signalAction(signo) == "handler, restart")
            }
            #expect(fake.signalAction(SIGPIPE) == "ignore")
            #expect(fake.signalAction(SIGCHLD) == "default", "an ignored SIGCHLD inherited from the parent would lose exit statuses")
            #expect(fake.unblockedSignals == [SIGTERM, SIGINT, SIGHUP])
            #expect(pipe.drain() == [])
        }
        // Gone with the daemon: the default actions are back and both ends closed.
        #expect(fake.signalAction(SIGTERM) == "default")
        #expect(fake.openEndpoints.isEmpty)
    }

    @Test func aFailedSigactionIsAnErrorNotASilentDeafDaemon() {
        let fake = FakeSystemCalls()
        fake.fail(.setSignalAction, with: .invalidArgument, onCall: 2)
        #expect(throws: SystemError.self) { _ = try SignalPipe(system: fake) }
    }
}

/// The client's side of the socket, on the fake kernel.
@Suite struct ClientExchangeTests {
    @Test(arguments: ["missing", "stale", "plain"])
    func noDaemonIsSaidAsSuch(_ kind: String) {
        let fake = FakeSystemCalls()
        let path = "/run/ledring/ledring.sock"
        switch kind {
        case "stale":
            try? fake.close(fake.addListeningSocket(path))
        case "plain":
            fake.addFile(path, "")
        default:
            break
        }
        let error = #expect(throws: CommandError.self) {
            _ = try ClientCommand.exchange(#"{"verb":"status"}"#, socket: path, system: RetryingSystemCalls(fake))
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("no ledring daemon is listening") == true)
        #expect(fake.openEndpoints.isEmpty, "the client's socket leaked")
    }

    @Test func aDaemonThatNeverAnswersTimesOut() {
        let fake = FakeSystemCalls()
        let path = "/run/ledring/ledring.sock"
        fake.addListeningSocket(path)
        let error = #expect(throws: CommandError.self) {
            _ = try ClientCommand.exchange("get", socket: path, system: RetryingSystemCalls(fake))
        }
        #expect(error?.message.contains("did not answer") == true)
    }
}
