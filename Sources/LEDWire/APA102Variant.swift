/// The clocked (two-wire) LED chips `APA102Encoder` drives, which differ only in how they latch.
public enum APA102Variant: String, Hashable, Sendable, CaseIterable {
    /// APA102 / "DotStar": shows each LED's colour as soon as it is shifted in.
    case apa102
    /// SK9822: takes new PWM values only when it sees the next 32-bit zero frame, so every frame
    /// carries an extra zero "reset frame" after the LEDs (cpldcpu, "SK9822 – a clone of the
    /// APA102?", 2016-12-13). Without it each frame would show one update late.
    case sk9822
}
