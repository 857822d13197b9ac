extension HardwareError {
    /// spidev counts each transfer rounded up to the kernel's alignment (`SPIDevAlignment`, which
    /// the checks use); a suggested `bufsiz` is rounded to 128, arm64's alignment and a multiple of
    /// every other architecture's, so the suggestion holds on any board.
    public static let spidevAlignment = 128

    /// The bytes a frame of `byteCount` takes from spidev's buffer on the strictest kernel.
    public static func spidevAligned(_ byteCount: Int) -> Int {
        (Swift.max(byteCount, 0) + spidevAlignment - 1) / spidevAlignment * spidevAlignment
    }

    /// The `bufsiz` to suggest for a frame of `frameBytes`: at least 65 536, else the next power of
    /// two that holds the aligned frame (always a multiple of 128).
    public static func suggestedBufsiz(frameBytes: Int?) -> Int {
        var size = 65_536
        while size < spidevAligned(frameBytes ?? 0) { size *= 2 }
        return size
    }

    /// The fix for a frame larger than spidev's buffer, where the board sets kernel parameters:
    /// `cmdline.txt` on a Raspberry Pi, `extraargs=` in Armbian's armbianEnv.txt, the `cmdline=`
    /// line of a BeagleBone's uEnv.txt; or modprobe options where spidev is a module. `bufsiz` is
    /// read-only at run time (`module_param(bufsiz, uint, S_IRUGO)` in drivers/spi/spidev.c).
    public static func bufsizFix(frameBytes: Int? = nil, board: Board? = nil) -> String {
        let size = suggestedBufsiz(frameBytes: frameBytes)
        let bootLine: String
        switch board?.primaryConfigFile {
        case "/boot/armbianEnv.txt":
            bootLine = "add `extraargs=spidev.bufsiz=\(size)` to /boot/armbianEnv.txt (append to an existing extraargs= line, space separated) and reboot"
        case "/boot/uEnv.txt":
            bootLine = "append `spidev.bufsiz=\(size)` to the `cmdline=` line of /boot/uEnv.txt and reboot"
        default:
            bootLine = "add `spidev.bufsiz=\(size)` to /boot/firmware/cmdline.txt (same line, space separated) and reboot"
        }
        return bootLine + "; where spidev is a module, `options spidev bufsiz=\(size)` in /etc/modprobe.d/spidev.conf "
            + "works too (keep the value a multiple of 128)"
    }

    /// Maps an errno from a spidev device to an error with the device name and the fix.
    public static func spidev(_ errno: Errno, device: String, operation: String) -> HardwareError {
        switch errno {
        case .noSuchFileOrDirectory, .noSuchDevice:
            return HardwareError(
                kind: .notFound,
                message: "\(operation) \(device) failed: \(errno)",
                fix: "enable SPI: add `dtparam=spi=on` to /boot/firmware/config.txt (or the board's SPI overlay) and reboot",
                errno: errno)
        case .permissionDenied:
            return HardwareError(
                kind: .permissionDenied,
                message: "\(operation) \(device) failed: \(errno)",
                fix: "add the user to the `spi` group: `sudo usermod -aG spi $USER`, then log out and in again",
                errno: errno)
        case .notPermitted:
            return HardwareError(
                kind: .permissionDenied,
                message: "\(operation) \(device) failed: \(errno)",
                fix: devicePolicyFix(device, allow: "char-spi"),
                errno: errno)
        case .messageTooLong:
            return HardwareError(
                kind: .frameTooLarge,
                message: "\(operation) \(device) failed: \(errno) (frame larger than spidev's bufsiz)",
                fix: bufsizFix(),
                errno: errno)
        case .busy:
            return HardwareError(
                kind: .busy,
                message: "\(operation) \(device) failed: \(errno)",
                fix: "another program holds \(device); stop it (`sudo fuser -v \(device)` shows which)",
                errno: errno)
        default:
            return io(errno, path: device, operation: operation)
        }
    }

    /// The fix for a chain longer than the ws2812-pio overlay's `num_leds`.
    static func numLEDsFix(_ ledCount: Int) -> String {
        "set num_leds=\(ledCount) (or more) on the overlay line in /boot/firmware/config.txt, "
            + "e.g. `dtoverlay=ws2812-pio,gpio=18,num_leds=\(ledCount)`, and reboot"
    }

    /// Maps an errno from the Pi 5 PIO driver's `/dev/ledsN` (raspberrypi/linux
    /// `drivers/misc/ws2812-pio-rp1.c`); `frameLEDs` is the frame's length when writing.
    public static func ledsPIO(_ errno: Errno, device: String, operation: String, frameLEDs: Int? = nil) -> HardwareError {
        switch errno {
        case .fileTooLarge:
            // `count > pixbuf_size`: the first num_leds LEDs are still stored and shown.
            return HardwareError(
                kind: .frameTooLarge,
                message: "\(operation) \(device) failed: \(errno): the frame"
                    + (frameLEDs.map { " has \($0) LEDs, more than" } ?? " is longer than")
                    + " the overlay's num_leds, so only the first num_leds LEDs are shown",
                fix: numLEDsFix(frameLEDs ?? 0),
                errno: errno)
        case .noSpace:
            // `pos + count > pixbuf_size`: the write did not start at offset 0.
            return HardwareError(
                kind: .io,
                message: "\(operation) \(device) failed: \(errno): the frame was not written at offset 0 "
                    + "(the driver writes at the file position, which a previous write() moved to the end)",
                fix: "write each frame with pwrite(fd, frame, length, 0) or reopen \(device) per frame; "
                    + "stop any other program writing to \(device)",
                errno: errno)
        case .noSuchFileOrDirectory, .noSuchDevice:
            return HardwareError(
                kind: .notFound,
                message: "\(operation) \(device) failed: \(errno)",
                fix: "add `dtoverlay=ws2812-pio,gpio=<pin>,num_leds=<count>` to /boot/firmware/config.txt and reboot (Pi 5 only)",
                errno: errno)
        case .permissionDenied:
            return HardwareError(
                kind: .permissionDenied,
                message: "\(operation) \(device) failed: \(errno)",
                fix: ledsGroupFix(device),
                errno: errno)
        case .notPermitted:
            return HardwareError(
                kind: .permissionDenied,
                message: "\(operation) \(device) failed: \(errno)",
                fix: devicePolicyFix(device, allow: "char-ws2812-pio-rp1"),
                errno: errno)
        case .busy:
            return HardwareError(
                kind: .busy,
                message: "\(operation) \(device) failed: \(errno)",
                fix: "another program holds \(device); stop it (`sudo fuser -v \(device)` shows which)",
                errno: errno)
        default:
            return io(errno, path: device, operation: operation)
        }
    }

    /// The fix for a device node refused with `EPERM`: not its mode bits (those give `EACCES`,
    /// `generic_permission` in fs/namei.c) but a device policy, the cgroup device program that
    /// systemd's `DevicePolicy=`/`DeviceAllow=` and container runtimes install
    /// (`devcgroup_check_permission` in include/linux/device_cgroup.h returns `-EPERM`).
    /// `allow` is the unit's entry for it: `char-` and the driver's name in /proc/devices.
    public static func devicePolicyFix(_ device: String, allow: String) -> String {
        "a device policy refuses \(device) (EPERM, not a file permission): under systemd the unit needs "
            + "`DeviceAllow=\(allow) rw` (the driver's name in /proc/devices, as the package's ledring.service has; "
            + "`systemctl cat ledring` shows what yours says); in a container, pass the device in"
    }

    /// The fix for a `/dev/ledsN` this user may not open: Raspberry Pi OS has no udev rule for the
    /// class `ws2812-pio-rp1` (`99-com.rules` has none; `60-piolib.rules` matches `*-pio` only), so
    /// the node is root:root 0600.
    static func ledsGroupFix(_ device: String) -> String {
        "\(device) is root-only on Raspberry Pi OS: install the ledring package or run `sudo tools/setup-pi.sh`, "
            + "either of which installs 60-ledring-ws2812-pio.rules (`SUBSYSTEM==\"ws2812-pio-rp1\", GROUP=\"gpio\", MODE=\"0660\"`), "
            + "add the user to `gpio` (`sudo usermod -aG gpio $USER`), then reboot"
    }

    /// Maps an errno from the `--dump-wire` file.
    public static func dumpFile(_ errno: Errno, path: String, operation: String) -> HardwareError {
        switch errno {
        case .noSuchFileOrDirectory, .notDirectory:
            return HardwareError(
                kind: .notFound,
                message: "\(operation) dump file \(path) failed: \(errno)",
                fix: "create the directory first (`mkdir -p \"$(dirname \(path))\"`) or pass a path in an existing directory",
                errno: errno)
        case .permissionDenied, .notPermitted:
            return HardwareError(
                kind: .permissionDenied,
                message: "\(operation) dump file \(path) failed: \(errno)",
                fix: "choose a path you may write, e.g. /tmp/frames.wire",
                errno: errno)
        case .isDirectory:
            return HardwareError(
                kind: .invalidConfiguration,
                message: "\(operation) dump file \(path) failed: \(errno)",
                fix: "pass a file name, not a directory, to --dump-wire",
                errno: errno)
        case .noSpace:
            return HardwareError(
                kind: .io,
                message: "\(operation) dump file \(path) failed: \(errno)",
                fix: "free disk space or dump fewer frames",
                errno: errno)
        default:
            return io(errno, path: path, operation: operation)
        }
    }

    /// Any other errno: an I/O error carrying the kernel's text.
    public static func io(_ errno: Errno, path: String, operation: String) -> HardwareError {
        HardwareError(
            kind: .io,
            message: "\(operation) \(path) failed: \(errno) (errno \(errno.rawValue))",
            fix: "check the wiring and `dmesg | tail` for driver messages",
            errno: errno)
    }
}
