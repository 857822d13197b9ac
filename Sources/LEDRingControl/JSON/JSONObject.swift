import Foundation

/// A parsed JSON object with numbers as `Double`, booleans as `Bool` and strings as `String`, so
/// payload checks can tell `true` from `1` (JSONSerialization alone does not on every platform).
public struct JSONObject: @unchecked Sendable {
    // @unchecked: `members` only ever holds the immutable values built by `convert` (Double,
    // Bool, String, NSNull, [Any], [String: Any] of those), never a reference shared elsewhere.

    /// The members.
    public let members: [String: Any]

    /// Wraps members already in the normalised form `parse` produces.
    public init(members: [String: Any]) { self.members = members }

    /// The member called `key`.
    public subscript(key: String) -> Any? { members[key] }

    /// Parses `bytes` as one JSON object.
    public static func parse(_ bytes: [UInt8]) throws(PayloadError) -> JSONObject {
        let parsed: Any
        do throws(JSONSyntax.Problem) {
            try JSONSyntax.check(bytes)
        } catch {
            throw PayloadError("not valid JSON (\(error)); send an object like {\"value\":0.8}")
        }
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(JSONSyntax.withoutBOM(bytes)), options: [.fragmentsAllowed])
        } catch {
            throw PayloadError("not valid JSON; send an object like {\"value\":0.8}")
        }
        guard let object = convert(parsed) as? [String: Any] else {
            throw PayloadError("JSON must be an object like {\"value\":0.8}, got \(show(convert(parsed)))")
        }
        return JSONObject(members: object)
    }

    /// Throws for the first key not in `known`.
    public func onlyKeys(_ known: [String]) throws(PayloadError) {
        for key in members.keys.sorted() where !known.contains(key) {
            throw PayloadError("unknown key \"\(key)\"; known keys are \(known.joined(separator: ", "))")
        }
    }

    /// Short text for a value in a message.
    public static func show(_ value: Any) -> String {
        switch value {
        case let d as Double:
            return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case let b as Bool: return b ? "true" : "false"
        case let s as String: return "\"\(LogText.escaped(s, limit: 40))\""
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(value)"
        }
    }

    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// Normalises JSONSerialization's output: NSNumber booleans become Bool, other numbers Double.
    private static func convert(_ value: Any) -> Any {
        if let number = value as? NSNumber {
            // Foundation gives booleans their own NSNumber subclass (__NSCFBoolean), while `is Bool`
            // is also true for the numbers 0 and 1; the class is what tells `true` from `1`.
            if ObjectIdentifier(type(of: number)) == booleanClass { return number.boolValue }
            return number.doubleValue
        }
        if let array = value as? [Any] { return array.map(convert) }
        if let object = value as? [String: Any] { return object.mapValues(convert) }
        return value
    }
}
