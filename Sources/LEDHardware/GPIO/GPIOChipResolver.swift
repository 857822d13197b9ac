/// Chooses the chip and offsets for a `GPIOLineSelection` from what the kernel reports; shared
/// by both libgpiod versions and the fake so lookup rules and errors are the same everywhere.
public enum GPIOChipResolver {
    /// The chip and offsets for `selection`.
    ///
    /// - Parameters:
    ///   - chips: every chip present (`GPIOLines.chips()`).
    ///   - offsetOfName: the offset of a named line on a chip, nil when the chip has none.
    public static func resolve(
        _ selection: GPIOLineSelection, chips: [GPIOChipInfo],
        offsetOfName: (GPIOChipInfo, String) -> UInt32?
    ) throws(HardwareError) -> (chip: GPIOChipInfo, offsets: [UInt32]) {
        guard !selection.lines.isEmpty else {
            throw HardwareError(
                kind: .invalidConfiguration, message: "a GPIO request named no lines",
                fix: "name at least one line (an offset such as 17 or a name such as GPIO17)")
        }
        guard selection.lines.count <= 64 else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "a GPIO request named \(selection.lines.count) lines; at most 64 go in one request",
                fix: "request fewer lines")
        }
        let chip = try choose(selection, chips: chips, offsetOfName: offsetOfName)
        let label = chip.label ?? chip.path
        var offsets: [UInt32] = []
        for line in selection.lines {
            let offset: UInt32
            switch line {
            case .offset(let value):
                guard Int(value) < chip.lineCount else {
                    throw HardwareError(
                        kind: .invalidConfiguration,
                        message: "GPIO line \(value) does not exist on \(label), which has lines 0…\(chip.lineCount - 1)",
                        fix: "use an offset below \(chip.lineCount) (on a Pi the BCM GPIO number, not the header pin)")
                }
                offset = value
            case .name(let name):
                guard let value = offsetOfName(chip, name) else {
                    throw HardwareError(
                        kind: .invalidConfiguration,
                        message: "no GPIO line named \"\(name)\" on \(label)",
                        fix: "use a name or offset that `gpioinfo \(label)` lists")
                }
                offset = value
            }
            guard !offsets.contains(offset) else {
                throw HardwareError(
                    kind: .invalidConfiguration,
                    message: "GPIO line \(offset) on \(label) is named twice in one request (\(selection.lines))",
                    fix: "give each use (data, clock, power, button, encoder) its own line")
            }
            offsets.append(offset)
        }
        return (chip, offsets)
    }

    /// The first chip whose label is wanted, or the chip that has the first named line.
    private static func choose(
        _ selection: GPIOLineSelection, chips: [GPIOChipInfo], offsetOfName: (GPIOChipInfo, String) -> UInt32?
    ) throws(HardwareError) -> GPIOChipInfo {
        let opened = chips.filter { $0.label != nil }
        guard !chips.isEmpty else {
            throw HardwareError(
                kind: .notFound, message: "no GPIO chips found in /dev",
                fix: "the kernel has no GPIO character device (CONFIG_GPIO_CDEV) or no GPIO driver loaded; "
                    + "check `ls /dev/gpiochip*` and `dmesg | grep -i gpio`")
        }
        if !selection.chipLabels.isEmpty {
            for wanted in selection.chipLabels {
                if let chip = opened.first(where: { $0.label == wanted }) { return chip }
            }
            throw unreachableChip(selection.chipLabels.map { "\"\($0)\"" }.joined(separator: " or "), chips: chips)
        }
        guard case .name(let first) = selection.lines.first else {
            throw HardwareError(
                kind: .invalidConfiguration,
                message: "GPIO line \(selection.lines.first.map { "\($0)" } ?? "") is given by offset but no chip label was given",
                fix: "name the chip by label (the board file's gpioChipLabels or --gpio-chip), or give the line by name")
        }
        if let chip = opened.first(where: { offsetOfName($0, first) != nil }) { return chip }
        throw unreachableChip("with a line named \"\(first)\"", chips: chips)
    }

    /// Chip missing: a permission problem when some chips could not be opened, else a wrong label.
    private static func unreachableChip(_ wanted: String, chips: [GPIOChipInfo]) -> HardwareError {
        let list = chips.map { $0.description }.joined(separator: ", ")
        if let denied = chips.first(where: { $0.openError == .permissionDenied || $0.openError == .notPermitted }) {
            return HardwareError(
                kind: .permissionDenied,
                message: "no GPIO chip \(wanted) among those this user may open (\(list))",
                fix: HardwareError.gpioGroupFix,
                errno: denied.openError)
        }
        return HardwareError(
            kind: .notFound,
            message: "no GPIO chip \(wanted); present: \(list)",
            fix: "name one of the labels present (`gpiodetect` lists them): the board file's gpioChipLabels "
                + "or --gpio-chip; a missing chip usually means the wrong board or a missing overlay")
    }
}
