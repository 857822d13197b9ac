/// How a gradient blends between two stops.
public enum GradientInterpolation: Hashable, Sendable {
    /// A straight line in OKLab: even to the eye, never the long way round (the default).
    case oklab
    /// Lightness and chroma straight, hue round the OKLCh circle along `arc`: keeps chroma up
    /// between distant hues (red → cyan stays saturated instead of crossing grey).
    case oklch(HueArc)

    /// Which way round the hue circle a blend goes.
    public enum HueArc: String, Hashable, Sendable, CaseIterable {
        /// The short way (at most half a turn), as CSS's default `shorter hue`.
        case shorter
        /// The long way.
        case longer
        /// Always with increasing hue angle.
        case increasing
        /// Always with decreasing hue angle.
        case decreasing
    }

    /// Polar interpolation the short way round, the usual choice.
    public static let oklchShorter = GradientInterpolation.oklch(.shorter)

    /// The blend from `a` (t = 0) to `b` (t = 1).
    public func mix(_ a: OKLab, _ b: OKLab, amount t: Float) -> OKLab {
        guard case .oklch(let arc) = self else { return a.mixed(with: b, amount: t) }
        let ca = (a.a * a.a + a.b * a.b).squareRoot(), cb = (b.a * b.a + b.b * b.b).squareRoot()
        // A grey has no hue worth keeping (CSS Color 4's "powerless" hue): take the other one's,
        // so a blend from white to red keeps red's hue instead of sweeping through others.
        let greyish: Float = 1e-4
        var ha = LibM.atan2f(a.b, a.a), hb = LibM.atan2f(b.b, b.a)
        if ca < greyish { ha = hb }
        if cb < greyish { hb = ha }
        let turn = 2 * Float.pi
        var delta = hb - ha
        switch arc {
        case .shorter:
            if delta > .pi { delta -= turn } else if delta < -.pi { delta += turn }
        case .longer:
            if delta > 0 && delta < .pi { delta -= turn } else if delta <= 0 && delta > -.pi { delta += turn }
        case .increasing:
            if delta < 0 { delta += turn }
        case .decreasing:
            if delta > 0 { delta -= turn }
        }
        let h = ha + delta * t, c = ca + (cb - ca) * t
        return OKLab(l: a.l + (b.l - a.l) * t, a: c * LibM.cosf(h), b: c * LibM.sinf(h))
    }
}
