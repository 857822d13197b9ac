import Foundation

/// Reads a settings object key by key, collecting every problem instead of stopping at the first,
/// so one run of the config checker shows all of them.
struct SettingsReader {
    let container: KeyedDecodingContainer<AnyKey>
    let path: String
    var problems: [SettingsError.Problem] = []

    init(_ decoder: any Decoder, section: String, known: [String]) throws {
        path = section
        container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            report(key, "unknown key; known keys here are \(known.joined(separator: ", "))")
        }
    }

    mutating func report(_ key: String, _ message: String) {
        problems.append(.init(path: path.isEmpty ? key : "\(path).\(key)", message: message))
    }

    func has(_ key: String) -> Bool { container.contains(AnyKey(key)) }

    mutating func string(_ key: String) -> String? {
        guard has(key) else { return nil }
        guard let value = try? container.decode(String.self, forKey: AnyKey(key)) else {
            report(key, "must be a string in quotes")
            return nil
        }
        return value
    }

    mutating func bool(_ key: String) -> Bool? {
        guard has(key) else { return nil }
        guard let value = try? container.decode(Bool.self, forKey: AnyKey(key)) else {
            report(key, "must be true or false")
            return nil
        }
        return value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard has(key) else { return nil }
        guard let value = try? container.decode(Int.self, forKey: AnyKey(key)), range.contains(value) else {
            let shown = (try? container.decode(Double.self, forKey: AnyKey(key))).map { "\($0)" } ?? "not a number"
            report(key, "must be a whole number \(range.lowerBound)…\(range.upperBound), got \(shown)")
            return nil
        }
        return value
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard has(key) else { return nil }
        guard let value = try? container.decode(Double.self, forKey: AnyKey(key)), value.isFinite,
              range.contains(value) else {
            let shown = (try? container.decode(Double.self, forKey: AnyKey(key))).map { "\($0)" } ?? "not a number"
            report(key, "must be a number \(range.lowerBound)…\(range.upperBound), got \(shown)")
            return nil
        }
        return value
    }

    /// A list of strings, or nil (absent or not a list of strings).
    mutating func stringList(_ key: String) -> [String]? {
        guard has(key) else { return nil }
        guard let value = try? container.decode([String].self, forKey: AnyKey(key)) else {
            report(key, "must be a list of strings like [\"ledring.local\"]")
            return nil
        }
        return value
    }

    /// A nested object decoded as `T` (which reports its own problems under `path.key`).
    mutating func nested<T: Decodable>(_ key: String, as type: T.Type) -> T? {
        guard has(key) else { return nil }
        do {
            return try container.decode(T.self, forKey: AnyKey(key))
        } catch let error as SettingsError {
            problems += error.problems.map { .init(path: "\(path).\($0.path)", message: $0.message) }
        } catch {
            report(key, "must be an object {…}")
        }
        return nil
    }

    /// Throws everything collected, if anything.
    func finish() throws(SettingsError) {
        if !problems.isEmpty { throw SettingsError(problems: problems) }
    }

    /// Ring, device and topic-level names: letters, digits, `-` and `_` (nothing MQTT treats as
    /// a wildcard or level separator).
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// A topic to publish under: levels separated by `/`, no wildcards, no empty level.
    static func isTopic(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && !text.contains("+") && !text.contains("#")
            && !text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains("//")
            && !text.unicodeScalars.contains { $0.value < 0x20 }
    }
}
