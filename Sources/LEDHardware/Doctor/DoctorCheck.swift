/// One line of `ledring doctor`: what was checked, whether it passed, and the fix if not.
public struct DoctorCheck: Hashable, Sendable {
    /// Short name, e.g. "SPI device".
    public var name: String
    /// Whether the check passed.
    public var passed: Bool
    /// What was found, with the values involved.
    public var detail: String
    /// What to do when it failed; empty when it passed.
    public var fix: String

    /// Creates a check result.
    public init(name: String, passed: Bool, detail: String, fix: String = "") {
        self.name = name
        self.passed = passed
        self.detail = detail
        self.fix = fix
    }

    /// "✓ name: detail" or "✗ name: detail — fix: …".
    public var line: String {
        passed ? "✓ \(name): \(detail)" : "✗ \(name): \(detail)\(fix.isEmpty ? "" : " — fix: \(fix)")"
    }
}
