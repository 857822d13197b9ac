/// An animation of a ring's light on top of its picture, applied in linear light: the whole ring
/// is scaled by `level(at:)`, so colours keep their hue as they dim.
public enum Effect: Hashable, Sendable {
    /// Steady light.
    case none
    /// Breathing: a smooth fall to `Effect.pulseFloor` and back once per period, starting bright.
    case pulse(period: Double)
    /// On for the first half of each period, dark for the second.
    case blink(period: Double)
    /// `count` blinks of one period each, then steady light (so it ends, and the daemon sleeps).
    case flash(count: Int, period: Double)

    /// The dimmest a pulse goes, in linear light: dim enough to read as breathing, never dark.
    public static let pulseFloor: Float = 0.08
    /// Periods when none is given, seconds.
    public static let defaultPulsePeriod = 2.0
    /// See `defaultPulsePeriod`.
    public static let defaultBlinkPeriod = 1.0
    /// See `defaultPulsePeriod`.
    public static let defaultFlashPeriod = 0.5

    /// The period, seconds (0 for `none`).
    public var period: Double {
        switch self {
        case .none: return 0
        case .pulse(let p), .blink(let p), .flash(_, let p): return p
        }
    }

    /// The scale of the ring's light `elapsed` seconds after the effect began, 0…1.
    public func level(at elapsed: Double) -> Float {
        switch self {
        case .none:
            return 1
        case .pulse(let period):
            guard period > 0, elapsed.isFinite else { return 1 }
            let phase = (elapsed / period).truncatingRemainder(dividingBy: 1)
            let wave = Float(0.5 + 0.5 * LibM.cos(2 * Double.pi * phase))
            return Effect.pulseFloor + (1 - Effect.pulseFloor) * wave
        case .blink(let period):
            guard period > 0, elapsed.isFinite else { return 1 }
            let phase = (Swift.max(0, elapsed) / period).truncatingRemainder(dividingBy: 1)
            return phase < 0.5 ? 1 : 0
        case .flash(let count, let period):
            guard period > 0, elapsed.isFinite, elapsed < Double(count) * period else { return 1 }
            let phase = (Swift.max(0, elapsed) / period).truncatingRemainder(dividingBy: 1)
            return phase < 0.5 ? 1 : 0
        }
    }

    /// Whether the light still changes after `elapsed` seconds (a finished flash does not).
    public func isAnimating(at elapsed: Double) -> Bool {
        switch self {
        case .none: return false
        case .pulse, .blink: return true
        case .flash(let count, let period): return elapsed < Double(count) * period
        }
    }

    /// How the effect is written: `pulse`, `blink`, `flash 3`, `none`.
    public var name: String {
        switch self {
        case .none: return "none"
        case .pulse: return "pulse"
        case .blink: return "blink"
        case .flash(let count, _): return "flash \(count)"
        }
    }
}
