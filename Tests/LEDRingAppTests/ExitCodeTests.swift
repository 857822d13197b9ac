import LEDHardware
import Testing
@testable import LEDRingApp

/// Every hardware failure leaves with its own sysexits code, the same from every command.
@Suite struct ExitCodeTests {
    @Test(arguments: HardwareErrorKind.allCases)
    func everyHardwareFailureHasASysexitsCode(_ kind: HardwareErrorKind) {
        let code = ExitCode(kind)
        #expect(code != .software && code != .ok, "\(kind) has no sysexits code of its own")
        #expect(code.rawValue == kind.exitCode)
        let error = CommandError(HardwareError(kind: kind, message: "m", fix: "f"), context: "gpio.power")
        #expect(error.code == code && error.message.hasPrefix("gpio.power: "))
    }
}
