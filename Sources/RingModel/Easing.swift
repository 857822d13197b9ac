/// The timing curve of a transition, as in SwiftUI's animations.
public enum Curve: String, Hashable, Sendable, CaseIterable {
    /// Constant speed.
    case linear
    /// Starts slow.
    case easeIn
    /// Ends slow.
    case easeOut
    /// Starts and ends slow.
    case easeInOut
    /// Overshoots a little and settles, like a damped spring.
    case spring

    /// The eased fraction for a time fraction `x`; 0 at 0 and exactly 1 at (and after) 1.
    @inlinable
    public func value(at x: Double) -> Double {
        if !(x > 0) { return 0 }
        if x >= 1 { return 1 }
        switch self {
        case .linear: return x
        // Cubic curves: close to CSS/SwiftUI's bezier presets and cheap to compute.
        case .easeIn: return x * x * x
        case .easeOut:
            let y = 1 - x
            return 1 - y * y * y
        case .easeInOut:
            return x < 0.5 ? 4 * x * x * x : 1 - 4 * (1 - x) * (1 - x) * (1 - x)
        case .spring:
            // Damped oscillation: e^(−6x) leaves 0.25 % of the distance at x = 1, where the curve
            // snaps to 1; 1.2 oscillations give one visible overshoot of about 8 %.
            return 1 - LibM.exp(-6 * x) * LibM.cos(2 * Double.pi * 1.2 * x)
        }
    }
}
