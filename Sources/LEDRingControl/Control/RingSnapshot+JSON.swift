import Foundation

extension RingSnapshot {
    /// The snapshot as compact JSON with sorted keys (what `/api/state`, SSE and MQTT send).
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of strings, numbers and booleans cannot fail (values are finite).
        return (try? encoder.encode(self)).map(Array.init) ?? Array("{}".utf8)
    }
}
