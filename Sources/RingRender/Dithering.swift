/// When the 8-bit output carries each LED's rounding error on to the next frame.
public enum Dithering: String, Hashable, Sendable, CaseIterable {
    /// Dither while the frame is part of an animation, and then only the LEDs whose level is
    /// changing and bright enough that one step cannot be seen flickering at the frame rate: a
    /// still LED sends the same bytes every frame, whatever else animates.
    case auto
    /// Dither every frame, still or not (the caller keeps refreshing while `needsRefresh`).
    case on
    /// Never dither: every frame is rounded on its own.
    case off

    /// Whether a frame is dithered under this mode, given whether it is part of an animation.
    @inlinable
    public func applies(animating: Bool) -> Bool {
        switch self {
        case .auto: return animating
        case .on: return true
        case .off: return false
        }
    }
}
