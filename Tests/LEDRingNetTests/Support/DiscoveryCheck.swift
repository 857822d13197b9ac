import Foundation
import Testing

/// Checks a discovery config the way Home Assistant reads it.
enum DiscoveryCheck {
    static func validate(_ topic: String, _ payload: String, base: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        for key in ["name", "unique_id", "command_topic", "state_topic", "availability_topic", "device"] {
            #expect(object[key] != nil, "\(topic) lacks \(key)")
        }
        #expect(object["availability_topic"] as? String == "\(base)/availability")
        let device = try #require(object["device"] as? [String: Any])
        #expect((device["identifiers"] as? [String])?.isEmpty == false)
        if topic.contains("/number/") {
            #expect(object["min"] as? Int == 0 && object["max"] as? Int == 200 && object["step"] as? Int == 1)
            #expect((object["command_topic"] as? String)?.hasSuffix("/set") == true)
            #expect(object["value_template"] as? String == "{{ value_json.percent }}")
        } else {
            #expect(object["schema"] as? String == "json" && object["brightness_scale"] as? Int == 100)
            #expect(object["command_topic"] as? String == "\(base)/power" && object["state_topic"] as? String == "\(base)/status")
        }
    }
}
