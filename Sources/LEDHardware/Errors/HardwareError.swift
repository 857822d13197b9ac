/// A hardware failure that says what failed, with which value, and how to fix it.
public struct HardwareError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The shared classification callers switch on.
    public var kind: HardwareErrorKind
    /// What failed, naming the device or file and the values involved.
    public var message: String
    /// What the user should do; empty when there is nothing better than "try again".
    public var fix: String
    /// The kernel's errno, when the failure came from a syscall.
    public var errno: Errno?

    /// Creates an error; prefer the factory functions that know the fixes.
    public init(kind: HardwareErrorKind, message: String, fix: String = "", errno: Errno? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
        self.errno = errno
    }

    /// The sysexits code for this error (from its kind).
    public var exitCode: Int32 { kind.exitCode }

    /// "message; fix", the one line a CLI prints.
    public var description: String { fix.isEmpty ? message : "\(message); \(fix)" }
}
