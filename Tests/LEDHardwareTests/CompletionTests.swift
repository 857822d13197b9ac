import LEDSystem
import Testing

/// The signal the daemon's loop gives a network thread once its request is applied.
@Suite struct CompletionTests {
    @Test func aSignalBeforeTheWaitIsKept() {
        let completion = Completion()
        completion.signal()
        #expect(completion.wait(seconds: 0))
    }

    @Test func anUnsignalledWaitEndsAtItsBoundWithFalse() {
        #expect(!Completion().wait(seconds: 0.02))
    }

    @Test func aSignalFromAnotherThreadWakesTheWaiter() {
        let completion = Completion()
        #expect(DetachedThread.start(name: "test-signal") { completion.signal() })
        // Bounded far above any scheduling delay: a lost wake-up fails here instead of hanging.
        #expect(completion.wait(seconds: 30))
    }
}
