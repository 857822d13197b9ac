import RingModel

extension Request {
    /// The effects, for messages.
    public static let effects = "pulse, blink, flash N, none"
    /// Most flashes one effect makes.
    public static let maxFlashes = 100

    /// An effect from how people write it (`pulse`, `blink`, `flash 3`, `none`) with its period
    /// in seconds (nil: the effect's default), checked: the config's looks and `notify --effect`
    /// read effects here, so both refuse the same mistakes with the same words.
    public static func effect(_ text: String, period: Double? = nil) throws(RequestError) -> Effect {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let period {
            guard period.isFinite, period >= 0.05, period <= 3600 else {
                throw RequestError("period \(Request.shown(period)): must be seconds from 0.05 to 3600, e.g. 2")
            }
        }
        switch (words.first ?? "", words.count) {
        case ("none", 1): return .none
        case ("pulse", 1): return .pulse(period: period ?? Effect.defaultPulsePeriod)
        case ("blink", 1): return .blink(period: period ?? Effect.defaultBlinkPeriod)
        case ("flash", 1): return .flash(count: 3, period: period ?? Effect.defaultFlashPeriod)
        case ("flash", 2):
            guard let count = Int(words[1]), count >= 1, count <= maxFlashes else {
                throw RequestError("effect \"\(Request.shown(text))\": give how many flashes, 1…\(maxFlashes), e.g. flash 3")
            }
            return .flash(count: count, period: period ?? Effect.defaultFlashPeriod)
        default:
            throw RequestError("effect \"\(Request.shown(text))\": unknown; use one of \(effects)")
        }
    }
}
