/// A colour in Björn Ottosson's OKLab space, where straight lines look like even blends to the
/// eye: gradients are interpolated here, never in gamma-encoded sRGB (which turns muddy and dark
/// in the middle of a red→green blend).
public struct OKLab: Hashable, Sendable {
    /// Perceived lightness, 0…1.
    public var l: Float
    /// Green–red axis.
    public var a: Float
    /// Blue–yellow axis.
    public var b: Float

    /// Makes an OKLab colour from its coordinates.
    @inlinable
    public init(l: Float, a: Float, b: Float) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// The OKLab coordinates of a linear sRGB colour (negative channels clamp to 0).
    @inlinable
    public init(_ c: LinearRGB) {
        let r = Swift.max(c.r, 0), g = Swift.max(c.g, 0), bl = Swift.max(c.b, 0)
        let l = LibM.cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl)
        let m = LibM.cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl)
        let s = LibM.cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl)
        self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    }

    /// The linear sRGB colour of these coordinates; out-of-gamut results clamp at 0.
    @inlinable
    public var linear: LinearRGB {
        let l1 = l + 0.3963377774 * a + 0.2158037573 * b
        let m1 = l - 0.1055613458 * a - 0.0638541728 * b
        let s1 = l - 0.0894841775 * a - 1.2914855480 * b
        let l3 = l1 * l1 * l1, m3 = m1 * m1 * m1, s3 = s1 * s1 * s1
        return LinearRGB(
            r: Swift.max(0, 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3),
            g: Swift.max(0, -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3),
            b: Swift.max(0, -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3))
    }

    /// The straight blend from `self` to `other` in OKLab.
    @inlinable
    public func mixed(with other: OKLab, amount t: Float) -> OKLab {
        OKLab(l: l + (other.l - l) * t, a: a + (other.a - a) * t, b: b + (other.b - b) * t)
    }
}
