/// A transport that switches the LED supply on before the first frame it sends and off after
/// the final blank frame, so the LEDs never see data without power or power without data.
public final class PowerSwitchedTransport: Transport {
    /// The transport frames go through.
    public let inner: any Transport
    /// The supply switch.
    public let power: GPIOPowerSwitch
    private var closed = false

    /// Wraps `inner`; the supply stays off until the first `send`.
    public init(_ inner: any Transport, power: GPIOPowerSwitch) {
        self.inner = inner
        self.power = power
    }

    deinit { try? close() }

    /// Turns the supply on if it is off, then sends the frame.
    public func send(_ bytes: UnsafeRawBufferPointer, framing: Framing) throws(HardwareError) {
        guard !closed else { throw closedTransportError("power-switched transport") }
        if !power.isOn { try power.on() }
        try inner.send(bytes, framing: framing)
    }

    /// Sends the final blank frame (all LEDs off), then turns the supply off: the order that
    /// leaves the LEDs dark even if the supply switch leaks.
    public func finish(blankFrame: [UInt8], framing: Framing) throws(HardwareError) {
        try send(blankFrame, framing: framing)
        try power.off()
    }

    /// Turns the supply off (if `finish` did not), releases the power line, closes `inner`.
    public func close() throws(HardwareError) {
        guard !closed else { return }
        closed = true
        var failure: HardwareError?
        do { try power.release() } catch { failure = error }
        do { try inner.close() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }
}
