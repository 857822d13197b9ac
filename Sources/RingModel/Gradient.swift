/// Where a colour stop sits along a gradient, and its colour as the user wrote it (sRGB).
public struct GradientStop: Hashable, Sendable {
    /// The stop's colour, sRGB-encoded as people write it (`#fa114f`).
    public var color: RGB8
    /// Where the stop sits, 0…1.
    public var location: Float

    /// Makes a stop.
    public init(color: RGB8, location: Float) {
        self.color = color
        self.location = location
    }
}

/// What a gradient's 0…1 is measured over on a ring.
public enum GradientSpan: String, Hashable, Sendable, CaseIterable {
    /// Around the whole circle, like SwiftUI's `AngularGradient` from 0° to 360°.
    case ring
    /// Stretched over the filled arc, so the head always shows the end colour.
    case fill
}

/// A colour gradient, interpolated in OKLab and kept as a table of linear-light samples so a frame
/// costs one table lookup per LED.
public struct Gradient: Sendable {
    /// The stops in location order, as given.
    public let stops: [GradientStop]
    /// What the gradient's 0…1 is measured over.
    public let span: GradientSpan
    /// How stops blend: straight OKLab by default, or round the OKLCh hue circle.
    public let interpolation: GradientInterpolation
    /// The linear colour at location 0.
    public let startColor: LinearRGB
    /// The linear colour at location 1.
    public let endColor: LinearRGB

    /// Table entries: 1024 steps keep the error of interpolating between entries (worst at a
    /// stop's corner) below 0.2 % of full light, well under one 8-bit step.
    @usableFromInline static let tableSize = 1024
    @usableFromInline let table: [LinearRGB]

    /// Errors in a gradient's stops.
    public enum Problem: Error, Equatable, Sendable {
        /// A gradient needs at least one stop.
        case noStops
        /// Stop locations must be finite and within 0…1.
        case locationOutOfRange(index: Int, location: Float)
        /// Stop locations must not decrease.
        case locationsOutOfOrder(index: Int)
    }

    /// A gradient from `stops` (one stop is a solid colour). Locations must be within 0…1 and
    /// not decreasing.
    public init(stops: [GradientStop], span: GradientSpan = .ring,
                interpolation: GradientInterpolation = .oklab) throws(Problem) {
        guard !stops.isEmpty else { throw .noStops }
        for (index, stop) in stops.enumerated() {
            guard stop.location.isFinite, stop.location >= 0, stop.location <= 1 else {
                throw .locationOutOfRange(index: index, location: stop.location)
            }
            if index > 0, stop.location < stops[index - 1].location { throw .locationsOutOfOrder(index: index) }
        }
        self.init(validated: stops, span: span, interpolation: interpolation)
    }

    /// A two-stop gradient from `start` to `end`.
    public init(from start: RGB8, to end: RGB8, span: GradientSpan = .ring,
                interpolation: GradientInterpolation = .oklab) {
        self.init(validated: [GradientStop(color: start, location: 0), GradientStop(color: end, location: 1)],
                  span: span, interpolation: interpolation)
    }

    /// A single colour.
    public init(solid color: RGB8) {
        self.init(from: color, to: color)
    }

    /// The same stops measured over another span.
    /// The table does not depend on the span, so the copy shares it: a look drawn on 512 rings
    /// keeps one table, not 512 (12 KB each).
    public func with(span: GradientSpan) -> Gradient {
        Gradient(sharing: self, span: span)
    }

    /// The same stops blended another way.
    public func with(interpolation: GradientInterpolation) -> Gradient {
        Gradient(validated: stops, span: span, interpolation: interpolation)
    }

    private init(sharing other: Gradient, span: GradientSpan) {
        self.stops = other.stops
        self.span = span
        self.interpolation = other.interpolation
        self.table = other.table
        self.startColor = other.startColor
        self.endColor = other.endColor
    }

    private init(validated stops: [GradientStop], span: GradientSpan, interpolation: GradientInterpolation) {
        self.stops = stops
        self.span = span
        self.interpolation = interpolation
        let labs = stops.map { OKLab(SRGB.linear($0.color)) }
        var table: [LinearRGB] = []
        table.reserveCapacity(Gradient.tableSize)
        for i in 0..<Gradient.tableSize {
            let u = Float(i) / Float(Gradient.tableSize - 1)
            table.append(Gradient.interpolate(u, stops: stops, labs: labs, interpolation: interpolation))
        }
        self.table = table
        self.startColor = labs[0].linear
        self.endColor = labs[labs.count - 1].linear
    }

    static func interpolate(_ u: Float, stops: [GradientStop], labs: [OKLab],
                            interpolation: GradientInterpolation = .oklab) -> LinearRGB {
        if u <= stops[0].location { return labs[0].linear }
        for i in 1..<stops.count where u <= stops[i].location {
            let a = stops[i - 1].location, b = stops[i].location
            let t = b > a ? (u - a) / (b - a) : 1
            return interpolation.mix(labs[i - 1], labs[i], amount: t).linear
        }
        return labs[labs.count - 1].linear
    }

    /// The colour at location `u`. Locations past 1 continue the gradient by running it back and
    /// forth (1…2 runs end→start, 2…3 start→end), so laps past 100 % stay told apart and the
    /// colour never jumps where one lap meets the next.
    @inlinable
    public func color(at u: Float) -> LinearRGB {
        var x = u.isFinite ? Swift.max(u, 0) : 0
        if x > 1 {
            let cycle = x.truncatingRemainder(dividingBy: 2)
            x = cycle > 1 ? 2 - cycle : cycle
        }
        let position = x * Float(Gradient.tableSize - 1)
        let index = Swift.min(Int(position), Gradient.tableSize - 2)
        let t = position - Float(index)
        return table[index].mixed(with: table[index + 1], amount: t)
    }
}
