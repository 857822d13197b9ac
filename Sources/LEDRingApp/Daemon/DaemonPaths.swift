import LEDSystem

/// Where the socket and the state file live when not given: per user under the XDG directories,
/// system-wide under /run and /var/lib for the service (root or a service user without them).
enum DaemonPaths {
    /// The service's socket (systemd `RuntimeDirectory=ledring`).
    static let serviceSocket = "/run/ledring/ledring.sock"
    /// The service's state file (systemd `StateDirectory=ledring`).
    static let serviceState = "/var/lib/ledring/state.json"

    /// The directory holding `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The daemon's socket: `--socket`, the config, `$LEDRING_SOCKET`, `$XDG_RUNTIME_DIR/ledring.sock`,
    /// then `/run/ledring/ledring.sock` for root or `/tmp/ledring-UID.sock`.
    static func daemonSocket(option: String?, config: String?, environment: [String: String], uid: UInt32) -> String {
        if let option { return option }
        if let config { return config }
        if let path = environment["LEDRING_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/ledring.sock" }
        return uid == 0 ? serviceSocket : "/tmp/ledring-\(uid).sock"
    }

    /// The user who made the socket at `path` when it is not to be trusted: it lies in a
    /// directory others may write (the `/tmp` fallback, when there is no `XDG_RUNTIME_DIR`) and
    /// belongs to neither `uid` nor root. Another user who binds `/tmp/ledring-UID.sock` first
    /// would otherwise receive this user's requests and answer with made-up rings. `/tmp` is
    /// sticky, so a socket of one's own there cannot be swapped by anyone else. nil: trusted, or
    /// nothing there.
    static func squatter(of path: String, uid: UInt32, system: any SystemCalls) -> UInt32? {
        guard let node = try? system.lstat(path), node.ownerID != uid, node.ownerID != 0,
              let directory = try? system.stat(directory(of: path)), directory.permissions & 0o002 != 0 else { return nil }
        return node.ownerID
    }

    /// What to do about a socket someone else made: said by the client and the daemon alike.
    static func squatterFix(uid: UInt32) -> String {
        "someone else made it, so it is not used; set XDG_RUNTIME_DIR (a login session has it) or pass --socket PATH in a directory only you can write (user \(uid) may remove it: sudo rm it)"
    }

    /// The client's socket: like the daemon's, but when the per-user socket does not exist and
    /// the service's does, the service's (a desktop user talking to the system daemon).
    static func clientSocket(option: String?, environment: [String: String], uid: UInt32,
                             exists: (String) -> Bool) -> String {
        let own = daemonSocket(option: option, config: nil, environment: environment, uid: uid)
        if option != nil || environment["LEDRING_SOCKET"].map({ !$0.isEmpty }) == true { return own }
        if !exists(own) && exists(serviceSocket) { return serviceSocket }
        return own
    }

    /// The state file: `--state`, the config, `$XDG_STATE_HOME/ledring/state.json`,
    /// `~/.local/state/ledring/state.json`, else `/var/lib/ledring/state.json`.
    static func state(option: String?, config: String?, environment: [String: String], uid: UInt32) -> String {
        if let option { return option }
        if let config { return config }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/ledring/state.json" }
        if uid != 0, let home = environment["HOME"], !home.isEmpty, home != "/" {
            return home + "/.local/state/ledring/state.json"
        }
        return serviceState
    }
}
