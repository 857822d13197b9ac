/// One message to publish: topic, text payload, and whether the broker keeps it for late subscribers.
public struct MQTTMessage: Equatable, Sendable {
    /// The topic.
    public var topic: String
    /// The payload (UTF-8 text: numbers, ON/OFF, JSON).
    public var payload: String
    /// Whether the broker retains it.
    public var retain: Bool

    /// Makes a message.
    public init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}
