/// The pulse windows a clockless chip accepts, in nanoseconds, and the SPI clocks that follow
/// from them: the encoder derives its symbols from these instead of hard-coding bit patterns.
public struct SymbolTiming: Hashable, Sendable {
    /// Allowed high time of a data 0.
    public var zeroHigh: ClosedRange<Double>
    /// Allowed high time of a data 1.
    public var oneHigh: ClosedRange<Double>
    /// Allowed high + low time of one data bit.
    public var period: ClosedRange<Double>
    /// Shortest low phase allowed after any high pulse.
    public var minimumLow: Double

    /// Makes a timing profile from its windows (all in ns).
    public init(zeroHigh: ClosedRange<Double>, oneHigh: ClosedRange<Double>,
                period: ClosedRange<Double>, minimumLow: Double) {
        self.zeroHigh = zeroHigh
        self.oneHigh = oneHigh
        self.period = period
        self.minimumLow = minimumLow
    }

    /// High-time windows every WS2812B generation accepts, so one setting drives a strip of
    /// unknown vintage.
    ///
    /// - T0H 250…380 ns: WS2812B (pre-V5) datasheet 400 ± 150 (250…550) ∩ WS2812B-V5 220…380.
    /// - T1H 650…950 ns: WS2812B (pre-V5) 800 ± 150 (650…950) ∩ V5 580…1000.
    /// - period 1063…1850 ns: a WS2812 was measured to drop bits with a period under 1063 ns
    ///   (cpldcpu, "Understanding the WS2812", 2014), so shorter periods are refused even where the
    ///   datasheets' 1.25 µs ± 600 ns would allow them; 1850 ns is that tolerance's upper end.
    /// - every low phase ≥ 220 ns (our guard, the shortest high pulse a V5 accepts), so a 1
    ///   never runs into the next bit's rising edge.
    ///
    /// The datasheets' low-phase windows (pre-V5 T0L 850 ± 150, T1L 450 ± 150; V5 T0L and T1L
    /// 580…1000 ns) are not met by any 4-bit scheme: 1000/1110 at 3.57 MHz gives T1L = 280 ns,
    /// 1000/1100 gives T1L = 2t ≥ 650 ns, and no t makes every low fit with T1H ≥ 650 ns. That is
    /// safe because the chip samples the line a fixed time after each rising edge and decides on
    /// the high time alone; a low phase only has to stay under the reset time (stretched lows are
    /// what every SPI and DMA driver makes) and the whole period above the measured 1063 ns.
    public static let ws2812 = SymbolTiming(zeroHigh: 250...380, oneHigh: 650...950,
                                            period: 1063...1850, minimumLow: 220)

    /// SK6812 windows from its datasheet: T0H 300±150 ns (150…450), T1H 600±150 ns
    /// (450…750), period 650…1850 ns (our bound, as for WS2812), every low ≥ 220 ns.
    ///
    /// Its T1H ceiling of 750 ns is below the WS2812 floor of 650…950 by most of the window, so
    /// SK6812 gets its own profile instead of the WS2812 one: at 3.47 MHz the WS2812 symbols are
    /// 1000/1110 (T1H 864 ns, too long for SK6812) while these give 1000/1100 (T1H 576 ns).
    /// With t = 1/f: 1000/1100 needs 2t ∈ 450…750 → 2.667…4.444 MHz; 1000/1110 needs
    /// 3t ∈ 450…750 and T1L = t ≥ 220 → 4.000…4.545 MHz; so 4-bit covers 2.667…4.545 MHz.
    public static let sk6812 = SymbolTiming(zeroHigh: 150...450, oneHigh: 450...750,
                                            period: 650...1850, minimumLow: 220)

    /// High time at which a decoder tells 0 from 1: halfway between the two windows.
    public var decisionThresholdNs: Double { (zeroHigh.upperBound + oneHigh.lowerBound) / 2 }

    /// Slack for floating-point arithmetic at the exact edges of a window (a millionth of a ns).
    static let slackNs = 1e-6

