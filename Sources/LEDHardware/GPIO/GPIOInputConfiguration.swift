/// Which lines carry the button and the rotary encoder, and how they behave.
public struct GPIOInputConfiguration: Hashable, Sendable {
    /// A push button: short press resets all rings, long press does the configured action.
    public struct Button: Hashable, Sendable {
        /// The button's line.
        public var line: GPIOLineID
        /// True when pressing pulls the line low (button to ground with a pull-up: the usual wiring).
        public var activeLow: Bool
        /// How long the contact must settle, in nanoseconds.
        public var debounceNanoseconds: UInt64
        /// How long a hold must be to count as a long press, in nanoseconds.
        public var longPressNanoseconds: UInt64

        /// A button on `line` (defaults: active low, 10 ms debounce, 0.8 s long press).
        public init(line: GPIOLineID, activeLow: Bool = true, debounceNanoseconds: UInt64 = 10_000_000,
                    longPressNanoseconds: UInt64 = 800_000_000) {
            self.line = line
            self.activeLow = activeLow
            self.debounceNanoseconds = debounceNanoseconds
            self.longPressNanoseconds = longPressNanoseconds
        }
    }

    /// A quadrature rotary encoder (knob), optionally with a push switch.
    public struct Encoder: Hashable, Sendable {
        /// Contact A (often labelled CLK).
        public var a: GPIOLineID
        /// Contact B (often labelled DT).
        public var b: GPIOLineID
        /// The knob's push switch (often SW), which selects the next ring.
        public var push: GPIOLineID?
        /// Transitions per detent (4 for most knobs).
        public var transitionsPerStep: Int
        /// The A/B state at rest (0b11 with pull-ups).
        public var detentState: UInt8
        /// Swaps the direction.
        public var reversed: Bool
        /// How long the push switch must settle, in nanoseconds (it is active low like the button).
        public var debounceNanoseconds: UInt64

        /// A knob on `a` and `b` (defaults: 4 transitions per detent, rest state 0b11).
        public init(a: GPIOLineID, b: GPIOLineID, push: GPIOLineID? = nil, transitionsPerStep: Int = 4,
                    detentState: UInt8 = 0b11, reversed: Bool = false, debounceNanoseconds: UInt64 = 10_000_000) {
            self.a = a
            self.b = b
            self.push = push
            self.transitionsPerStep = transitionsPerStep
            self.detentState = detentState
            self.reversed = reversed
            self.debounceNanoseconds = debounceNanoseconds
        }
    }

    /// Chip labels to try (the board file's `gpioChipLabels`); every input is on that chip.
    public var chipLabels: [String]
    /// The pull resistor on every input line.
    public var bias: GPIOBias
    /// The button, if fitted.
    public var button: Button?
    /// The knob, if fitted.
    public var encoder: Encoder?

    /// Creates a configuration (default bias: pull-up, for contacts switching to ground).
    public init(chipLabels: [String], bias: GPIOBias = .pullUp, button: Button? = nil, encoder: Encoder? = nil) {
        self.chipLabels = chipLabels
        self.bias = bias
        self.button = button
        self.encoder = encoder
    }
}
