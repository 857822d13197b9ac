import LEDJSON

/// Home Assistant MQTT discovery, all tied to one device and to availability: each ring a
/// `number` entity (a 0…maxPercent % slider) and a JSON-schema `light` (on/off, an RGB colour,
/// effects, flash and transition: `MQTTRingLight`), with looks a `select` per ring; the whole
/// device a `light` (on/off and brightness) and a reset `button`.
///
/// The lights carry `"color_mode": true` beside `supported_color_modes`, checked against real
/// Home Assistant cores by `tools/ha-check.sh`: 2024.3 requires the two together (both are
/// `vol.Inclusive(…, "color_mode")` in `homeassistant/components/mqtt/light/schema_json.py`, and
/// a light with one alone is refused at discovery); 2024.4 deprecated the flag and 2025.3 stopped
/// using it, but the discovery schema still takes it (`cv.removed(CONF_COLOR_MODE,
/// raise_if_present=False)`, a warning in HA's log) and later ones drop unknown keys
/// (`extra=vol.REMOVE_EXTRA`). Without it, only 2024.4 and later would show the lights.
public enum MQTTDiscovery {
    /// The retained config messages for `rings` (publish them on every connect; an empty payload
    /// on the same topic would remove an entity).
    /// With `looks`, each ring also gets a `select` of them (`default`, `none` and the config's).
    public static func messages(settings: MQTTSettings, rings: [String], looks: [String] = []) -> [MQTTMessage] {
        let topics = MQTTTopics(settings: settings)
        let node = settings.device
        let device = JSONValue.object([
            ("identifiers", .array([.string("ledring_\(node)")])),
            ("name", .string(settings.resolvedName)),
            ("manufacturer", .string("ledring")),
            ("model", .string("LED progress rings")),
        ])
        let availability: [(String, JSONValue)] = [
            ("availability_topic", .string(topics.availability)),
            ("payload_available", .string("online")),
            ("payload_not_available", .string("offline")),
            ("device", device),
            ("qos", .integer(settings.qos)),
        ]
        var messages: [MQTTMessage] = rings.map { ring in
            let config = JSONValue.object(availability + [
                ("name", .string(ring)),
                ("unique_id", .string("ledring_\(node)_\(ring)")),
                ("object_id", .string("ledring_\(node)_\(ring)")),
                ("command_topic", .string(topics.set(ring))),
                // Home Assistant sends the slider's number; `%` makes it a percentage for us.
                ("command_template", .string("{{ value }}%")),
                ("state_topic", .string(topics.state(ring))),
                ("value_template", .string("{{ value_json.percent }}")),
                ("min", .integer(0)),
                ("max", .integer(settings.maxPercent)),
                ("step", .integer(1)),
                ("mode", .string("slider")),
                ("unit_of_measurement", .string("%")),
                ("icon", .string("mdi:circle-slice-6")),
                ("retain", .bool(false)),
            ])
            return MQTTMessage(topic: "\(settings.discoveryPrefix)/number/\(node)_\(ring)/config",
                               payload: MQTTTopics.json(config), retain: true)
        }
        if !looks.isEmpty {
            for ring in rings {
                let select = JSONValue.object(availability + [
                    ("name", .string("\(ring) look")),
                    ("unique_id", .string("ledring_\(node)_\(ring)_look")),
                    ("object_id", .string("ledring_\(node)_\(ring)_look")),
                    ("command_topic", .string(topics.look(ring))),
                    ("state_topic", .string(topics.state(ring))),
                    // A colour look is not an option: the select then shows no option (`None`).
                    ("value_template", .string(selectTemplate(options: ["default", "none"] + looks))),
                    ("options", .array((["default", "none"] + looks).map(JSONValue.string))),
                    ("icon", .string("mdi:palette")),
                ])
                messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/select/\(node)_\(ring)_look/config",
                                            payload: MQTTTopics.json(select), retain: true))
            }
        }
        for ring in rings {
            let light = JSONValue.object(availability + [
                ("name", .string("\(ring) light")),
                ("unique_id", .string("ledring_\(node)_\(ring)_light")),
                ("object_id", .string("ledring_\(node)_\(ring)_light")),
                ("schema", .string("json")),
                ("command_topic", .string(topics.light(ring))),
                ("state_topic", .string(topics.state(ring))),
                // No per-ring brightness: Home Assistant then scales the colour it sends.
                ("brightness", .bool(false)),
                ("color_mode", .bool(true)),
                ("supported_color_modes", .array([.string("rgb")])),
                ("effect", .bool(true)),
                ("effect_list", .array(MQTTRingLight.effectList(looks: looks).map(JSONValue.string))),
                ("flash_time_short", .integer(MQTTRingLight.flashShort)),
                ("flash_time_long", .integer(MQTTRingLight.flashLong)),
                ("icon", .string("mdi:circle-outline")),
            ])
            messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/light/\(node)_\(ring)/config",
                                        payload: MQTTTopics.json(light), retain: true))
        }
        let button = JSONValue.object(availability + [
            ("name", .string("Reset")),
            ("unique_id", .string("ledring_\(node)_reset")),
            ("object_id", .string("ledring_\(node)_reset")),
            ("command_topic", .string(topics.reset)),
            ("payload_press", .string("reset")),
            ("icon", .string("mdi:restore")),
        ])
        messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/button/\(node)_reset/config",
                                    payload: MQTTTopics.json(button), retain: true))
        let light = JSONValue.object(availability + [
            ("name", .string("LEDs")),
            ("unique_id", .string("ledring_\(node)_light")),
            ("object_id", .string("ledring_\(node)_light")),
            ("schema", .string("json")),
            ("command_topic", .string(topics.power)),
            ("state_topic", .string(topics.status)),
            ("brightness", .bool(true)),
            ("brightness_scale", .integer(100)),
            ("color_mode", .bool(true)),
            ("supported_color_modes", .array([.string("brightness")])),
        ])
        messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/light/\(node)/config",
                                    payload: MQTTTopics.json(light), retain: true))
        return messages
    }

    /// The select's value template: the look when it is one of `options`, else `None` (which
    /// Home Assistant shows as no option) rather than a value it would refuse.
    static func selectTemplate(options: [String]) -> String {
        let list = options.map { "'" + $0.replacingSingleQuotes() + "'" }.joined(separator: ",")
        return "{% set look = value_json.look %}{{ look if look in [\(list)] else 'None' }}"
    }
}

extension String {
    /// The text with `'` escaped for a Jinja string in single quotes.
    fileprivate func replacingSingleQuotes() -> String {
        var out = ""
        for c in self {
            if c == "'" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
