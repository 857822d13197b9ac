import Glibc

/// A failed system call in the daemon or client, naming the call, the path and the errno.
struct SystemError: Error, Sendable, CustomStringConvertible {
    /// What was being done (`binding the control socket`).
    var operation: String
    /// The file or socket involved.
    var path: String
    /// The errno.
    var code: Int32
    /// What to do about it; empty when there is nothing better than the kernel's reason.
    var fix: String = ""

    /// "binding the control socket /run/ledring/ledring.sock: Permission denied; fix".
    var description: String {
        let reason = String(cString: strerror(code))
        let base = "\(operation) \(path): \(reason)"
        if !fix.isEmpty { return "\(base); \(fix)" }
        switch code {
        case EACCES, EPERM: return "\(base); check the permissions of \(path) and its directory"
        default: return base
        }
    }

    /// The sysexits code: permission problems are 77, the rest are I/O errors.
    var exitCode: ExitCode {
        switch code {
        case EACCES, EPERM: .noPermission
        case ENOENT, ECONNREFUSED, EADDRINUSE: .unavailable
        default: .ioError
        }
    }

    /// As a command failure.
    var commandError: CommandError { CommandError(description, code: exitCode) }
}
