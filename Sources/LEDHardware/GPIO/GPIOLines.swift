/// Requests GPIO lines: the seam between ledring's GPIO features and libgpiod, so the clocked
/// LED transport, the power switch and the inputs are tested against `FakeGPIO`.
///
/// Like transports, line providers and their requests belong to one task, so they are not
/// `Sendable`. Every request is released by `release()`, by `deinit`, and (being kernel file
/// descriptors) by the process exiting, so no exit path leaves a line claimed.
public protocol GPIOLines: AnyObject {
    /// The GPIO chips present, with their labels (for chip lookup, errors and the doctor).
    func chips() throws(HardwareError) -> [GPIOChipInfo]

    /// Requests `selection` as outputs; bit i of `initialValues` is line i's first level, set
    /// by the kernel as the line becomes an output, so it never glitches through another level.
    func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines

    /// Requests `selection` as inputs reporting both edges, with `bias` on every line.
    func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines
}

extension GPIOLines {
    /// The largest request: one `UInt64` mask carries every value, and libgpiod 1.6's bulk
    /// holds at most 64 lines.
    public static var maximumLinesPerRequest: Int { 64 }
}
