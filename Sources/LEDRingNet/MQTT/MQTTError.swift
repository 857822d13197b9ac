/// Why the MQTT bridge cannot start. (Once started, it never gives up: connection failures are
/// logged and retried with backoff.)
public enum MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ledring was built without libmosquitto, which TLS to the broker needs.
    case unavailable
    /// ledring was built with libmosquitto, but it cannot be opened on this machine.
    case libraryMissing(reason: String)
    /// The password file cannot be read or is empty.
    case passwordFile(path: String, reason: String)
    /// libmosquitto refused a setting (TLS files, client id, …).
    case setup(what: String, reason: String)

    /// What failed and the fix.
    public var description: String {
        switch self {
        case .unavailable:
            return "mqtt.tls: TLS to the broker needs libmosquitto: `sudo apt install libmosquitto-dev` and rebuild ledring, or use a broker without TLS"
        case .libraryMissing(let reason):
            return "mqtt.tls: TLS to the broker needs libmosquitto at run time (\(reason)): `sudo apt install libmosquitto1`, or use a broker without TLS"
        case .passwordFile(let path, let reason):
            return "mqtt.passwordFile \(path): \(reason); put the password on the file's first line"
        case .setup(let what, let reason):
            return "mqtt: \(what): \(reason)"
        }
    }
}
