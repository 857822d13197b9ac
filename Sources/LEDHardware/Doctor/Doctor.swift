import Glibc
import LEDWire
import RingModel

/// `ledring doctor`: checks the machine for everything the LED outputs need, as a pure
/// function of a root directory (`--root DIR`), so every failure is testable on a fake root.
public enum Doctor {
    /// Runs all checks under `root`.
    ///
    /// - Parameters:
    ///   - frameSize: bytes of the largest frame that must go out in one SPI transfer, if known.
    ///   - spiDevice: the spidev node to check; defaults to the board's first, else `/dev/spidev0.0`.
    ///   - catalog: the boards to detect from; defaults to the built-in boards.
    public static func run(
        root: String = "/", frameSize: Int? = nil, spiDevice: String? = nil, catalog: BoardCatalog? = nil,
        system: any SystemCalls = LinuxSystemCalls()
    ) -> DoctorReport {
        let system = RetryingSystemCalls(system)
        var checks: [DoctorCheck] = []

        let boards: BoardCatalog
        if let catalog {
            boards = catalog
        } else {
            do {
                boards = try BoardCatalog.builtIn()
            } catch {
                boards = BoardCatalog(boards: [])
                checks.append(DoctorCheck(name: "board files", passed: false, detail: error.message, fix: error.fix))
            }
        }
        let detection = BoardDetector(catalog: boards, root: root, system: system).detect()
        let board = detection?.board
        checks.append(boardCheck(detection, root: root, system: system))

        let device = spiDevice ?? board?.spi.first?.device ?? "/dev/spidev0.0"
        let port = board?.spi.first { $0.device == device }
        let devicePresent = deviceCheck(
            name: "SPI device", device: device, root: root, system: system,
            missingFix: port?.enable ?? "add `dtparam=spi=on` to /boot/firmware/config.txt and reboot",
            into: &checks)
        if devicePresent {
            checks.append(permissionCheck(
                name: "SPI permission", device: device, defaultGroup: "spi", root: root, system: system))
        }
        checks.append(bufsizCheck(frameSize: frameSize, board: board, root: root, system: system))
        if let board, let core = board.coreClock {
            checks.append(coreClockCheck(board: board, core: core, root: root, system: system))
        }
        if let board, let pio = board.pio {
            let present = deviceCheck(
                name: "PIO LED device", device: pio.device, root: root, system: system,
                missingFix: "add `\(pio.overlay)` to \(board.primaryConfigFile) and reboot", into: &checks)
            if present {
                checks.append(ledsPermissionCheck(device: pio.device, root: root, system: system))
                checks.append(ledsOverlayCheck(device: pio.device, board: board, root: root, system: system))
            }
        }
        if let board {
            checks.append(gpioCheck(board: board, root: root, system: system))
        }
        return DoctorReport(board: board, checks: checks)
    }

    // MARK: - Checks

    static func boardCheck(_ detection: BoardDetector.Detection?, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        func model() -> String? { BoardDetector(catalog: BoardCatalog(boards: []), root: root, system: system).identity().model }
        if let detection, detection.board.isGeneric {
            // Passed with a note: the SPI checks can run, but the doctor says what it could not know.
            let board = detection.board
            let unknown = board.unverified.isEmpty ? "" : "; not known: " + board.unverified.joined(separator: "; ")
            return DoctorCheck(
                name: "board", passed: true,
                detail: "unknown board \"\(model() ?? "without a model")\" (\(detection.evidence)); using the generic facts for "
                    + "\(board.displayName): SPI clock rule \(board.spiClock.rule.rawValue) — \(board.spiClock.note)\(unknown)")
        }
        if let detection {
            return DoctorCheck(
                name: "board", passed: true, detail: "\(detection.board.displayName) (\(detection.evidence))")
        }
        return DoctorCheck(
            name: "board", passed: false,
            detail: model().map { "no board file matches model \"\($0)\"" } ?? "no device tree found (not a single-board computer?)",
            fix: "add a board file to boards/ as boards/README.md describes, or run on the board itself")
    }

