import Foundation
import Testing

/// Checks discovery configs and state payloads the way Home Assistant reads them. The rules are
/// written from Home Assistant's sources (home-assistant/core):
/// - `homeassistant/components/mqtt/light/schema_json.py`: `PLATFORM_SCHEMA_JSON` (schema
///   `json`, `command_topic` required, `brightness`/`effect` booleans, `brightness_scale` ≥ 1,
///   `effect_list` a list of strings, `flash_time_short`/`flash_time_long` positive integers,
///   the old `rgb`/`hs`/`xy`/`color_temp`/`white_value` flags not combined with color modes,
///   `color_mode` true with `supported_color_modes`, which 2024.3 requires together),
///   and `state_received` (`state` read from every state message, `color_mode` only one of the
///   supported modes, an `rgb` mode with `color.r/g/b` integers, `effect` as sent);
/// - `homeassistant/components/light/__init__.py`: `valid_supported_color_modes` (a non-empty
///   set of known modes, `onoff` and `brightness` only alone, `white` only with a colour mode);
/// - `homeassistant/components/mqtt/button.py` and `select.py`: `command_topic` required, a
///   select's `options` a non-empty list.
enum DiscoveryCheck {
    static let validColorModes: Set<String> = ["onoff", "brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"]
    static let colorModes: Set<String> = ["hs", "xy", "rgb", "rgbw", "rgbww"]

    /// Everything wrong with one discovery config, as Home Assistant would refuse or misread it.
    static func problems(_ topic: String, _ object: [String: Any], base: String) -> [String] {
        var out: [String] = []
        let component = topic.split(separator: "/").dropFirst().first.map(String.init) ?? ""
        var required = ["name", "unique_id", "object_id", "command_topic", "availability_topic", "device"]
        if component != "button" { required.append("state_topic") }
        for key in required where object[key] == nil { out.append("lacks \(key)") }
        if object["availability_topic"] as? String != "\(base)/availability" { out.append("availability_topic is not \(base)/availability") }
        if let qos = object["qos"], !((qos as? Int).map { (0...2).contains($0) } ?? false) { out.append("qos must be 0, 1 or 2") }
        if let command = object["command_topic"] as? String {
            if command.isEmpty || command.contains("+") || command.contains("#") { out.append("command_topic must be a topic without wildcards") }
        } else if object["command_topic"] != nil { out.append("command_topic must be a string") }
        if let device = object["device"] as? [String: Any] {
            if (device["identifiers"] as? [String])?.isEmpty != false { out.append("device needs identifiers") }
        } else { out.append("device must be an object") }
        switch component {
        case "light": out += lightProblems(object, base: base)
        case "select":
            if (object["options"] as? [String])?.isEmpty != false { out.append("options must be a non-empty list of strings") }
        case "button":
            if let press = object["payload_press"], !(press is String) { out.append("payload_press must be a string") }
        case "number":
            if object["min"] as? Int != 0 || object["max"] as? Int != 200 || object["step"] as? Int != 1 { out.append("number range") }
            if (object["command_topic"] as? String)?.hasSuffix("/set") != true { out.append("number command_topic") }
            if object["value_template"] as? String != "{{ value_json.percent }}" { out.append("number value_template") }
        default: out.append("unexpected component \(component)")
        }
        return out
    }

    /// The JSON-schema light's rules.
    static func lightProblems(_ object: [String: Any], base: String) -> [String] {
        var out: [String] = []
        if object["schema"] as? String != "json" { out.append("schema must be json") }
        for key in ["brightness", "effect", "optimistic", "retain"] where object[key] != nil && !(object[key] is Bool) {
            out.append("\(key) must be true or false")
        }
        if let scale = object["brightness_scale"], !((scale as? Int).map { $0 >= 1 } ?? false) { out.append("brightness_scale must be an integer ≥ 1") }
        for key in ["flash_time_short", "flash_time_long"] where object[key] != nil {
            if !((object[key] as? Int).map { $0 > 0 } ?? false) { out.append("\(key) must be a positive integer") }
        }
        guard let modes = object["supported_color_modes"] as? [String] else {
            out.append("supported_color_modes must be a list of strings")
            return out
        }
        let set = Set(modes)
        if set.isEmpty { out.append("supported_color_modes must not be empty") }
        if set.count != modes.count { out.append("supported_color_modes must be unique") }
        if !set.isSubset(of: validColorModes) { out.append("unknown color mode in \(modes)") }
        if set.contains("onoff") && set.count > 1 { out.append("onoff must be the only color mode") }
        if set.contains("brightness") && set.count > 1 { out.append("brightness must be the only color mode") }
        if set.contains("white") && set.isDisjoint(with: colorModes) { out.append("white needs a color mode") }
        for key in ["rgb", "hs", "xy", "color_temp", "white_value"] where object[key] != nil {
            out.append("\(key) cannot be combined with supported_color_modes")
        }
        // Home Assistant 2024.3 refuses supported_color_modes without `"color_mode": true`
        // (`vol.Inclusive` of the two); later releases take the flag and ignore it. A real HA
        // core checks this in tools/ha-check.sh; this is the quick check.
        if object["color_mode"] as? Bool != true { out.append("supported_color_modes needs \"color_mode\": true for Home Assistant 2024.3") }
        if object["effect"] as? Bool == true {
            if let list = object["effect_list"] as? [String] {
                if list.isEmpty { out.append("effect_list must not be empty") }
                if Set(list).count != list.count { out.append("effect_list has duplicates") }
            } else { out.append("effect needs effect_list, a list of strings") }
        }
        return out
    }

    /// Everything wrong with a state message for the light `config`, as `state_received` reads it.
    static func stateProblems(_ state: [String: Any], light config: [String: Any]) -> [String] {
        var out: [String] = []
        guard let word = state["state"] as? String, word == "ON" || word == "OFF" else { return ["state must be ON or OFF"] }
        let modes = config["supported_color_modes"] as? [String] ?? []
        if let mode = state["color_mode"] {
            guard let name = mode as? String, modes.contains(name) else { return out + ["color_mode \(mode) is not supported"] }
            if name == "rgb" {
                let color = state["color"] as? [String: Any]
                for key in ["r", "g", "b"] where !((color?[key] as? Int).map { (0...255).contains($0) } ?? false) {
                    out.append("an rgb color needs color.\(key), 0…255")
                }
            }
        }
        if let effect = state["effect"] {
            if config["effect"] as? Bool != true { out.append("effect without effect support") }
            if let name = effect as? String, !(config["effect_list"] as? [String] ?? []).contains(name) { out.append("effect \(name) not in effect_list") }
        }
        if state["brightness"] != nil && config["brightness"] as? Bool != true { out.append("brightness without brightness support") }
        return out
    }

    static func decode(_ payload: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    }

    /// Records an issue for each problem of one discovery config.
    static func validate(_ topic: String, _ payload: String, base: String) throws {
        let object = try decode(payload)
        for problem in problems(topic, object, base: base) { Issue.record("\(topic): \(problem)") }
        if topic == "homeassistant/light/\(base.split(separator: "/").last ?? "")/config" {
            #expect(object["brightness_scale"] as? Int == 100)
            #expect(object["command_topic"] as? String == "\(base)/power" && object["state_topic"] as? String == "\(base)/status")
        }
    }
}
