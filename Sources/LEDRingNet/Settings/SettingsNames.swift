import RingModel

/// The name and topic rules of the `mqtt` section.
enum SettingsNames {
    /// Ring, device and topic-level names: letters, digits, `-` and `_` (nothing MQTT treats as
    /// a wildcard or level separator).
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// A topic to publish under: levels separated by `/`, no wildcards, no empty level.
    static func isTopic(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && !text.utf8.contains(UInt8(ascii: "+")) && !text.utf8.contains(UInt8(ascii: "#"))
            && !text.hasPrefix("/") && !text.hasSuffix("/") && !text.containsText("//")
            && !text.unicodeScalars.contains { $0.value < 0x20 }
    }
}
