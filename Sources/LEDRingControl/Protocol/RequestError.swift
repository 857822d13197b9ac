/// Why a request was refused, whichever front end it came through (socket, CLI, MQTT, HTTP);
/// nothing changed when one is thrown. Sent back as `{"ok":false,"error":…}` on the socket, as a
/// 400/404/503 body over HTTP, logged by MQTT: the same words for the same mistake everywhere.
public struct RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of refusal, for a front end that answers each differently (HTTP's status codes).
    public enum Kind: Equatable, Sendable {
        /// The request or a value in it is wrong: fix it and send it again.
        case invalid
        /// It names a ring that does not exist (a group message may name other devices' rings).
        case unknownRing
        /// The request is fine but the rings cannot take it now (the daemon is stopping).
        case unavailable
        /// It ends a notification that is not showing: nothing to do. A person is told; a sender
        /// that repeats itself (Alertmanager resends a group's resolved alerts) ignores it.
        case notShowing
    }

    /// What was wrong, with the value and the fix.
    public var message: String
    /// What kind of refusal it is.
    public var kind: Kind

    /// Makes an error.
    public init(_ message: String, kind: Kind = .invalid) {
        self.message = message
        self.kind = kind
    }

    /// The message.
    public var description: String { message }

    /// No ring called `name`; `known` lists the ones there are.
    public static func unknownRing(_ name: String, known: [String]) -> RequestError {
        RequestError("no ring called \"\(Request.shown(name))\"; the rings are \(known.joined(separator: ", "))",
                     kind: .unknownRing)
    }

    /// The rings cannot take requests now, and why.
    public static func unavailable(_ why: String) -> RequestError {
        RequestError(why, kind: .unavailable)
    }
}

/// What the payload parsers (`JSONObject`, `SetCommand`) throw: the same error as every request,
/// so a bad MQTT or HTTP payload reads like a bad socket line. The old name stays only until
/// the LEDJSON work replaces `JSONObject`.
public typealias PayloadError = RequestError
