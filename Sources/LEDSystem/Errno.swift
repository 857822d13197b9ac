import Glibc

/// A typed C `errno` value, so callers switch on named cases instead of raw integers.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` number.
    public let rawValue: Int32

    /// Wraps a raw `errno` number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The `errno` the last failed C call left behind.
    public static var current: Errno { Errno(rawValue: errno) }

    /// No such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// Permission denied by file mode.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// Operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// Message too long (spidev: transfer larger than bufsiz).
    public static let messageTooLong = Errno(rawValue: EMSGSIZE)
    /// Device or resource busy.
    public static let busy = Errno(rawValue: EBUSY)
    /// Interrupted by a signal before anything happened; safe to retry.
    public static let interrupted = Errno(rawValue: EINTR)
    /// Input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// Invalid argument.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// No space left on device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// File too large (`/dev/ledsN`: a frame longer than the overlay's num_leds).
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// Not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// Is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// No such device (driver gone, e.g. overlay unloaded).
    public static let noSuchDevice = Errno(rawValue: ENODEV)

    /// The C library's text for this error, e.g. "No such file or directory".
    public var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }
}