    /// True when `scheme` at `clockHz` keeps every pulse inside the windows.
    public func accepts(_ scheme: SymbolScheme, clockHz: Double) -> Bool {
        let n = scheme.width.bits, h0 = scheme.zeroHighBits, h1 = scheme.oneHighBits
        guard clockHz.isFinite, clockHz > 0, 1 <= h0, h0 < h1, h1 < n else { return false }
        let bitNs = 1e9 / clockHz
        func inside(_ value: Double, _ window: ClosedRange<Double>) -> Bool {
            value >= window.lowerBound - Self.slackNs && value <= window.upperBound + Self.slackNs
        }
        return inside(Double(h0) * bitNs, zeroHigh)
            && inside(Double(h1) * bitNs, oneHigh)
            && inside(Double(n) * bitNs, period)
            && Double(n - h1) * bitNs >= minimumLow - Self.slackNs
    }

    /// The clocks (Hz) at which `scheme` stays inside the windows, or nil if there are none.
    ///
    /// With SPI bit time t = 1/f, each window lo…hi on k bits gives k/hi ≤ f ≤ k/lo; the range
    /// is the intersection over T0H (h0 bits), T1H (h1 bits), the period (n bits) and the
    /// shortest low (n − h1 bits, upper bound only).
    public func clockRange(for scheme: SymbolScheme) -> ClosedRange<Double>? {
        let n = Double(scheme.width.bits), h0 = Double(scheme.zeroHighBits)
        let h1 = Double(scheme.oneHighBits)
        guard 1 <= h0, h0 < h1, h1 < n else { return nil }
        let lower = Swift.max(h0 * 1e9 / zeroHigh.upperBound, h1 * 1e9 / oneHigh.upperBound,
                              n * 1e9 / period.upperBound)
        let upper = Swift.min(h0 * 1e9 / zeroHigh.lowerBound, h1 * 1e9 / oneHigh.lowerBound,
                              n * 1e9 / period.lowerBound, (n - h1) * 1e9 / minimumLow)
        return lower <= upper ? lower...upper : nil
    }

    /// Every scheme of `width` that works at some clock.
    public func schemes(width: SymbolWidth) -> [SymbolScheme] {
        var found: [SymbolScheme] = []
        for h0 in 1..<width.bits {
            for h1 in (h0 + 1)..<width.bits {
                let scheme = SymbolScheme(width: width, zeroHighBits: h0, oneHighBits: h1)
                if clockRange(for: scheme) != nil { found.append(scheme) }
            }
        }
        return found
    }

    /// The clock ranges (Hz) where some scheme of `width` works, overlapping ones merged.
    public func supportedClockRanges(width: SymbolWidth) -> [ClosedRange<Double>] {
        let ranges = schemes(width: width).compactMap { clockRange(for: $0) }
            .sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Double>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...Swift.max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The scheme of `width` with the most margin at `clockHz`, or nil if none fits.
    ///
    /// Margin is how far the worse of T0H and T1H sits from its window's centre, in half-widths:
    /// the scheme that survives the largest clock drift wins.
    public func bestScheme(clockHz: Double, width: SymbolWidth) -> SymbolScheme? {
        let bitNs = 1e9 / clockHz
        func offCentre(_ value: Double, _ window: ClosedRange<Double>) -> Double {
            let middle = (window.lowerBound + window.upperBound) / 2
            let half = (window.upperBound - window.lowerBound) / 2
            return half > 0 ? Swift.abs(value - middle) / half : Swift.abs(value - middle)
        }
        var best: (scheme: SymbolScheme, score: Double)?
        for scheme in schemes(width: width) where accepts(scheme, clockHz: clockHz) {
            let score = Swift.max(offCentre(Double(scheme.zeroHighBits) * bitNs, zeroHigh),
                                  offCentre(Double(scheme.oneHighBits) * bitNs, oneHigh))
            if best.map({ score < $0.score }) ?? true { best = (scheme, score) }
        }
        return best?.scheme
    }

    /// The supported ranges as text, rounded inwards so every printed clock really works:
    /// "4-bit 2.64–3.07 MHz or 3.16–3.76 MHz, 8-bit 5.27–7.52 MHz".
    public var supportedRangesText: String {
        var parts: [String] = []
        for width in SymbolWidth.allCases {
            let ranges = supportedClockRanges(width: width)
            guard !ranges.isEmpty else { continue }
            let text = ranges.map { range in
                MHz.text(range.lowerBound, roundingUp: true) + "–"
                    + MHz.text(range.upperBound, roundingUp: false) + " MHz"
            }
            parts.append("\(width.bits)-bit " + text.joined(separator: " or "))
        }
        return parts.isEmpty ? "none (the timing windows are contradictory)" : parts.joined(separator: ", ")
    }
}
