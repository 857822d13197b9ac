/// Whether a frame may reach the LEDs in several transfers.
public enum Framing: Hashable, Sendable {
    /// The frame must go out in one transfer: WS2812/SK6812 latch on any pause, so a gap
    /// mid-frame shows half a frame.
    case whole
    /// The frame may be split: clocked chips (APA102/SK9822) wait for the next clock edge.
    case splittable
}
