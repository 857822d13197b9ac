/// The small shared classification of hardware errors (as embedded-hal's `ErrorKind`), so
/// generic code can react — retry, tell the user to fix a setting, give up — without parsing text.
public enum HardwareErrorKind: String, Hashable, Sendable, CaseIterable {
    /// The device node or file does not exist (interface not enabled, overlay missing).
    case notFound
    /// The user may not open the device (missing group membership).
    case permissionDenied
    /// Another program holds the device.
    case busy
    /// The frame does not fit what the driver can send in one transfer.
    case frameTooLarge
    /// The kernel took only part of a frame.
    case shortWrite
    /// A board file, config value or argument is wrong.
    case invalidConfiguration
    /// Any other I/O failure reported by the kernel.
    case io
    /// The transport was used after `close()`.
    case closed

    /// The sysexits code a command-line tool should exit with for this kind.
    public var exitCode: Int32 {
        switch self {
        case .notFound, .busy, .closed: return 69  // EX_UNAVAILABLE
        case .permissionDenied: return 77  // EX_NOPERM
        case .frameTooLarge, .invalidConfiguration: return 78  // EX_CONFIG
        case .shortWrite, .io: return 74  // EX_IOERR
        }
    }
}
