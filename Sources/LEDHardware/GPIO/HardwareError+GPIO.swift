extension HardwareError {
    /// The fix for a GPIO chip the user may not open; shared by lookup, requests and the doctor.
    public static let gpioGroupFix =
        "add the user to the `gpio` group: `sudo usermod -aG gpio $USER`, then log out and in again "
        + "(the group owns /dev/gpiochip* on Raspberry Pi OS; elsewhere add a udev rule giving it to `gpio`)"

    /// Maps an errno from a libgpiod call on `chip` (and `line`, when one is involved).
    ///
    /// - Parameter consumer: who holds the line, when the kernel said (for `EBUSY`).
    public static func gpio(
        _ errno: Errno, chip: String, line: String? = nil, consumer: String? = nil, operation: String
    ) -> HardwareError {
        let subject = line.map { "\($0) on \(chip)" } ?? chip
        switch errno {
        case .permissionDenied:
            return HardwareError(
                kind: .permissionDenied, message: "\(operation) \(subject) failed: \(errno)",
                fix: gpioGroupFix, errno: errno)
        case .notPermitted:
            return HardwareError(
                kind: .permissionDenied, message: "\(operation) \(subject) failed: \(errno)",
                fix: devicePolicyFix(chip, allow: "char-gpiochip"), errno: errno)
        case .busy:
            let holder = consumer.map { $0.isEmpty ? "" : " (held by \"\($0)\")" } ?? ""
            return HardwareError(
                kind: .busy, message: "\(operation) \(subject) failed: the line is in use\(holder)",
                fix: "stop the program holding it (`gpioinfo \(chip)` shows the consumer) or, when a kernel "
                    + "driver holds it, remove the overlay that claims the pin (e.g. `dtparam=spi=off` frees "
                    + "GPIO 7–11), or choose another line",
                errno: errno)
        case .noSuchFileOrDirectory, .noSuchDevice:
            return HardwareError(
                kind: .notFound, message: "\(operation) \(subject) failed: \(errno)",
                fix: "the chip disappeared or its driver is not loaded; check `gpiodetect` and `dmesg | grep -i gpio`",
                errno: errno)
        case .invalidArgument:
            return HardwareError(
                kind: .invalidConfiguration, message: "\(operation) \(subject) failed: \(errno)",
                fix: "the chip refused the settings (some chips lack pull resistors or edge detection); "
                    + "try --gpio-bias as-is or another line",
                errno: errno)
        default:
            return HardwareError(
                kind: .io, message: "\(operation) \(subject) failed: \(errno) (errno \(errno.rawValue))",
                fix: "check `dmesg | tail` for GPIO driver messages", errno: errno)
        }
    }

    /// The error of a ledring built without libgpiod's headers, naming the package to install.
    public static func libgpiodMissing(feature: String) -> HardwareError {
        HardwareError(
            kind: .notFound,
            message: "\(feature) needs libgpiod, and this ledring was built without it",
            // SwiftPM caches what Package.swift found, so a plain rebuild would not see the new header.
            fix: "install it (`sudo apt install libgpiod-dev`), then `swift package purge-cache` and rebuild "
                + "ledring (`swift build -c release`)")
    }
}
