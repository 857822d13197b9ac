import LEDJSON

/// The answer to one request, sent as one JSON line.
enum Reply: Equatable, Sendable {
    /// The rings after the request (every verb but status and errors answers with these).
    case rings([RingReport], brightness: Double)
    /// The daemon's status.
    case status(StatusReport)
    /// The request was refused; nothing changed.
    case error(String)

    /// What one ring shows and where it is heading.
    struct RingReport: Equatable, Sendable {
        /// The ring's name.
        var name: String
        /// The value shown now.
        var shown: Double
        /// The value it is heading for (kept while spinning).
        var target: Double
        /// Whether it shows the spinner.
        var spinning: Bool
    }

    /// Whether the request was carried out.
    var ok: Bool {
        if case .error = self { return false }
        return true
    }

    /// The reply as one JSON line, without the newline.
    var jsonLine: String {
        switch self {
        case .error(let message):
            return JSONValue.object([("ok", .bool(false)), ("error", .string(message))]).jsonText
        case .rings(let rings, let brightness):
            let list = rings.map { ring in
                JSONValue.object([("name", .string(ring.name)), ("shown", .number(ring.shown)),
                                  ("target", .number(ring.target)), ("spinning", .bool(ring.spinning))])
            }
            return JSONValue.object([("ok", .bool(true)), ("rings", .array(list)), ("brightness", .number(brightness))]).jsonText
        case .status(let status):
            return status.jsonLine
        }
    }
}
