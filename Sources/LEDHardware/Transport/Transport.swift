/// Moves one encoded frame's exact bytes to the LEDs (or a file); knows nothing about colours.
///
/// Transports are owned by one task (the daemon's output loop), so they are not `Sendable`.
public protocol Transport: AnyObject {
    /// Sends one frame; `framing` says whether it may be split into several transfers.
    func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError)
    /// Releases the device; safe to call twice, and called from `deinit` as a last resort.
    func close() throws(HardwareError)
}

extension Transport {
    /// Sends one frame that must not be split — the safe default for self-clocked chips.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(HardwareError) {
        try send(bytes, framing: .whole)
    }

    /// Sends one frame held in an array.
    public func send(_ bytes: [UInt8], framing: Framing = .whole) throws(HardwareError) {
        // withUnsafeBytes cannot carry a typed throw through, so the error is passed out by hand.
        let failure: HardwareError? = bytes.withUnsafeBytes { (raw) -> HardwareError? in
            do throws(HardwareError) {
                try send(raw, framing: framing)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}

/// The error every transport throws when used after `close()`.
func closedTransportError(_ name: String) -> HardwareError {
    HardwareError(kind: .closed, message: "\(name) was used after close()", fix: "open a new transport")
}

/// Closes a transport's descriptor once: `fd` is cleared first, so a second `close()` and the
/// `deinit` that follows do nothing, and a failure is turned into the transport's own error.
func closeOnce(_ fd: inout Int32?, system: RetryingSystemCalls,
               mapping: (Errno) -> HardwareError) throws(HardwareError) {
    guard let descriptor = fd else { return }
    fd = nil
    do {
        try system.close(descriptor)
    } catch {
        throw mapping(error)
    }
}
