import LEDSystem

extension MQTTSettings {
    /// What starting a bridge with these settings would refuse in the files they name, with the
    /// messages the bridge gives: the password file, and the TLS files libmosquitto would open
    /// (or, where `tlsAvailable` is false, that this build has no TLS).
    public func fileProblems(tlsAvailable: Bool = true) -> [String] {
        var found: [String] = []
        do throws(MQTTError) { _ = try password() } catch { found.append(error.description) }
        guard let tls else { return found }
        guard tlsAvailable else {
            return found + [MQTTError.setup(what: "mqtt.tls", reason: MQTTLoopBridge.noTLS).description]
        }
        for (key, path) in [("caFile", tls.caFile), ("certFile", tls.certFile), ("keyFile", tls.keyFile)] {
            guard let path else { continue }
            // Read as libmosquitto will (a PEM file is a few kilobytes; 1 MiB is generous).
            do throws(BoundedFile.Problem) { _ = try BoundedFile.read(path, limit: 1 << 20) } catch {
                let reason: String
                switch error {
                case .cannotOpen(let errno), .readFailed(let errno): reason = "cannot be read (\(errno))"
                case .notRegular(let kind): reason = "is \(kind), not a file"
                case .tooLarge: reason = "is over 1 MiB, not a PEM file"
                }
                found.append(MQTTError.setup(what: "mqtt.tls.\(key) \(path)",
                                             reason: reason + "; give a readable PEM file").description)
            }
        }
        return found
    }

    /// The password from `passwordFile` (its first line, kept as written), nil without one.
    public func password() throws(MQTTError) -> String? {
        guard let path = passwordFile else { return nil }
        do throws(SecretFile.Problem) { return try SecretFile.firstLine(path, trimming: false) } catch {
            throw .passwordFile(path: path, reason: error.reason)
        }
    }
}
