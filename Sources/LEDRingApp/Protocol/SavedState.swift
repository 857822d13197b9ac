/// The values written to the state file: what a restart puts back.
struct SavedState: Equatable, Sendable {
    /// Target value per ring name.
    var rings: [String: Double]
    /// Rings showing the spinner.
    var spinning: [String]
    /// Overall light, 0…1, when it was changed at run time.
    var brightness: Double?

    /// Why a decoded state cannot be used, or nil when every value is in range.
    var problem: String? {
        for (name, value) in rings.sorted(by: { $0.key < $1.key })
        where !value.isFinite || value < 0 || value > Request.maxValue {
            return "ring \(name) has value \(value), outside 0…100"
        }
        if let b = brightness, !(b >= 0 && b <= 1) { return "brightness \(b) is outside 0…1" }
        return nil
    }
}
