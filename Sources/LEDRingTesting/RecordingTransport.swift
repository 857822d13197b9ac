import LEDHardware

/// A transport that keeps every frame it is given, for tests of the layers above the kernel.
public final class RecordingTransport: Transport {
    /// One `send`: the exact bytes and whether they could have been split.
    public struct Transfer: Hashable, Sendable {
        /// The frame's bytes.
        public var bytes: [UInt8]
        /// Whether the sender allowed splitting.
        public var framing: Framing

        /// Creates a transfer, for comparing with what was recorded.
        public init(bytes: [UInt8], framing: Framing) {
            self.bytes = bytes
            self.framing = framing
        }
    }

    /// Every frame sent, in order (failed sends are not recorded).
    public private(set) var transfers: [Transfer] = []
    /// True once `close()` ran.
    public private(set) var isClosed = false
    /// When set, every following `send` throws this error.
    public var failure: HardwareError?
    /// When set, only the send with this 1-based number throws `failure` (or an I/O error).
    public var failOnSend: Int?
    private var sendCount = 0

    /// Creates an empty recorder.
    public init() {}

    /// Records the frame, or throws the scripted failure.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        sendCount += 1
        if isClosed {
            throw HardwareError(kind: .closed, message: "RecordingTransport was used after close()", fix: "open a new transport")
        }
        let scripted = failure ?? HardwareError(kind: .io, message: "RecordingTransport failed send \(sendCount) as scripted")
        if let failOnSend {
            if failOnSend == sendCount { throw scripted }
        } else if let failure {
            throw failure
        }
        transfers.append(Transfer(bytes: Array(bytes), framing: framing))
    }

    /// Marks the transport closed.
    public func close() throws(HardwareError) {
        isClosed = true
    }
}
