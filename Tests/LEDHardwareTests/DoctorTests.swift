import Foundation
@testable import LEDHardware
import LEDRingTesting
import Testing

/// A fake machine under /r on which every doctor check passes, for the given board.
func healthyRoot(_ board: String) -> FakeSystemCalls {
    let fake = FakeSystemCalls()
    let compatible: String
    switch board {
    case "rpi5": compatible = "raspberrypi,5-model-b\0brcm,bcm2712\0"
    case "rpi3b": compatible = "raspberrypi,3-model-b\0brcm,bcm2837\0"
    default: compatible = "raspberrypi,4-model-b\0brcm,bcm2711\0"
    }
    fake.addFile("/r/proc/device-tree/compatible", compatible)
    fake.addFile("/r/etc/group", "root:x:0:\nvideo:x:44:pi\ngpio:x:997:pi\nspi:x:999:pi\n")
    fake.addDevice("/r/dev/spidev0.0", groupID: 999)
    fake.addFile("/r/sys/module/spidev/parameters/bufsiz", "4096\n")
    switch board {
    case "rpi5":
        fake.addFile("/r/boot/firmware/config.txt", "dtparam=spi=on\ndtoverlay=ws2812-pio,gpio=18,num_leds=24\n")
        // Group gpio, as the udev rule tools/setup-pi.sh installs makes it.
        fake.addDevice("/r/dev/leds0", groupID: 997)
        fake.addLedsPIOOverlay(root: "/r", node: "ws2812_pio@18", numLEDs: 24)
        fake.addGPIOChip("/r/dev/gpiochip0", label: "pinctrl-rp1", lineCount: 54, groupID: 997)
    case "rpi3b":
        fake.addFile("/r/boot/firmware/config.txt", "dtparam=spi=on\ncore_freq=250\n")
        fake.addGPIOChip("/r/dev/gpiochip0", label: "pinctrl-bcm2835", lineCount: 54, groupID: 997)
    default:
        fake.addFile("/r/boot/firmware/config.txt", "dtparam=spi=on\ncore_freq=500 # fixed for SPI\ncore_freq_min=500\n")
        fake.addGPIOChip("/r/dev/gpiochip0", label: "pinctrl-bcm2711", lineCount: 58, groupID: 997)
        fake.addGPIOChip("/r/dev/gpiochip1", label: "raspberrypi-exp-gpio", lineCount: 8, groupID: 997)
    }
    return fake
}

func check(_ report: DoctorReport, _ name: String) -> DoctorCheck? {
    report.checks.first { $0.name == name }
}

@Suite struct DoctorTests {
    @Test(arguments: ["rpi4b", "rpi5", "rpi3b"])
    func aHealthyBoardPassesEveryCheck(board: String) {
        let report = Doctor.run(root: "/r", frameSize: 2000, system: healthyRoot(board))
        #expect(report.board?.id == board)
        #expect(report.allPassed, "\(report.formatted())")
        #expect(report.exitCode == 0)
        #expect(report.formatted().split(separator: "\n").allSatisfy { $0.hasPrefix("✓ ") })
    }

