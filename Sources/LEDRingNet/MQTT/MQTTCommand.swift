import LEDRingControl
/// A request that arrived over MQTT, parsed from its topic and payload.
public enum MQTTCommand: Equatable, Sendable {
    /// `<base>/<ring>/set`.
    case set(ring: String, SetCommand)
    /// `<base>/reset`.
    case reset
    /// `<base>/spin` with the ring's name as payload.
    case spin(String)
    /// `<base>/stop` with the ring's name as payload.
    case stop(String)
    /// `<base>/brightness`: 0…1 or a percentage.
    case brightness(Double)
    /// `<base>/power`: `ON`/`OFF`, or Home Assistant's light JSON `{"state":"ON","brightness":80}`.
    case light(on: Bool?, brightness: Double?)

    /// The ring the command names, if any.
    public var ring: String? {
        switch self {
        case .set(let ring, _), .spin(let ring), .stop(let ring): return ring
        default: return nil
        }
    }

    /// Applies the command; a refused one changes nothing.
    public func apply(to control: any RingControl) throws(ControlError) {
        switch self {
        case .set(let ring, let command):
            try control.set([ring: command.value], duration: command.duration, curve: command.curve)
        case .reset: control.reset()
        case .spin(let ring): try control.spin(ring)
        case .stop(let ring): try control.stop(ring)
        case .brightness(let value): try control.setBrightness(value)
        case .light(let on, let brightness):
            if let brightness { try control.setBrightness(brightness) }
            if let on { control.setPower(on) }
        }
    }
}