    /// Appends a presence check for a device node and returns whether it is present.
    static func deviceCheck(
        name: String, device: String, root: String, system: RetryingSystemCalls, missingFix: String,
        into checks: inout [DoctorCheck]
    ) -> Bool {
        do {
            let status = try system.stat(RootPath.join(root, device))
            guard status.isCharacterDevice else {
                checks.append(DoctorCheck(
                    name: name, passed: false, detail: "\(device) exists but is not a character device",
                    fix: "remove the stray file \(device) and reboot"))
                return false
            }
            checks.append(DoctorCheck(name: name, passed: true, detail: "\(device) is present"))
            return true
        } catch {
            let detail = error == .noSuchFileOrDirectory ? "\(device) is missing" : "cannot inspect \(device): \(error)"
            checks.append(DoctorCheck(name: name, passed: false, detail: detail, fix: missingFix))
            return false
        }
    }

    static func permissionCheck(
        name: String, device: String, defaultGroup: String, root: String, system: RetryingSystemCalls
    ) -> DoctorCheck {
        let path = RootPath.join(root, device)
        do {
            try system.access(path, R_OK | W_OK)
            return DoctorCheck(name: name, passed: true, detail: "this user may open \(device)")
        } catch {
            let group = (try? system.stat(path)).flatMap { groupName(id: $0.groupID, root: root, system: system) }
            let missing = group.flatMap { $0 == "root" ? nil : $0 } ?? defaultGroup
            return DoctorCheck(
                name: name, passed: false,
                detail: "cannot open \(device): \(error)" + (group.map { " (owned by group \($0), which this user is not in)" } ?? ""),
                fix: "add the user to the `\(missing)` group: `sudo usermod -aG \(missing) $USER`, then log out and in again")
        }
    }

    /// `/dev/ledsN` access: Raspberry Pi OS ships no udev rule for the class `ws2812-pio-rp1`, so
    /// the node is root:root 0600 until `tools/setup-pi.sh` installs one giving it to `gpio`.
    static func ledsPermissionCheck(device: String, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let check = permissionCheck(name: "PIO LED permission", device: device, defaultGroup: "gpio", root: root, system: system)
        guard !check.passed else { return check }
        let path = RootPath.join(root, device)
        let group = (try? system.stat(path)).flatMap { groupName(id: $0.groupID, root: root, system: system) }
        guard group == nil || group == "root" else { return check }
        return DoctorCheck(name: check.name, passed: false, detail: check.detail, fix: HardwareError.ledsGroupFix(device))
    }

    /// The ws2812-pio overlay's brightness: the kernel gamma-corrects at 1…255, which ledring
    /// compensates; 0 passes values through only on kernels after 6.12.55 and blanks the strip on
    /// older ones (rpi/linux PR #7110, `ws2812_apply_gamma`); below 255 it caps every channel.
    static func ledsOverlayCheck(device: String, board: Board, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let name = "PIO LED overlay"
        guard let overlay = LedsPIOOverlay.find(device: device, root: root, system: system) else {
            return DoctorCheck(
                name: name, passed: false,
                detail: "no single ws2812_pio@* node in /proc/device-tree makes \(device)",
                fix: "keep one `dtoverlay=ws2812-pio,gpio=<pin>,num_leds=<count>` line per strip in \(board.primaryConfigFile), "
                    + "give extra ones their own dev_name=, and reboot")
        }
        let summary = "\(overlay.numLEDs) LEDs\(overlay.rgbw ? " RGBW" : ""), brightness \(overlay.brightness) (\(overlay.node))"
        switch overlay.brightness {
        case 255:
            return DoctorCheck(name: name, passed: true, detail: summary + "; ledring sends levels through the inverse of the kernel's gamma")
        case 0:
            let release = (try? system.readFile(RootPath.join(root, "/proc/sys/kernel/osrelease")))
                .map { String(decoding: $0, as: UTF8.self).trimmingSuffixWhitespace() }
            if let release, let version = kernelVersion(release), version <= (6, 12, 55) {
                return DoctorCheck(
                    name: name, passed: false,
                    detail: summary + "; kernel \(release) gamma-corrects at brightness 0 too, which blanks the strip "
                        + "(the pass-through came after 6.12.55)",
                    fix: "remove `brightness=0` from the ws2812-pio line in \(board.primaryConfigFile) and reboot "
                        + "(ledring compensates the kernel's gamma at 255), or update the kernel (`sudo apt full-upgrade`)")
            }
            return DoctorCheck(name: name, passed: true, detail: summary + "; brightness 0 passes values through on kernel \(release ?? "unknown")")
        default:
            let ceiling = Ws2812PioGamma.table[Int(overlay.brightness)]
            return DoctorCheck(
                name: name, passed: false,
                detail: summary + "; the kernel scales every channel by \(overlay.brightness)/255 before its gamma, "
                    + "so no LED gets above level \(ceiling) and the light cannot match the SPI output",
                fix: "remove `brightness=\(overlay.brightness)` from the ws2812-pio line in \(board.primaryConfigFile) and reboot; "
                    + "dim with ledring's --brightness instead, which keeps every level")
        }
    }

