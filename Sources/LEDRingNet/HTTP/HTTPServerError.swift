/// Why the HTTP server cannot start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The token file cannot be read or is empty.
    case tokenFile(path: String, reason: String)
    /// A webhook's secret file (`setting`) cannot be read or is empty.
    case secretFile(setting: String, path: String, reason: String)
    /// Binding or starting the listener failed.
    case cannotListen(address: String, port: Int, reason: String)

    /// What failed and the fix.
    public var description: String {
        switch self {
        case .tokenFile(let path, let reason):
            return "http.tokenFile \(path): \(reason); put the token on the file's first line"
        case .secretFile(let setting, let path, let reason):
            return "\(setting) \(path): \(reason); put the secret on the file's first line"
        case .cannotListen(let address, let port, let reason):
            return "cannot listen on \(address) port \(port): \(reason); choose another http.port or http.address, or stop the program using it"
        }
    }
}
