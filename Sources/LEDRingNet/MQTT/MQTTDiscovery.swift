/// Home Assistant MQTT discovery: each ring a `number` entity (a 0…maxPercent % slider) and the
/// whole device a `light` (on/off and brightness), all tied to one device and to availability.
public enum MQTTDiscovery {
    /// The retained config messages for `rings` (publish them on every connect; an empty payload
    /// on the same topic would remove an entity).
    public static func messages(settings: MQTTSettings, rings: [String]) -> [MQTTMessage] {
        let topics = MQTTTopics(settings: settings)
        let node = settings.device
        let device: [String: Any] = [
            "identifiers": ["ledring_\(node)"],
            "name": settings.resolvedName,
            "manufacturer": "ledring",
            "model": "LED progress rings",
        ]
        let availability: [String: Any] = [
            "availability_topic": topics.availability,
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": device,
            "qos": settings.qos,
        ]
        var messages: [MQTTMessage] = rings.map { ring in
            let config = availability.merging([
                "name": ring,
                "unique_id": "ledring_\(node)_\(ring)",
                "object_id": "ledring_\(node)_\(ring)",
                "command_topic": topics.set(ring),
                // Home Assistant sends the slider's number; `%` makes it a percentage for us.
                "command_template": "{{ value }}%",
                "state_topic": topics.state(ring),
                "value_template": "{{ value_json.percent }}",
                "min": 0,
                "max": settings.maxPercent,
                "step": 1,
                "mode": "slider",
                "unit_of_measurement": "%",
                "icon": "mdi:circle-slice-6",
                "retain": false,
            ] as [String: Any]) { _, new in new }
            return MQTTMessage(topic: "\(settings.discoveryPrefix)/number/\(node)_\(ring)/config",
                               payload: MQTTTopics.json(config), retain: true)
        }
        let light = availability.merging([
            "name": "LEDs",
            "unique_id": "ledring_\(node)_light",
            "object_id": "ledring_\(node)_light",
            "schema": "json",
            "command_topic": topics.power,
            "state_topic": topics.status,
            "brightness": true,
            "brightness_scale": 100,
            "supported_color_modes": ["brightness"],
        ] as [String: Any]) { _, new in new }
        messages.append(MQTTMessage(topic: "\(settings.discoveryPrefix)/light/\(node)/config",
                                    payload: MQTTTopics.json(light), retain: true))
        return messages
    }
}
