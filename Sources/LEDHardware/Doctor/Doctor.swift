import Glibc

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
        checks.append(bufsizCheck(frameSize: frameSize, root: root, system: system))
        if let board, let core = board.coreClock {
            checks.append(coreClockCheck(board: board, core: core, root: root, system: system))
        }
        if let board, let pio = board.pio {
            let present = deviceCheck(
                name: "PIO LED device", device: pio.device, root: root, system: system,
                missingFix: "add `\(pio.overlay)` to \(board.primaryConfigFile) and reboot", into: &checks)
            if present {
                checks.append(permissionCheck(
                    name: "PIO LED permission", device: pio.device, defaultGroup: "video", root: root, system: system))
            }
        }
        if let board {
            checks.append(gpioCheck(board: board, root: root, system: system))
        }
        return DoctorReport(board: board, checks: checks)
    }

    // MARK: - Checks

    static func boardCheck(_ detection: BoardDetector.Detection?, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        if let detection {
            return DoctorCheck(
                name: "board", passed: true, detail: "\(detection.board.displayName) (\(detection.evidence))")
        }
        let model = BoardDetector(catalog: BoardCatalog(boards: []), root: root, system: system).identity().model
        return DoctorCheck(
            name: "board", passed: false,
            detail: model.map { "no board file matches model \"\($0)\"" } ?? "no device tree found (not a single-board computer?)",
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

    static func bufsizCheck(
        frameSize: Int?, root: String, system: RetryingSystemCalls, alignment: Int = SPIDevAlignment.running
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
            fix: HardwareError.bufsizFix)
    }

    static func coreClockCheck(board: Board, core: Board.CoreClock, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let fixText = "add `\(core.key)=\(core.recommendedMHz)` and `\(core.minKey)=\(core.recommendedMHz)` to "
            + "\(board.primaryConfigFile) and reboot, so the SPI clock cannot move"
        var found: (path: String, settings: [String: String])?
        for file in board.configFiles {
            if let bytes = try? system.readFile(RootPath.join(root, file)) {
                found = (file, parseConfig(String(decoding: bytes, as: UTF8.self)))
                break
            }
        }
        guard let (file, settings) = found else {
            return DoctorCheck(
                name: "core clock", passed: false,
                detail: "no boot config found (\(board.configFiles.joined(separator: ", ")))", fix: fixText)
        }
        if settings["force_turbo"] == "1" {
            return DoctorCheck(name: "core clock", passed: true, detail: "force_turbo=1 in \(file) keeps the core clock fixed")
        }
        let high = settings[core.key].flatMap { Int($0) } ?? core.defaultMHz
        let low = min(settings[core.minKey].flatMap { Int($0) } ?? core.defaultMinMHz, high)
        if low == high {
            return DoctorCheck(name: "core clock", passed: true, detail: "core clock fixed at \(high) MHz (\(file))")
        }
        return DoctorCheck(
            name: "core clock", passed: false,
            detail: "core clock moves between \(low) and \(high) MHz (\(file)), and the SPI clock moves with it",
            fix: fixText)
    }

    static func gpioCheck(board: Board, root: String, system: RetryingSystemCalls) -> DoctorCheck {
        let chips = gpioChips(root: root, system: system)
        let wanted = Set(board.gpioChipLabels)
        guard let (chip, label) = chips.first(where: { wanted.contains($0.label) }) else {
            let seen = chips.isEmpty ? "no GPIO chips found" : "found " + chips.map { "\($0.chip) (\($0.label))" }.joined(separator: ", ")
            return DoctorCheck(
                name: "GPIO chip", passed: false,
                detail: "no GPIO chip labelled \(board.gpioChipLabels.joined(separator: " or ")); \(seen)",
                fix: "check that the kernel's pin controller driver loaded (`gpiodetect`, `dmesg | grep -i gpio`)")
        }
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

    /// The GPIO chips the kernel reports, with their labels, found without assuming numbers:
    /// `/sys/bus/gpio/devices/gpiochipN/label`, else the legacy `/sys/class/gpio/gpiochipBASE`
    /// whose `device` directory names the `gpiochipN` it belongs to.
    static func gpioChips(root: String, system: RetryingSystemCalls) -> [(chip: String, label: String)] {
        func label(_ path: String) -> String? {
            (try? system.readFile(RootPath.join(root, path))).map { String(decoding: $0, as: UTF8.self).trimmingSuffixWhitespace() }
        }
        var chips: [(chip: String, label: String)] = []
        let bus = "/sys/bus/gpio/devices"
        for entry in (try? system.listDirectory(RootPath.join(root, bus))) ?? [] where entry.hasPrefix("gpiochip") {
            if let text = label("\(bus)/\(entry)/label") { chips.append((entry, text)) }
        }
        if !chips.isEmpty { return chips }
        let legacy = "/sys/class/gpio"
        for entry in (try? system.listDirectory(RootPath.join(root, legacy))) ?? [] where entry.hasPrefix("gpiochip") {
            guard let text = label("\(legacy)/\(entry)/label") else { continue }
            let siblings = (try? system.listDirectory(RootPath.join(root, "\(legacy)/\(entry)/device"))) ?? []
            if let chip = siblings.first(where: { $0.hasPrefix("gpiochip") }) { chips.append((chip, text)) }
        }
        return chips
    }

    /// Parses `key=value` lines of config.txt / armbianEnv.txt / uEnv.txt; later lines win.
    /// Section filters such as `[pi4]` are ignored: the doctor runs on the board they select.
    static func parseConfig(_ text: String) -> [String: String] {
        var settings: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].filter { !$0.isWhitespace }
            let value = line[line.index(after: equals)...].filter { !$0.isWhitespace }
            if !key.isEmpty { settings[String(key)] = String(value) }
        }
        return settings
    }

    /// The name of group `id` from `<root>/etc/group`.
    static func groupName(id: UInt32, root: String, system: RetryingSystemCalls) -> String? {
        guard let bytes = try? system.readFile(RootPath.join(root, "/etc/group")) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, UInt32(fields[2]) == id { return String(fields[0]) }
        }
        return nil
    }
}
