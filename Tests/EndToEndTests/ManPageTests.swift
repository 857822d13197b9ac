import Foundation
@testable import LEDRingApp
import Testing

/// `ledring help --man`: ledring(1) from the option table, which groff renders without a warning
/// and which names every verb, every option and every exit status the program has.
@Suite struct ManPageTests {
    static let groffPath = "/usr/bin/groff"

    func page(_ environment: [String: String] = [:]) throws -> String {
        let result = try LedringProcess.run(["help", "--man"], environment: environment)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout
    }

    /// Runs groff on `roff` (through a file: ChildProcess writes no standard input).
    func groff(_ roff: String, _ arguments: [String]) throws -> LedringProcess.Result {
        let path = NSTemporaryDirectory() + "ledring-\(getpid())-\(UUID().uuidString).1"
        try roff.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try LedringProcess.run(arguments + [path], executable: URL(fileURLWithPath: Self.groffPath))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: groffPath) || inCI, "needs groff (apt install groff-base)"))
    func groffRendersItWithoutAWarningAndItNamesEverything() throws {
        let roff = try page()
        #expect(roff.hasPrefix(".TH LEDRING 1 \"\" \"ledring \(LEDRingApp.version)\" \"User Commands\"\n"))
        // -ww: every warning groff has; -z: no output, only the check.
        let checked = try groff(roff, ["-man", "-Tutf8", "-ww", "-z"])
        #expect(checked.status == 0 && checked.stderr.isEmpty, "\(checked.stderr)")
        let rendered = try groff(roff, ["-man", "-Tutf8", "-P", "-cbou"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let text = rendered.stdout
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "no \(section) section")
        }
        // One subsection per verb, with each of its options; the one-shot's under OPTIONS.
        for verb in CommandLineTable.verbs {
            #expect(text.contains("\n   \(verb.name)\n       ledring \(verb.name)"), "no subsection for \(verb.name)")
        }
        for option in CommandLineTable.options(of: nil) + CommandLineTable.verbs.flatMap({ $0.options }) {
            #expect(text.contains("\n       \(option.shown)"), "\(option.shown) is not listed")
        }
        for code in ExitCode.allCases {
            #expect(text.contains("\n       \(code.rawValue) "), "exit status \(code.rawValue) is not said")
        }
        for variable in ["NO_COLOR", "TERM", "LEDRING_SOCKET", "XDG_RUNTIME_DIR"] {
            #expect(text.contains("\n       \(variable)"), "\(variable) is not said")
        }
        for file in ["/etc/ledring/config.json", "/var/lib/ledring/state.json", "/run/ledring/ledring.sock"] {
            #expect(text.contains(file))
        }
    }

    /// Dated as reproducible builds ask: SOURCE_DATE_EPOCH, in UTC.
    @Test func sourceDateEpochDatesThePage() throws {
        #expect(try page(["SOURCE_DATE_EPOCH": "1700000000"]).hasPrefix(".TH LEDRING 1 \"2023-11-14\" "))
        #expect(ManPage.date(sourceDateEpoch: "0") == "1970-01-01")
        #expect(ManPage.date(sourceDateEpoch: "951782400") == "2000-02-29")
        #expect(ManPage.date(sourceDateEpoch: "soon") == nil)
    }

    /// Backslashes, hyphens, a leading dot and anything outside ASCII are written so roff prints
    /// them as they are.
    @Test func textIsEscapedForRoff() {
        #expect(ManPage.escaped("--set a\\b") == "\\-\\-set a\\eb")
        #expect(ManPage.escaped(".hidden") == "\\&.hidden")
        #expect(ManPage.escaped("0…1 µs") == "0\\[u2026]1 \\[u00B5]s")
    }
}