    /// "6.12.47+rpt-rpi-2712" → (6, 12, 47).
    static func kernelVersion(_ release: String) -> (Int, Int, Int)? {
        let numbers = release.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return nil }
        return (numbers[0], numbers[1], numbers.count > 2 ? numbers[2] : 0)
    }

    static func bufsizCheck(
        frameSize: Int?, board: Board?, root: String, system: RetryingSystemCalls,
        alignment: Int = SPIDevAlignment.running
    ) -> DoctorCheck {
        let path = "/" + SPIDevTransport.bufsizPath
        let bufsiz: Int
        do {
            let bytes = try system.readFile(RootPath.join(root, path))
            guard let value = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }) else {
                return DoctorCheck(
                    name: "spidev bufsiz", passed: false, detail: "\(path) does not hold a number",
                    fix: "check the kernel's spidev module")
            }
            bufsiz = value
        } catch {
            return DoctorCheck(
                name: "spidev bufsiz", passed: false, detail: "cannot read \(path): \(error) (spidev not loaded)",
                fix: "enable SPI so the spidev module loads (`dtparam=spi=on` on a Raspberry Pi), then reboot")
        }
        guard let frameSize else {
            let largest = SPIDevAlignment.largestTransfer(bufsiz: bufsiz, alignment: alignment)
            return DoctorCheck(name: "spidev bufsiz", passed: true, detail: "spidev sends up to \(largest) bytes per transfer")
        }
        // spidev counts a transfer as ALIGN(len, …) bytes (SPIDevAlignment), so compare with
        // bufsiz rounded down, as SPIDevTransport does.
        let largest = SPIDevAlignment.largestTransfer(bufsiz: bufsiz, alignment: alignment)
        if frameSize <= largest {
            return DoctorCheck(
                name: "spidev bufsiz", passed: true, detail: "a \(frameSize)-byte frame fits spidev's \(bufsiz)-byte buffer")
        }
        return DoctorCheck(
            name: "spidev bufsiz", passed: false,
            detail: "spidev buffer is \(bufsiz) bytes but this frame needs \(frameSize)"
                + (largest == bufsiz ? "" : " (spidev counts transfers in \(alignment)-byte steps, so at most \(largest) go through)"),
            fix: HardwareError.bufsizFix(frameBytes: frameSize, board: board))
    }

    static func coreClockCheck(board: Board, core: Board.CoreClock, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let fixText = "add `\(core.key)=\(core.recommendedMHz)` and `\(core.minKey)=\(core.recommendedMHz)` to "
            + "\(board.primaryConfigFile) and reboot, so the SPI clock cannot move"
        guard let config = bootConfig(board: board, root: root, system: system) else {
            return DoctorCheck(
                name: "core clock", passed: false,
                detail: "no boot config found (\(board.configFiles.joined(separator: ", ")))", fix: fixText)
        }
        let model = board.configModel
        let turbo = config.setting("force_turbo", on: model)
        let uart = config.setting("enable_uart", on: model)
        let fourKLine = config.setting("hdmi_enable_4kp60", on: model)
        let maximum = config.setting(core.key, on: model)
        let minimum = config.setting(core.minKey, on: model)
        func movesBluetooth(_ value: String) -> Bool { value.containsText("miniuart-bt") || value.containsText("disable-bt") }
        let overlays = config.all("dtoverlay", on: model).filter { movesBluetooth($0.line.value) }
        let btMoved = overlays.contains { $0.applies == .yes }
        // Lines the firmware may or may not apply (a filter the doctor cannot evaluate) and that
        // would change the answer: the check never passes on them, and names them.
        var doubts = [turbo, uart, fourKLine, maximum, minimum].flatMap { $0.maybe }.map { $0.text }
        if uart.value == "1" || uart.maybe.contains(where: { $0.line.value == "1" }) {
            for (line, applies) in overlays {
                if case .maybe(let why) = applies { doubts.append("\(line.located), which may or may not apply: \(why)") }
            }
        }
        let ignored = [turbo, uart, fourKLine, maximum, minimum].flatMap { $0.ignored }.map { $0.text }
        var verdict = coreClockVerdict(
            board: board, core: core, file: config.path, turbo: turbo, uart: uart, btMoved: btMoved, fourKLine: fourKLine,
            maximum: maximum, minimum: minimum, fixText: fixText)
        if !ignored.isEmpty { verdict.detail += "; ignored: " + ignored.joined(separator: "; ") }
        if !config.notes.isEmpty { verdict.detail += "; " + config.notes.joined(separator: "; ") }
        guard !doubts.isEmpty else { return verdict }
        verdict.detail += (verdict.passed ? "; but " : "; also ") + doubts.joined(separator: "; ")
            + ", so the firmware may set the core clock otherwise"
        if verdict.passed {
            verdict.passed = false
            verdict.fix = "put the core clock lines under [all] in \(board.primaryConfigFile) (or under a filter that matches "
                + "this board) and remove the uncertain ones, then reboot; to fix it at \(core.recommendedMHz) MHz: " + fixText
        }
        return verdict
    }

    /// The core clock check on the lines that certainly apply.
    static func coreClockVerdict(
        board: Board, core: Board.CoreClock, file: String, turbo: BootConfig.Setting, uart: BootConfig.Setting,
        btMoved: Bool, fourKLine: BootConfig.Setting, maximum: BootConfig.Setting, minimum: BootConfig.Setting, fixText: String
    ) -> DoctorCheck {
        if let line = turbo.definite, line.value == "1" {
            return DoctorCheck(name: "core clock", passed: true, detail: "\(line.located) keeps the core clock fixed")
        }
        // Pi 3 / Zero 2 W: the mini UART's baud rate follows the core clock, so enable_uart=1 fixes
        // it — unless Bluetooth is moved off the PL011 and the PL011 becomes the console UART
        // (raspberrypi/documentation configuration/uart.adoc; rpi/linux #2060, #2094, #4929).
        if let pinned = core.enableUARTFixesAtMHz, let line = uart.definite, line.value == "1", !btMoved {
            return DoctorCheck(
                name: "core clock", passed: true,
                detail: "\(line.located) fixes the core clock at \(pinned) MHz (the mini UART needs it)")
        }
        // Pi 4 family: hdmi_enable_4kp60=1 raises the maximum (overclocking.adoc).
        let fourK = fourKLine.value == "1" ? core.hdmi4kp60MaxMHz : nil
        let high = maximum.value.flatMap { Int($0) } ?? fourK ?? core.defaultMHz
        let low = min(minimum.value.flatMap { Int($0) } ?? core.defaultMinMHz, high)
        let found = [maximum.definite, minimum.definite].compactMap { $0?.located }
        let evidence = found.isEmpty ? file : found.joined(separator: ", ")
        if low == high {
            let note = fourK.map { _ in "; hdmi_enable_4kp60=1 is set, so keep both lines if you change one" } ?? ""
            return DoctorCheck(name: "core clock", passed: true, detail: "core clock fixed at \(high) MHz (\(evidence))\(note)")
        }
        if let fourK, let line = fourKLine.definite {
            return DoctorCheck(
                name: "core clock", passed: false,
                detail: "\(line.located) raises the core clock's maximum to \(fourK) MHz; it moves between "
                    + "\(low) and \(high) MHz and the SPI clock moves with it",
                fix: "remove `hdmi_enable_4kp60=1`, or add `\(core.key)=\(fourK)` and `\(core.minKey)=\(fourK)` to "
                    + "\(board.primaryConfigFile), and reboot")
        }
        let uartFix = core.enableUARTFixesAtMHz.map { " (or `enable_uart=1`, which fixes it at \($0) MHz)" } ?? ""
        return DoctorCheck(
            name: "core clock", passed: false,
            detail: "core clock moves between \(low) and \(high) MHz (\(evidence)), and the SPI clock moves with it",
            fix: fixText + uartFix)
    }

    static func gpioCheck(board: Board, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let chips = gpioChips(root: root, system: system)
        let wanted = Set(board.gpioChipLabels)
        guard let found = chips.first(where: { $0.label.map(wanted.contains) ?? false }), let label = found.label else {
            let seen = chips.isEmpty ? "no GPIO chips found"
                : "found " + chips.map { "\($0.chip) (\($0.label ?? "cannot open: \($0.error.map { "\($0)" } ?? "?")"))" }
                    .joined(separator: ", ")
            let denied = chips.contains { $0.label == nil && ($0.error == .permissionDenied || $0.error == .notPermitted) }
            return DoctorCheck(
                name: "GPIO chip", passed: false,
                detail: "no GPIO chip labelled \(board.gpioChipLabels.joined(separator: " or ")); \(seen)",
                fix: denied ? HardwareError.gpioGroupFix
                    : "check that the kernel's pin controller driver loaded (`gpiodetect`, `dmesg | grep -i gpio`)")
        }
        let chip = found.chip
        let device = "/dev/" + chip
        var checks: [DoctorCheck] = []
        guard deviceCheck(
            name: "GPIO chip", device: device, root: root, system: system,
            missingFix: "the kernel has \(chip) (\(label)) but no \(device); check udev and the GPIO character device support",
            into: &checks)
        else { return checks[0] }
        let access = permissionCheck(name: "GPIO chip", device: device, defaultGroup: "gpio", root: root, system: system)
        guard access.passed else { return access }
        return DoctorCheck(name: "GPIO chip", passed: true, detail: "\(label) is \(device) and this user may open it")
    }

    // MARK: - Helpers

    /// The GPIO chips with their labels, read as libgpiod and `gpiodetect` read them: open each
    /// `/dev/gpiochipN` and ask `GPIO_GET_CHIPINFO_IOCTL` (include/uapi/linux/gpio.h).
    /// `/sys/bus/gpio/devices/gpiochipN` has no `label` file (gpiolib's bus type has no
    /// attributes), so a chip this user cannot open is labelled, where the kernel has
    /// CONFIG_GPIO_SYSFS, from the legacy `/sys/class/gpio/gpiochipBASE/label`, whose `device`
    /// directory names the `gpiochipN` it belongs to.
    static func gpioChips(root: String, system: RetryingSystemCalls) -> [(chip: String, label: String?, error: Errno?)] {
        var chips: [(chip: String, label: String?, error: Errno?)] = []
        let paths = (try? GPIOChipDevices.paths(in: RootPath.join(root, "/dev"), system: system)) ?? []
        for path in paths {
            let chip = path.split(separator: "/").last.map(String.init) ?? path
            do {
                let fd = try system.open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
                defer { try? system.close(fd) }
                chips.append((chip, try system.gpioChipInfo(fd).label, nil))
            } catch {
                chips.append((chip, nil, error))
            }
        }
        let legacy = "/sys/class/gpio"
        for entry in (try? system.listDirectory(RootPath.join(root, legacy))) ?? [] where entry.hasPrefix("gpiochip") {
            guard let bytes = try? system.readFile(RootPath.join(root, "\(legacy)/\(entry)/label")) else { continue }
            let text = String(decoding: bytes, as: UTF8.self).trimmingSuffixWhitespace()
            let siblings = (try? system.listDirectory(RootPath.join(root, "\(legacy)/\(entry)/device"))) ?? []
            guard let chip = siblings.first(where: { $0.hasPrefix("gpiochip") }) else { continue }
            if let index = chips.firstIndex(where: { $0.chip == chip }) {
                if chips[index].label == nil { chips[index].label = text }
            } else {
                chips.append((chip, text, nil))
            }
        }
        return chips
    }

    /// The board's first boot configuration file that exists, read as the firmware reads it:
    /// with sections and includes when the board file names config.txt model filters, flat otherwise.
    static func bootConfig(board: Board, root: String, system: RetryingSystemCalls) -> BootConfig? {
        func read(_ path: String) -> String? {
            (try? system.readFile(RootPath.join(root, path))).map { String(decoding: $0, as: UTF8.self) }
        }
        for file in board.configFiles {
            if let text = read(file) {
                return BootConfig(path: file, text: text, sectioned: board.configFilters != nil, read: read)
            }
        }
        return nil
    }

    /// The name of group `id` from `<root>/etc/group`.
    static func groupName(id: UInt32, root: String, system: RetryingSystemCalls) -> String? {
        guard let bytes = try? system.readFile(RootPath.join(root, "/etc/group")) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isNewline }) {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, UInt32(fields[2]) == id { return String(fields[0]) }
        }
        return nil
    }
}
