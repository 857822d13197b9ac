/// The result of `Doctor.run`: every check, and the exit status a CLI should use.
public struct DoctorReport: Hashable, Sendable {
    /// The board that was detected, if any.
    public var board: Board?
    /// The checks in the order they ran.
    public var checks: [DoctorCheck]

    /// Creates a report.
    public init(board: Board?, checks: [DoctorCheck]) {
        self.board = board
        self.checks = checks
    }

    /// True when every check passed.
    public var allPassed: Bool { checks.allSatisfy { $0.passed } }

    /// 0 when all checks pass, 69 (EX_UNAVAILABLE) otherwise.
    public var exitCode: Int32 { allPassed ? 0 : 69 }

    /// The checks as text, one line each, ending with a newline.
    public func formatted() -> String {
        checks.map { $0.line + "\n" }.joined()
    }
}
