/// When the 8-bit output carries each LED's rounding error on to the next frame.
public enum Dithering: String, Hashable, Sendable, CaseIterable {
    /// Dither while the frame is part of an animation; a still frame is rounded plainly so a ring
    /// at rest never shimmers.
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