    @Test func piFiveChecksThePIODeviceAndNotTheCoreClock() {
        let names = Doctor.run(root: "/r", system: healthyRoot("rpi5")).checks.map(\.name)
        #expect(names == ["board", "SPI device", "SPI permission", "spidev bufsiz", "PIO LED device", "PIO LED permission",
                          "PIO LED overlay", "GPIO chip"])
        let pi4 = Doctor.run(root: "/r", system: healthyRoot("rpi4b")).checks.map(\.name)
        #expect(pi4 == ["board", "SPI device", "SPI permission", "spidev bufsiz", "core clock", "GPIO chip"])
    }

    @Test func anUnknownBoardFails() {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/proc/device-tree/compatible", "acme,widget\0")
        fake.addFile("/r/proc/device-tree/model", "ACME Widget\0")
        let report = Doctor.run(root: "/r", system: fake)
        let board = check(report, "board")
        #expect(board?.passed == false)
        #expect(board?.detail.contains("ACME Widget") == true)
        #expect(board?.fix.contains("boards/README.md") == true)
        #expect(report.exitCode == 69)
    }

    @Test func anUnknownBoardWithNoKnownSoCStillFails() throws {
        let root = try makeFakeRoot(compatible: ["acme,widget", "acme,soc9000"], model: "ACME Widget")
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Doctor.run(root: root.path)
        #expect(report.board == nil)
        #expect(check(report, "board")?.passed == false)
        #expect(check(report, "board")?.detail == "no board file matches model \"ACME Widget\"")
        #expect(report.exitCode == 69)
    }

    /// An unknown BCM2711 board: the board check passes with a note naming what is not known, and the
    /// SPI checks run against the generic file's spidev node.
    @Test func anUnknownBCM2711BoardGetsTheGenericFactsAndTheSPIChecks() {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/proc/device-tree/compatible", "acme,pi-clone\0brcm,bcm2711\0")
        fake.addFile("/r/proc/device-tree/model", "ACME Pi Clone\0")
        let report = Doctor.run(root: "/r", frameSize: 2000, system: fake)
        #expect(report.board?.id == "generic-bcm2711")
        let board = check(report, "board")
        #expect(board?.passed == true)
        let detail = board?.detail ?? ""
        #expect(detail.hasPrefix("unknown board \"ACME Pi Clone\" (SoC compatible \"brcm,bcm2711\"); using the generic facts"), "\(detail)")
        #expect(detail.contains("SPI clock rule evenDivider"), "\(detail)")
        #expect(detail.contains("not known: header pins"), "\(detail)")
        #expect(detail.contains("core clock defaults"), "\(detail)")
        #expect(report.checks.map(\.name) == ["board", "SPI device", "SPI permission", "spidev bufsiz", "GPIO chip"])
        #expect(check(report, "SPI device")?.detail == "/dev/spidev0.0 is present")
        #expect(report.allPassed, "\(report.formatted())")
        fake.deny("/r/dev/spidev0.0")
        #expect(check(Doctor.run(root: "/r", system: fake), "SPI permission")?.passed == false)
    }

    @Test func aZeroWFakeRootChecksItsCoreClock() throws {
        let root = try makeFakeRoot(compatible: ["raspberrypi,model-zero-w", "brcm,bcm2835"], model: "Raspberry Pi Zero W Rev 1.1")
        defer { try? FileManager.default.removeItem(at: root) }
        let boot = root.appendingPathComponent("boot/firmware")
        try FileManager.default.createDirectory(at: boot, withIntermediateDirectories: true)
        try Data("dtparam=spi=on\n".utf8).write(to: boot.appendingPathComponent("config.txt"))
        let report = Doctor.run(root: root.path)
        #expect(report.board?.id == "rpi-zero-w")
        #expect(check(report, "board")?.passed == true)
        let core = check(report, "core clock")
        #expect(core?.passed == false)
        #expect(core?.detail.contains("between 250 and 400 MHz") == true, "\(core?.line ?? "")")
        #expect(core?.fix.contains("core_freq=250") == true)
        #expect(core?.fix.contains("enable_uart=1") == true)
        try Data("dtparam=spi=on\ncore_freq=250\ncore_freq_min=250\n".utf8).write(to: boot.appendingPathComponent("config.txt"))
        #expect(check(Doctor.run(root: root.path), "core clock")?.detail.contains("fixed at 250 MHz") == true)
    }

    @Test(arguments: [("enable_uart=1\n", "rpi-zero-w", true), ("enable_uart=1\n", "rpi-zero", false)])
    func enableUARTPinsTheCoreClockOnlyWhereTheMiniUARTIsPrimary(config: String, id: String, passes: Bool) {
        let fake = healthyRoot("rpi3b")
        fake.addFile("/r/proc/device-tree/compatible", id == "rpi-zero" ? "raspberrypi,model-zero\0" : "raspberrypi,model-zero-w\0")
        fake.addFile("/r/boot/firmware/config.txt", config)
        let report = Doctor.run(root: "/r", system: fake)
        #expect(report.board?.id == id)
        #expect(check(report, "core clock")?.passed == passes, "\(report.formatted())")
    }

    @Test func aPiOneBPlusDetectsAndItsDefaultCoreClockIsFixed() {
        let fake = healthyRoot("rpi3b")
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,model-b-plus\0brcm,bcm2835\0")
        fake.addFile("/r/proc/device-tree/model", "Raspberry Pi Model B Plus Rev 1.2\0")
        fake.addFile("/r/boot/firmware/config.txt", "dtparam=spi=on\n")
        let report = Doctor.run(root: "/r", system: fake)
        #expect(report.board?.id == "rpi1")
        #expect(check(report, "core clock")?.detail == "core clock fixed at 250 MHz (/boot/firmware/config.txt)")
        #expect(report.allPassed, "\(report.formatted())")
    }

    @Test(arguments: [("raspberrypi,5-compute-module", "rpi-cm5"), ("raspberrypi,500", "rpi500")])
    func theRP1BoardsCheckThePIODevice(compatible: String, id: String) {
        let fake = healthyRoot("rpi5")
        fake.addFile("/r/proc/device-tree/compatible", "\(compatible)\0brcm,bcm2712\0")
        let report = Doctor.run(root: "/r", system: fake)
        #expect(report.board?.id == id)
        #expect(report.checks.map(\.name) == ["board", "SPI device", "SPI permission", "spidev bufsiz", "PIO LED device",
                                               "PIO LED permission", "PIO LED overlay", "GPIO chip"])
        #expect(report.allPassed, "\(report.formatted())")
    }

    @Test func aMissingSPIDeviceSaysHowToEnableSPI() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,4-model-b\0")
        let report = Doctor.run(root: "/r", system: fake)
        let spi = check(report, "SPI device")
        #expect(spi?.passed == false)
        #expect(spi?.detail == "/dev/spidev0.0 is missing")
        #expect(spi?.fix.contains("dtparam=spi=on") == true)
        #expect(check(report, "SPI permission") == nil)
        #expect(report.formatted().contains("✗ SPI device: /dev/spidev0.0 is missing — fix: add `dtparam=spi=on`"))
    }

    @Test func aNonPiBoardNamesItsOwnDeviceAndOverlay() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "xunlong,orangepi-zero\0allwinner,sun8i-h2-plus\0")
        let spi = check(Doctor.run(root: "/r", system: fake), "SPI device")
        #expect(spi?.detail == "/dev/spidev1.0 is missing")
        #expect(spi?.fix.contains("param_spidev_spi_bus=1") == true)
    }

    @Test func permissionDeniedNamesTheMissingGroup() {
        let fake = healthyRoot("rpi4b")
        fake.deny("/r/dev/spidev0.0")
        let permission = check(Doctor.run(root: "/r", system: fake), "SPI permission")
        #expect(permission?.passed == false)
        #expect(permission?.detail.contains("owned by group spi") == true)
        #expect(permission?.fix.contains("sudo usermod -aG spi $USER") == true)
    }

    @Test func aFrameLargerThanBufsizFails() {
        let report = Doctor.run(root: "/r", frameSize: 5200, system: healthyRoot("rpi4b"))
        let bufsiz = check(report, "spidev bufsiz")
        #expect(bufsiz?.passed == false)
        #expect(bufsiz?.detail == "spidev buffer is 4096 bytes but this frame needs 5200")
        #expect(bufsiz?.fix.contains("spidev.bufsiz=65536") == true)
    }

    @Test func theBufsizFixNamesTheBoardsOwnBootConfigAndAMultipleOf128() {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/proc/device-tree/compatible", "xunlong,orangepi-zero\0allwinner,sun8i-h2-plus\0")
        let orange = check(Doctor.run(root: "/r", frameSize: 70_000, system: fake), "spidev bufsiz")
        #expect(orange?.passed == false)
        #expect(orange?.fix.contains("extraargs=spidev.bufsiz=131072") == true)
        #expect(orange?.fix.contains("/boot/armbianEnv.txt") == true)
        #expect(orange?.fix.contains("options spidev bufsiz=131072") == true)
        #expect(orange?.fix.contains("cmdline.txt") == false)
        fake.addFile("/r/proc/device-tree/compatible", "ti,am335x-bone-black\0")
        let bone = check(Doctor.run(root: "/r", frameSize: 5200, system: fake), "spidev bufsiz")
        #expect(bone?.fix.contains("`cmdline=` line of /boot/uEnv.txt") == true)
        #expect(HardwareError.suggestedBufsiz(frameBytes: 200_001) % 128 == 0)
    }

    /// spidev counts a transfer as ALIGN(len, ARCH_DMA_MINALIGN) bytes (8 on x86-64, 128 on
    /// arm64), so with bufsiz 1003 a 1001-byte frame gets EMSGSIZE although 1001 <= 1003.
    @Test func aFrameWhoseAlignedLengthExceedsBufsizFails() {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/sys/module/spidev/parameters/bufsiz", "1003\n")
        let refused = check(Doctor.run(root: "/r", frameSize: 1001, system: fake), "spidev bufsiz")
        #expect(refused?.passed == false)
        #expect(refused?.detail.contains("-byte steps, so at most") == true)
        #expect(check(Doctor.run(root: "/r", frameSize: 896, system: fake), "spidev bufsiz")?.passed == true)
    }

    /// On arm64 (a Pi's 64-bit kernel) the steps are 128 bytes: bufsiz 5000 takes at most 4992.
    @Test func onArm64TheStepsAre128Bytes() {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/sys/module/spidev/parameters/bufsiz", "5000\n")
        let system = RetryingSystemCalls(fake)
        let arm64 = SPIDevAlignment.bytes(forMachine: "aarch64")
        let refused = Doctor.bufsizCheck(frameSize: 4995, board: nil, root: "/r", system: system, alignment: arm64)
        #expect(!refused.passed)
        #expect(refused.detail.contains("128-byte steps, so at most 4992 go through"))
        #expect(Doctor.bufsizCheck(frameSize: 4992, board: nil, root: "/r", system: system, alignment: arm64).passed)
    }

    @Test func anUnreadableBufsizFails() {
        let fake = healthyRoot("rpi4b")
        fake.fail(.readFile, with: .noSuchFileOrDirectory, path: "/r/sys/module/spidev/parameters/bufsiz")
        #expect(check(Doctor.run(root: "/r", system: fake), "spidev bufsiz")?.passed == false)
    }

    @Test(arguments: [
        ("dtparam=spi=on\n", false, "between 200 and 500 MHz"),
        ("core_freq=500\n", false, "between 200 and 500 MHz"),
        ("core_freq_min=500\n", true, "fixed at 500 MHz"),
        ("core_freq=250\ncore_freq_min=250\n", true, "fixed at 250 MHz"),
        ("#core_freq_min=500\n", false, "between 200 and 500 MHz"),
        ("force_turbo=1\n", true, "force_turbo=1"),
        // enable_uart pins the core clock only where the mini UART is the console (Pi 3, Zero 2 W).
        ("enable_uart=1\n", false, "between 200 and 500 MHz"),
    ])
    func piFourCoreClock(config: String, passes: Bool, detail: String) {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/boot/firmware/config.txt", config)
        let core = check(Doctor.run(root: "/r", system: fake), "core clock")
        #expect(core?.passed == passes)
        #expect(core?.detail.contains(detail) == true)
        if !passes { #expect(core?.fix.contains("core_freq=500` and `core_freq_min=500") == true) }
    }

    @Test(arguments: [
        ("hdmi_enable_4kp60=1\ncore_freq_min=500\n", false),
        ("hdmi_enable_4kp60=1\n", false),
        ("hdmi_enable_4kp60=1\ncore_freq=550\ncore_freq_min=550\n", true),
    ])
    func piFourWith4Kp60RaisesTheCoreClock(config: String, passes: Bool) {
        let fake = healthyRoot("rpi4b")
        fake.addFile("/r/boot/firmware/config.txt", config)
        let core = check(Doctor.run(root: "/r", system: fake), "core clock")
        #expect(core?.passed == passes)
        if !passes {
            #expect(core?.detail.contains("hdmi_enable_4kp60=1") == true)
            #expect(core?.detail.contains("550 MHz") == true)
            #expect(core?.fix.contains("core_freq=550` and `core_freq_min=550") == true)
        }
    }

    @Test(arguments: [
        ("enable_uart=1\n", true),
        ("enable_uart=1\ndtoverlay=miniuart-bt\n", false),
        ("enable_uart=1\ndtoverlay=disable-bt\n", false),
        ("enable_uart=0\n", false),
    ])
    func piThreeEnableUARTPinsTheCoreClock(config: String, passes: Bool) {
        for board in ["rpi3b", "rpi-zero-2w"] {
            let fake = healthyRoot("rpi3b")
            if board == "rpi-zero-2w" { fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,model-zero-2-w\0") }
            fake.addFile("/r/boot/firmware/config.txt", config)
            let core = check(Doctor.run(root: "/r", system: fake), "core clock")
            #expect(core?.passed == passes, "\(board): \(core?.line ?? "")")
            if passes { #expect(core?.detail.contains("fixes the core clock at 250 MHz") == true) }
        }
    }

    @Test func piThreeWithDefaultCoreClockFails() {
        let fake = healthyRoot("rpi3b")
        fake.addFile("/r/boot/firmware/config.txt", "dtparam=spi=on\n")
        let core = check(Doctor.run(root: "/r", system: fake), "core clock")
        #expect(core?.passed == false)
        #expect(core?.detail.contains("between 250 and 400 MHz") == true)
        #expect(core?.fix.contains("core_freq=250") == true)
    }

    @Test func aMissingConfigFileFailsTheCoreClockCheck() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,4-model-b\0")
        let core = check(Doctor.run(root: "/r", system: fake), "core clock")
        #expect(core?.passed == false)
        #expect(core?.detail.contains("no boot config found") == true)
    }

    @Test func theOlderConfigLocationIsRead() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,4-model-b\0")
        fake.addFile("/r/boot/config.txt", "core_freq_min=500\n")
        #expect(check(Doctor.run(root: "/r", system: fake), "core clock")?.passed == true)
    }

    @Test func piFiveWithoutTheOverlayFails() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,5-model-b\0")
        let report = Doctor.run(root: "/r", system: fake)
        let pio = check(report, "PIO LED device")
        #expect(pio?.passed == false)
        #expect(pio?.detail == "/dev/leds0 is missing")
        #expect(pio?.fix.contains("dtoverlay=ws2812-pio") == true)
    }

    @Test func piFivePIOPermissionNamesTheUdevRuleNotTheVideoGroup() {
        let fake = healthyRoot("rpi5")
        fake.addDevice("/r/dev/leds0", groupID: 0)  // root:root, as Raspberry Pi OS leaves it
        fake.deny("/r/dev/leds0")
        let permission = check(Doctor.run(root: "/r", system: fake), "PIO LED permission")
        #expect(permission?.passed == false)
        #expect(permission?.fix.contains("SUBSYSTEM==\"ws2812-pio-rp1\", GROUP=\"gpio\", MODE=\"0660\"") == true)
        #expect(permission?.fix.contains("setup-pi.sh") == true)
        #expect(permission?.fix.contains("video") == false)
    }

    @Test(arguments: [
        (UInt32(0), "6.12.47+rpt-rpi-2712", false, "blanks the strip"),
        (0, "6.12.56+rpt-rpi-2712", true, "passes values through"),
        (0, "6.18.1-v8-16k+", true, "passes values through"),
        (128, "6.12.56+rpt-rpi-2712", false, "level 55"),
        (255, "6.6.51+rpt-rpi-2712", true, "inverse of the kernel's gamma"),
    ])
    func piFivePIOOverlayBrightness(brightness: UInt32, kernel: String, passes: Bool, detail: String) {
        let fake = healthyRoot("rpi5")
        fake.addLedsPIOOverlay(root: "/r", node: "ws2812_pio@18", numLEDs: 24, brightness: brightness)
        fake.addFile("/r/proc/sys/kernel/osrelease", kernel + "\n")
        let overlay = check(Doctor.run(root: "/r", system: fake), "PIO LED overlay")
        #expect(overlay?.passed == passes, "\(overlay?.line ?? "")")
        #expect(overlay?.detail.contains(detail) == true, "\(overlay?.line ?? "")")
    }

    @Test func gpioLabelsComeFromTheChipInfoIoctlNotSysBus() {
        let fake = healthyRoot("rpi5")
        // /sys/bus/gpio/devices/gpiochipN has no label file on a real kernel; one planted here
        // must not be believed over what the chip itself reports.
        fake.addFile("/r/sys/bus/gpio/devices/gpiochip0/label", "pinctrl-rp1\n")
        fake.addGPIOChip("/r/dev/gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32, groupID: 997)
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == false)
        #expect(fake.calls.contains { if case .gpioChipInfo = $0 { true } else { false } })
        #expect(!fake.calls.contains { $0 == .readFile(path: "/r/sys/bus/gpio/devices/gpiochip0/label") })
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func aGPIOChipWithTheWrongLabelFails() {
        let fake = healthyRoot("rpi5")
        fake.addGPIOChip("/r/dev/gpiochip0", label: "pinctrl-bcm2711", lineCount: 58, groupID: 997)
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == false)
        #expect(gpio?.detail.contains("no GPIO chip labelled pinctrl-rp1") == true)
        #expect(gpio?.detail.contains("gpiochip0 (pinctrl-bcm2711)") == true)
    }

    @Test func aRenumberedChipIsFoundByLabel() {
        let fake = healthyRoot("rpi5")
        fake.addGPIOChip("/r/dev/gpiochip0", label: "gpio-brcmstb@107d508500", lineCount: 32, groupID: 997)
        fake.addGPIOChip("/r/dev/gpiochip4", label: "pinctrl-rp1", lineCount: 54, groupID: 997)
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == true)
        #expect(gpio?.detail == "pinctrl-rp1 is /dev/gpiochip4 and this user may open it")
    }

    @Test func aChipThisUserCannotOpenIsNamedFromTheLegacySysfsClass() {
        let fake = healthyRoot("rpi5")
        fake.deny("/r/dev/gpiochip0")
        fake.addFile("/r/sys/class/gpio/gpiochip571/label", "pinctrl-rp1\n")
        fake.addDirectory("/r/sys/class/gpio/gpiochip571/device/gpiochip0")
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == false)
        #expect(gpio?.detail.contains("cannot open /dev/gpiochip0") == true)
        #expect(gpio?.fix.contains("usermod -aG gpio") == true)
    }

    @Test func gpioPermissionDeniedNamesTheGPIOGroup() {
        let fake = healthyRoot("rpi4b")
        fake.deny("/r/dev/gpiochip0")
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == false)
        #expect(gpio?.fix.contains("usermod -aG gpio") == true)
    }

    @Test func aMissingGPIODeviceNodeFails() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/compatible", "raspberrypi,4-model-b\0")
        fake.addFile("/r/sys/class/gpio/gpiochip512/label", "pinctrl-bcm2711\n")
        fake.addDirectory("/r/sys/class/gpio/gpiochip512/device/gpiochip0")
        let gpio = check(Doctor.run(root: "/r", system: fake), "GPIO chip")
        #expect(gpio?.passed == false)
        #expect(gpio?.detail == "/dev/gpiochip0 is missing")
    }

    @Test func runsOnARealDirectoryThroughTheRealSeam() throws {
        let root = try makeFakeRoot(compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"], model: "Raspberry Pi 4 Model B Rev 1.4")
        defer { try? FileManager.default.removeItem(at: root) }
        let parameters = root.appendingPathComponent("sys/module/spidev/parameters")
        try FileManager.default.createDirectory(at: parameters, withIntermediateDirectories: true)
        try Data("65536\n".utf8).write(to: parameters.appendingPathComponent("bufsiz"))
        let report = Doctor.run(root: root.path, frameSize: 5200)
        #expect(report.board?.id == "rpi4b")
        #expect(check(report, "spidev bufsiz")?.passed == true)
        #expect(check(report, "SPI device")?.passed == false)  // a plain directory has no device nodes
        #expect(report.exitCode == 69)
    }
}
