#if !GPIOD_V1 && !GPIOD_V2
/// The GPIO provider of a ledring built without libgpiod's headers: every request throws an
/// error naming the package to install, so `--simulate` and SPI still work on such a machine.
public final class MissingLibgpiodLines: GPIOLines {
    /// Creates the provider; the arguments match the real ones so callers need no `#if`.
    public init(deviceDirectory: String = "/dev", system: any SystemCalls = LinuxSystemCalls()) {}

    /// Throws `libgpiodMissing`.
    public func chips() throws(HardwareError) -> [GPIOChipInfo] {
        throw .libgpiodMissing(feature: "listing GPIO chips")
    }

    /// Throws `libgpiodMissing`.
    public func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines {
        throw .libgpiodMissing(feature: "GPIO output (lines \(selection.lines))")
    }

    /// Throws `libgpiodMissing`.
    public func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines {
        throw .libgpiodMissing(feature: "GPIO input (lines \(selection.lines))")
    }
}
#endif
