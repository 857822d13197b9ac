/// Formats clock rates for error messages without Foundation.
enum MHz {
    /// `hz` in MHz with two decimals, rounded up or down (never to nearest, so a printed range
    /// boundary is always inside the true range).
    static func text(_ hz: Double, roundingUp: Bool) -> String {
        guard hz.isFinite, hz >= 0, hz < 1e15 else { return "\(hz / 1e6)" }
        let scaled = hz / 1e4
        let hundredths = Int(roundingUp ? (scaled - 1e-9).rounded(.up) : (scaled + 1e-9).rounded(.down))
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// `hz` in MHz with two decimals, to nearest.
    static func text(_ hz: Double) -> String {
        guard hz.isFinite, hz >= 0, hz < 1e15 else { return "\(hz / 1e6)" }
        let hundredths = Int((hz / 1e4).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
