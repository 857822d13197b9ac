import LEDHardware

/// Exit statuses from BSD's sysexits.h, so scripts and systemd can tell failures apart.
public enum ExitCode: Int32, Sendable, CaseIterable {
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

extension ExitCode {
    /// The sysexits code for a hardware failure of `kind` (`HardwareErrorKind.exitCode`, the one
    /// mapping); one conversion for every command.
    init(_ kind: HardwareErrorKind) {
        self = ExitCode(rawValue: kind.exitCode) ?? .software
    }
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

    /// A hardware failure, its message prefixed with `context` ("gpio.power: …") when given, and
    /// its kind's sysexits code.
    init(_ error: HardwareError, context: String? = nil) {
        self.init(context.map { "\($0): \(error.description)" } ?? error.description, code: ExitCode(error.kind))
    }

    /// A command-line mistake (exit 64).
    public static func usage(_ message: String) -> CommandError {
        CommandError(message, code: .usage)
    }
}
