import Foundation
import Testing

/// Issue 14: the network drop-in lets the daemon use internet sockets, but not to any address.
@Suite struct ServiceUnitTests {
    static var dropIn: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tools/ledring.service.d/network.conf").path
    }

    /// The `Key=value` settings of a unit file (comments skipped), last one wins.
    static func settings(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1)
            out[String(parts[0]).trimmingCharacters(in: .whitespaces)] = String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    @Test func theNetworkDropInRestrictsAddresses() throws {
        let settings = Self.settings(try String(contentsOfFile: Self.dropIn, encoding: .utf8))
        #expect(settings["RestrictAddressFamilies"] == "AF_UNIX AF_INET AF_INET6")
        #expect(settings["IPAddressDeny"] == "any")
        let allowed = (settings["IPAddressAllow"] ?? "").split(separator: " ").map(String.init)
        #expect(allowed.contains("localhost") && allowed.contains("192.168.0.0/16"))
        #expect(!allowed.contains("any") && !allowed.contains("0.0.0.0/0") && !allowed.contains("::/0"))
    }
}
