/// How the gradient is drawn once a ring goes past 100 %.
public enum LapStyle: String, Hashable, Sendable, CaseIterable {
    /// The gradient turns with the head, as activity rings past 100 % do: the head shows the end
    /// colour and the start colour sits one turn behind it, under the head's shadow. At exactly
    /// 100 % it is the same picture as the first lap, so nothing jumps when the ring closes.
    case turn
    /// The gradient stays fixed to the circle and runs back and forth (lap 2 runs end → start,
    /// lap 3 start → end), so 130 % and 230 % look different: for people who read the lap count
    /// from the colours.
    case alternate
}
