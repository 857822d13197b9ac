/// The internal pull resistor of an input line.
public enum GPIOBias: String, Hashable, Sendable, CaseIterable {
    /// Leave whatever the firmware or device tree set.
    case asIs = "as-is"
    /// No pull: the circuit has its own resistors.
    case disabled
    /// Pull up: a button or encoder contact switches the line to ground (the usual wiring).
    case pullUp = "pull-up"
    /// Pull down: the contact switches the line to 3.3 V.
    case pullDown = "pull-down"
}
