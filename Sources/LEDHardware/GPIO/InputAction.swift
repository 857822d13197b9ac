/// What a person asked for with the buttons and the knob; the app maps these onto ring states,
/// the same state the command line (and later the daemon's socket) changes.
public enum InputAction: Hashable, Sendable {
    /// Short press of the button: reset every ring, with the animated transition.
    case resetAll
    /// Long press of the button: the action the configuration names.
    case longPress
    /// The knob moved the selected ring's value by this many steps (+ clockwise).
    case step(Int)
    /// Press of the knob: select the next ring.
    case selectNext
}
