import LEDRingControl
import LEDJSON
import RingModel

/// The config is read by LEDJSON's reader, the same one the `mqtt` and `http` sections use, so
/// every problem in the file is listed once, with its path, in one pass.
typealias ConfigReader = JSONReader

/// One thing wrong in a config file: where (a JSON path like `rings[1].leds`) and what.
typealias ConfigProblem = JSONProblem

extension JSONReader {
    /// A colour written `#rrggbb`, or nil.
    mutating func color(_ value: JSONValue?, at path: String) -> RGB8? {
        guard let value else { return nil }
        if case .string(let s) = value, s.hasPrefix("#"), let color = RGB8(hex: s) { return color }
        report(path, "must be a colour \"#rrggbb\", got \(value.shown)")
        return nil
    }
}
