/// Why a control request was refused; nothing changed when one is thrown.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No ring has this name; `known` lists the ones that exist.
    case unknownRing(String, known: [String])
    /// A value is not a finite number in 0…100 (laps).
    case badValue(ring: String, value: Double)
    /// A transition length is not a finite number of seconds in 0…3600.
    case badDuration(Double)
    /// A brightness is not a finite number in 0…1.
    case badBrightness(Double)
    /// The request is fine but the rings cannot take it now (the daemon says why).
    case unavailable(String)

    /// One line naming the value and the fix.
    public var description: String {
        switch self {
        case .unknownRing(let name, let known):
            return "no ring called \"\(name)\"; the rings are \(known.joined(separator: ", "))"
        case .badValue(let ring, let value):
            return "\(ring): value \(value) is out of range; give 0…\(Int(SetCommand.maxValue)) (1 = one lap) or 0%…\(Int(SetCommand.maxValue * 100))%"
        case .badDuration(let seconds):
            return "duration \(seconds) is out of range; give 0…\(Int(SetCommand.maxDuration)) seconds"
        case .badBrightness(let value):
            return "brightness \(value) is out of range; give 0…1 or 0%…100%"
        case .unavailable(let why):
            return why
        }
    }
}
