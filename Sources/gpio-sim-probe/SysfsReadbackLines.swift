import Glibc
import LEDHardware

/// Wraps the real line provider so every bulk update of an output request is followed by
/// reading the lines back from gpio-sim's `sim_gpioN/value` files: what the simulated chip
/// really drove, independent of what ledring thinks it set.
final class SysfsReadbackLines: GPIOLines {
    let inner: any GPIOLines
    let simDirectory: String
    /// The levels read back after each update, per line offset, in order.
    private(set) var readback: [[UInt32: Bool]] = []
    private(set) var failures: [String] = []

    init(_ inner: any GPIOLines, simDirectory: String) {
        self.inner = inner
        self.simDirectory = simDirectory
    }

    func chips() throws(HardwareError) -> [GPIOChipInfo] { try inner.chips() }

    func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines {
        Outputs(try inner.requestOutputs(selection, initialValues: initialValues, consumer: consumer), owner: self)
    }

    func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines {
        try inner.requestInputs(selection, bias: bias, consumer: consumer)
    }

    /// Reads `sim_gpio<offset>/value` ("0" or "1").
    func simValue(_ offset: UInt32) -> Bool? {
        let path = "\(simDirectory)/sim_gpio\(offset)/value"
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var byte: UInt8 = 0
        guard read(fd, &byte, 1) == 1 else { return nil }
        return byte == UInt8(ascii: "1")
    }

    fileprivate func record(_ lines: [GPIOResolvedLine], expected: UInt64) {
        var levels: [UInt32: Bool] = [:]
        for (index, line) in lines.enumerated() {
            let level = simValue(line.offset)
            levels[line.offset] = level ?? false
            if level != GPIOValueMask.level(expected, index) {
                failures.append("sim_gpio\(line.offset) reads \(level.map { "\($0)" } ?? "nothing") after setting \(GPIOValueMask.level(expected, index))")
            }
        }
        readback.append(levels)
    }

    /// Bits sampled on `data` at each rising edge of `clock`, from the read-back levels.
    func clockedBytes(data: UInt32, clock: UInt32) -> [UInt8] {
        var bits: [Bool] = []
        var previousClock = false
        for levels in readback {
            let clockLevel = levels[clock] ?? false
            if clockLevel && !previousClock { bits.append(levels[data] ?? false) }
            previousClock = clockLevel
        }
        return stride(from: 0, to: bits.count - bits.count % 8, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }

    private final class Outputs: GPIOOutputLines {
        let inner: any GPIOOutputLines
        unowned let owner: SysfsReadbackLines
        var lines: [GPIOResolvedLine] { inner.lines }

        init(_ inner: any GPIOOutputLines, owner: SysfsReadbackLines) {
            self.inner = inner
            self.owner = owner
        }

        func setValues(_ values: UInt64) throws(HardwareError) {
            try inner.setValues(values)
            owner.record(inner.lines, expected: values)
        }

        func release() { inner.release() }
    }
}
