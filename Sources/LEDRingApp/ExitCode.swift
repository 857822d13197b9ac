/// Exit statuses from BSD's sysexits.h, so scripts and systemd can tell failures apart.
public enum ExitCode: Int32, Sendable {
    /// Success.
    case ok = 0
    /// The command line was wrong.
    case usage = 64
    /// Input data was wrong.
    case dataError = 65
    /// A device or service is not there.
    case unavailable = 69
    /// Something went wrong inside ledring.
    case software = 70
    /// Reading or writing failed.
    case ioError = 74
    /// Not allowed to use a file or device.
    case noPermission = 77
    /// The configuration is wrong.
    case config = 78
}

/// A failure the command reports in one line before exiting with `code`.
public struct CommandError: Error, Sendable {
    /// What went wrong, with the value and the fix.
    public var message: String
    /// The exit status.
    public var code: ExitCode

    /// Makes an error.
    public init(_ message: String, code: ExitCode) {
        self.message = message
        self.code = code
    }

    /// A command-line mistake (exit 64).
    public static func usage(_ message: String) -> CommandError {
        CommandError(message, code: .usage)
    }
}
