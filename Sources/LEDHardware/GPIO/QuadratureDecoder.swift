/// Decodes a rotary encoder's two contacts (A, B) into detent steps with the Gray-code table.
///
/// The state is `A << 1 | B`. Moving one way the contacts go 00 → 01 → 11 → 10 → 00 (B leads A:
/// +1), the other way the reverse (−1). Each valid transition adds ±1; a step is counted when
/// the encoder comes to rest in a detent state having moved at least half a detent, and the
/// count is cleared there. So contact bounce (back and forth between two states) cancels out,
/// and one skipped state (both contacts changed between two events: a fast turn or a lost
/// event) is assumed to continue the direction of travel, counted in `skippedTransitions`.
public struct QuadratureDecoder: Hashable, Sendable {
    /// Transitions between two detents: 4 for most knobs (KY-040, EC11), 2 or 1 for others.
    public let transitionsPerStep: Int
    /// The state the knob rests in at a detent on 4-transition knobs (0b11 when the contacts
    /// are open at rest with pull-ups); 2-transition knobs rest in this state and its opposite.
    public let detentState: UInt8
    /// Swaps the direction (A and B wired the other way round).
    public let reversed: Bool
    /// The current `A << 1 | B`.
    public private(set) var state: UInt8
    /// Transitions where both contacts changed at once.
    public private(set) var skippedTransitions = 0
    private var accumulator = 0

    /// The Gray-code order of states for one direction.
    private static let sequence: [UInt8] = [0b00, 0b01, 0b11, 0b10]

    /// Creates a decoder starting from the contacts' current levels.
    public init(
        a: Bool, b: Bool, transitionsPerStep: Int = 4, detentState: UInt8 = 0b11, reversed: Bool = false
    ) throws(HardwareError) {
        guard [1, 2, 4].contains(transitionsPerStep) else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "a rotary encoder with \(transitionsPerStep) transitions per detent is not possible",
                fix: "use 4 (most knobs: KY-040, EC11), 2 (half-step knobs) or 1")
        }
        guard detentState <= 0b11 else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "encoder detent state \(detentState) is not a 2-bit A/B state",
                fix: "use 3 (both contacts high at rest, pull-ups) or 0 (both low)")
        }
        self.transitionsPerStep = transitionsPerStep
        self.detentState = detentState
        self.reversed = reversed
        self.state = (a ? 2 : 0) | (b ? 1 : 0)
    }

    /// Takes the contacts' new levels; returns the steps completed (−1, 0 or +1).
    public mutating func update(a: Bool, b: Bool) -> Int {
        let new: UInt8 = (a ? 2 : 0) | (b ? 1 : 0)
        guard new != state, let from = Self.sequence.firstIndex(of: state), let to = Self.sequence.firstIndex(of: new)
        else { return 0 }
        switch (to - from + 4) % 4 {
        case 1: accumulator += 1
        case 3: accumulator -= 1
        default:
            // Both contacts changed: two transitions in an unknown direction; assume the knob
            // kept turning the way it was going (nothing to assume from standstill).
            skippedTransitions += 1
            accumulator += accumulator > 0 ? 2 : accumulator < 0 ? -2 : 0
        }
        state = new
        guard isDetent(new) else { return 0 }
        defer { accumulator = 0 }
        let half = max(1, transitionsPerStep / 2)
        guard abs(accumulator) >= half else { return 0 }
        let step = accumulator > 0 ? 1 : -1
        return reversed ? -step : step
    }

    private func isDetent(_ value: UInt8) -> Bool {
        switch transitionsPerStep {
        case 4: return value == detentState
        case 2: return value == detentState || value == detentState ^ 0b11
        default: return true
        }
    }
}
