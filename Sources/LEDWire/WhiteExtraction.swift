import RingRender

/// How an RGB colour is split into RGB + W for strips with a white LED.
///
/// An enum rather than a flag so a colour-accurate mode (white LED measured against the RGB mix)
/// can be added later without changing call sites.
public enum WhiteExtraction: Hashable, Sendable {
    /// White stays dark; the colour goes out unchanged on R, G and B.
    case none
    /// The grey part every channel shares, `min(r, g, b)`, moves to the white LED, which makes
    /// the same light at lower power and with a cleaner white than three mixed emitters.
    case minimum

    /// The four drive levels for `colour` under this rule.
    @inlinable
    public func split(_ colour: RGB8) -> RGBW8 {
        switch self {
        case .none:
            return RGBW8(r: colour.r, g: colour.g, b: colour.b, w: 0)
        case .minimum:
            let w = Swift.min(colour.r, Swift.min(colour.g, colour.b))
            return RGBW8(r: colour.r - w, g: colour.g - w, b: colour.b - w, w: w)
        }
    }
}
