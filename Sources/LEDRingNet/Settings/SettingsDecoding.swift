import Foundation

/// Decodes a settings section from JSON, turning every failure into `SettingsError`.
enum SettingsDecoding {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], section: String) throws(SettingsError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as SettingsError {
            throw error
        } catch {
            throw SettingsError(problems: [.init(path: section, message: "must be a JSON object {…} (\(error))")])
        }
    }
}
