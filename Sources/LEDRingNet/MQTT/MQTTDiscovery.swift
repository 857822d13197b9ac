import LEDJSON

/// Home Assistant MQTT discovery: each ring a `number` entity (a 0…maxPercent % slider) and the
/// whole device a `light` (on/off and brightness), all tied to one device and to availability.
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
                    ("value_template", .string("{{ value_json.look }}")),
                    ("options", .array((["default", "none"] + looks).map(JSONValue.string))),
                    ("icon", .string("mdi:palette")),
                ])
                messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/select/\(node)_\(ring)_look/config",
                                            payload: MQTTTopics.json(select), retain: true))
            }
        }
        let light = JSONValue.object(availability + [
            ("name", .string("LEDs")),
            ("unique_id", .string("ledring_\(node)_light")),
            ("object_id", .string("ledring_\(node)_light")),
            ("schema", .string("json")),
            ("command_topic", .string(topics.power)),
            ("state_topic", .string(topics.status)),
            ("brightness", .bool(true)),
            ("brightness_scale", .integer(100)),
            ("supported_color_modes", .array([.string("brightness")])),
        ])
        messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/light/\(node)/config",
                                    payload: MQTTTopics.json(light), retain: true))
        return messages
    }
}
