import RingModel

/// How an RGB colour is split into RGB + W for strips with a white LED.
public enum WhiteExtraction: Hashable, Sendable {
    /// White stays dark; the colour goes out unchanged on R, G and B.
    case none
    /// The grey part every channel shares, `min(r, g, b)`, moves to the white LED, which makes
    /// the same light at lower power and with a cleaner white than three mixed emitters. Exact
    /// only for a white LED that matches R = G = B, which a real one rarely does.
    case minimum
    /// Colour-accurate: the white LED's own tint is taken as much of as the colour holds,
    /// w = min over channels of c / tint, and w · tint is taken off R, G and B, so the light
    /// (rgb + w · tint) stays the colour asked for.
    case accurate(tint: WhiteTint)

    /// The four drive levels for `colour` under this rule.
    @inlinable
    public func split(_ colour: RGB8) -> RGBW8 {
        switch self {
        case .none:
            return RGBW8(r: colour.r, g: colour.g, b: colour.b, w: 0)
        case .minimum:
            let w = Swift.min(colour.r, Swift.min(colour.g, colour.b))
            return RGBW8(r: colour.r - w, g: colour.g - w, b: colour.b - w, w: w)
        case .accurate(let tint):
            return WhiteExtraction.splitAccurately(colour, tint: tint)
        }
    }

    /// The light an RGBW colour makes under this rule, in 8-bit drive units per colour channel
    /// (may exceed 255 where the white LED adds to a full channel): the inverse of `split`,
    /// used to check that splitting keeps the light.
    public func light(of colour: RGBW8) -> (r: Float, g: Float, b: Float) {
        let w = Float(colour.w)
        switch self {
        case .none:
            return (Float(colour.r), Float(colour.g), Float(colour.b))
        case .minimum:
            return (Float(colour.r) + w, Float(colour.g) + w, Float(colour.b) + w)
        case .accurate(let tint):
            return (Float(colour.r) + w * WhiteExtraction.usable(tint.r), Float(colour.g) + w * WhiteExtraction.usable(tint.g),
                    Float(colour.b) + w * WhiteExtraction.usable(tint.b))
        }
    }

    /// w is the whole level ≤ every c / tint, so w · tint ≤ c per channel and the rounded amount
    /// taken off never exceeds c (c is whole). The light is then off by at most half a level
    /// per channel, from rounding w · tint.
    @usableFromInline
    static func splitAccurately(_ colour: RGB8, tint: WhiteTint) -> RGBW8 {
        let t = (r: usable(tint.r), g: usable(tint.g), b: usable(tint.b))
        guard t.r > 0 || t.g > 0 || t.b > 0 else { return RGBW8(r: colour.r, g: colour.g, b: colour.b, w: 0) }
        var w: Float = 255
        if t.r > 0 { w = Swift.min(w, Float(colour.r) / t.r) }
        if t.g > 0 { w = Swift.min(w, Float(colour.g) / t.g) }
        if t.b > 0 { w = Swift.min(w, Float(colour.b) / t.b) }
        let level = w.rounded(.down)
        func rest(_ c: UInt8, _ fraction: Float) -> UInt8 {
            let taken = (level * fraction).rounded()
            return UInt8(Swift.max(Float(c) - taken, 0))
        }
        return RGBW8(r: rest(colour.r, t.r), g: rest(colour.g, t.g), b: rest(colour.b, t.b), w: UInt8(level))
    }

    /// A tint fraction as used: NaN or negative counts as none of that channel.
    @usableFromInline
    static func usable(_ fraction: Float) -> Float {
        fraction > 0 && fraction.isFinite ? fraction : 0
    }
}

extension WhiteExtraction {
    /// The names `init(named:)` takes, as the command line offers them (`minimum` is `min`).
    public static let names = ["none", "min", "accurate", "accurate-warm", "accurate-neutral", "accurate-cold"]

    /// The rule called `name`: `none`, `min` (or `minimum`), `accurate` (neutral white),
    /// `accurate-warm`, `accurate-neutral`, `accurate-cold`; nil for anything else.
    public init?(named name: String) {
        switch name.lowercased() {
        case "none": self = .none
        case "min", "minimum": self = .minimum
        case "accurate", "accurate-neutral": self = .accurate(tint: .neutral)
        case "accurate-warm": self = .accurate(tint: .warm)
        case "accurate-cold": self = .accurate(tint: .cold)
        default: return nil
        }
    }
}
