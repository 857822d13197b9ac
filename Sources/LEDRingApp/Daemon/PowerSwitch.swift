/// Switches the LEDs' supply. The daemon turns it on at start and off after the blank frame at
/// shutdown; a GPIO line will implement it (`gpio.power` in the config).
protocol PowerSwitch: AnyObject {
    /// Turns the supply on or off.
    func setPower(_ on: Bool)
}

/// The switch used until GPIO lines are wired: remembers the last call, and says once that a
/// configured power line is not driven yet.
final class LoggingPowerSwitch: PowerSwitch {
    /// The line from the config, if any.
    let line: Int?
    /// The last state asked for.
    private(set) var isOn: Bool?
    private var warned = false

    /// A switch for config line `line`.
    init(line: Int?) {
        self.line = line
    }

    func setPower(_ on: Bool) {
        isOn = on
        if let line, !warned {
            warned = true
            Log.info("gpio.power line \(line) is configured but GPIO output is not built into this ledring yet; the supply is not switched")
        }
    }
}
