/// An output line that switches the LED supply (a MOSFET or relay) or a level shifter's output
/// enable, so the LEDs draw nothing and show nothing while ledring is not driving them.
public final class GPIOPowerSwitch {
    /// The line, as the kernel knows it.
    public let line: GPIOResolvedLine
    /// True when the line is driven low to switch the supply on (P-channel switches, `/OE` pins).
    public let activeLow: Bool
    /// Whether the supply is on now.
    public private(set) var isOn = false

    private var request: (any GPIOOutputLines)?

    /// Requests the line with the supply off, so requesting it can never flash the LEDs.
    public init(
        lines provider: any GPIOLines, chipLabels: [String], line: GPIOLineID, activeLow: Bool = false,
        consumer: String = "ledring-power"
    ) throws(HardwareError) {
        let request = try provider.requestOutputs(
            GPIOLineSelection(chipLabels: chipLabels, lines: [line]), initialValues: activeLow ? 1 : 0, consumer: consumer)
        guard let resolved = request.lines.first else {
            request.release()
            throw HardwareError(kind: .io, message: "GPIO request for power line \(line) returned no line",
                                fix: "report this as a ledring bug")
        }
        self.line = resolved
        self.activeLow = activeLow
        self.request = request
    }

    deinit {
        // Last resort: a dropped switch turns the supply off before the line goes back to its pull.
        if isOn { try? set(false) }
        request?.release()
    }

    /// Switches the supply on.
    public func on() throws(HardwareError) { try set(true) }

    /// Switches the supply off.
    public func off() throws(HardwareError) { try set(false) }

    /// Switches the supply off and gives the line back; safe to call twice.
    public func release() throws(HardwareError) {
        defer {
            request?.release()
            request = nil
        }
        if isOn && request != nil { try set(false) }
    }

    private func set(_ on: Bool) throws(HardwareError) {
        guard let request else {
            throw HardwareError(kind: .closed, message: "power switch on \(line) was used after release()",
                                fix: "request the power line again")
        }
        try request.setValues(on != activeLow ? 1 : 0)
        isOn = on
    }
}
