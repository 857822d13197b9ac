import Foundation
import Testing
import LEDRingNetTesting

/// tools/setup-pi.sh against a fake Raspberry Pi OS root: every change is printed, and a second
/// run changes nothing.
@Suite struct SetupScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func runScript(root: String, binary: Bool = true) throws -> (Int32, String) {
        // A stand-in for the binary: with --root the script installs it without running it.
        let fake = root + "/ledring-build"
        if binary && !FileManager.default.fileExists(atPath: fake) {
            try "#!/bin/sh\necho ledring\n".write(toFile: fake, atomically: true, encoding: .utf8)
        }
        // Its messages on both streams, in one text: the tests look for lines, not their order.
        let result = try ChildProcess.run(
            "/bin/bash", [Self.repository.appendingPathComponent("tools/setup-pi.sh").path, "--root", root] + (binary ? ["--binary", fake] : []))
        return (result.status, result.stdout + result.stderr)
    }

    /// A fake Raspberry Pi OS root with this model, config.txt and (optionally) ledring config.
    func makeRoot(model: String, configTxt: String, ledringConfig: String? = nil) throws -> String {
        let root = "/tmp/lr-setup-\(UUID().uuidString.prefix(8))"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/boot/firmware", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/proc/device-tree", withIntermediateDirectories: true)
        try configTxt.write(toFile: root + "/boot/firmware/config.txt", atomically: true, encoding: .utf8)
        try "console=tty1 root=PARTUUID=1 rootwait\n".write(toFile: root + "/boot/firmware/cmdline.txt", atomically: true, encoding: .utf8)
        try Data((model + "\0").utf8).write(to: URL(fileURLWithPath: root + "/proc/device-tree/model"))
        if let ledringConfig {
            try fm.createDirectory(atPath: root + "/etc/ledring", withIntermediateDirectories: true)
            try ledringConfig.write(toFile: root + "/etc/ledring/config.json", atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func withoutABinaryChangesNothingAndEnablesNothing() throws {
        let configTxt = "dtparam=audio=on\n"
        let root = try makeRoot(model: "Raspberry Pi 4 Model B Rev 1.4", configTxt: configTxt)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output) = try runScript(root: root, binary: false)
        #expect(status == 69, "\(output)")
        #expect(output.contains("no ledring binary to install, so nothing was changed; pass --binary PATH"), "\(output)")
        #expect(!output.contains("download"), "\(output)")
        #expect(try String(contentsOfFile: root + "/boot/firmware/config.txt", encoding: .utf8) == configTxt)
        #expect(!FileManager.default.fileExists(atPath: root + "/etc/systemd/system/ledring.service"))
    }

    /// Raspberry Pi OS's own config.txt ends in model sections; a line appended there would hold
    /// on that model only, and one inside [cm4] is not in force on a Pi 4B.
    @Test func settingsLandUnderAllAndAZeroWPinsItsCoreClock() throws {
        let configTxt = "dtparam=audio=on\n[cm4]\ncore_freq=500\ncore_freq_min=500\n[all]\ncore_freq=300\n[pi4]\narm_boost=1\n"
        let root = try makeRoot(model: "Raspberry Pi Zero W Rev 1.1", configTxt: configTxt)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (status, output) = try runScript(root: root)
        #expect(status == 0, "\(output)")
        #expect(output.contains("core_freq=300 -> core_freq=250"), "\(output)")
        let config = try String(contentsOfFile: root + "/boot/firmware/config.txt", encoding: .utf8)
        #expect(config == "dtparam=audio=on\n[cm4]\ncore_freq=500\ncore_freq_min=500\n[all]\ncore_freq=250\n[pi4]\narm_boost=1\n"
            + "[all]\ndtparam=spi=on\ncore_freq_min=250\n")
        let (again, second) = try runScript(root: root)
        #expect(again == 0)
        #expect(!second.contains("change:"), "\(second)")
    }

    /// A command source may run curl: the service needs the network drop-in for it as for MQTT,
    /// and loses it again when the config no longer needs it.
    @Test func networkDropInFollowsTheConfig() throws {
        let root = try makeRoot(
            model: "Raspberry Pi 3 Model B Plus Rev 1.3", configTxt: "dtparam=spi=on\n",
            ledringConfig: #"{"rings": [{"name": "disk", "leds": 12}], "sources": [{"ring": "disk", "command": ["df"], "every": "5m"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dropIn = root + "/etc/systemd/system/ledring.service.d/network.conf"
        let (status, output) = try runScript(root: root)
        #expect(status == 0, "\(output)")
        #expect(FileManager.default.contents(atPath: dropIn) == FileManager.default.contents(
            atPath: Self.repository.appendingPathComponent("tools/ledring.service.d/network.conf").path))
        try #"{"rings": [{"name": "disk", "leds": 12}]}"#.write(toFile: root + "/etc/ledring/config.json", atomically: true, encoding: .utf8)
        let (again, second) = try runScript(root: root)
        #expect(again == 0, "\(second)")
        #expect(second.contains("change: remove \(dropIn)"), "\(second)")
        #expect(!FileManager.default.fileExists(atPath: dropIn))
    }

    @Test func configuresAFreshPi4AndIsIdempotent() throws {
        let root = "/tmp/lr-setup-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/boot/firmware", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/proc/device-tree", withIntermediateDirectories: true)
        try "dtparam=audio=on\ncore_freq=400\n".write(toFile: root + "/boot/firmware/config.txt", atomically: true, encoding: .utf8)
        try "console=tty1 root=PARTUUID=1 rootwait\n".write(toFile: root + "/boot/firmware/cmdline.txt", atomically: true, encoding: .utf8)
        try Data("Raspberry Pi 4 Model B Rev 1.4\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/device-tree/model"))

        let (status, first) = try runScript(root: root)
        #expect(status == 0, "\(first)")
        #expect(first.contains("add dtparam=spi=on"))
        #expect(first.contains("core_freq=400 -> core_freq=500"))
        #expect(first.contains("reboot"))
        let config = try String(contentsOfFile: root + "/boot/firmware/config.txt", encoding: .utf8)
        #expect(config == "dtparam=audio=on\ncore_freq=500\ndtparam=spi=on\ncore_freq_min=500\n")
        let cmdline = try String(contentsOfFile: root + "/boot/firmware/cmdline.txt", encoding: .utf8)
        #expect(cmdline == "console=tty1 root=PARTUUID=1 rootwait spidev.bufsiz=65536\n")
        #expect(fm.fileExists(atPath: root + "/etc/systemd/system/ledring.service"))
        #expect(fm.fileExists(atPath: root + "/etc/ledring/config.json"))
        // /dev/ledsN is root-only on Raspberry Pi OS without this rule.
        let rule = try String(contentsOfFile: root + "/etc/udev/rules.d/60-ledring-ws2812-pio.rules", encoding: .utf8)
        #expect(rule.contains("SUBSYSTEM==\"ws2812-pio-rp1\", GROUP=\"gpio\", MODE=\"0660\""))

        let (again, second) = try runScript(root: root)
        #expect(again == 0)
        #expect(!second.contains("change:"), "\(second)")
    }
}

/// tools/setup-pi.sh installs the one file a Pi user downloads (the static Embedded Swift build).
@Suite struct SetupScriptBinaryTests {
    func runScript(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SetupScriptTests.repository.appendingPathComponent("tools/setup-pi.sh").path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func installsADownloadedBinaryOnceAndRefusesAMissingOne() throws {
        let root = "/tmp/lr-setup-bin-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/boot/firmware", withIntermediateDirectories: true)
        try "dtparam=spi=on\n".write(toFile: root + "/boot/firmware/config.txt", atomically: true, encoding: .utf8)
        try "console=tty1 spidev.bufsiz=65536\n".write(toFile: root + "/boot/firmware/cmdline.txt", atomically: true, encoding: .utf8)
        let download = root + "/ledring-armv6"
        try "#!/bin/sh\necho ledring\n".write(toFile: download, atomically: true, encoding: .utf8)

        let (status, first) = try runScript(["--root", root, "--binary", download])
        #expect(status == 0, "\(first)")
        #expect(first.contains("change: install \(download) as \(root)/usr/local/bin/ledring"))
        #expect(fm.contents(atPath: root + "/usr/local/bin/ledring") == fm.contents(atPath: download))
        #expect(fm.isExecutableFile(atPath: root + "/usr/local/bin/ledring"))
        // The unit runs the binary where the script put it (the package's is /usr/bin).
        let unit = try String(contentsOfFile: root + "/etc/systemd/system/ledring.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/local/bin/ledring run "), "\(unit)")

        let (again, second) = try runScript(["--root", root, "--binary", download])
        #expect(again == 0)
        #expect(second.contains("ok: \(root)/usr/local/bin/ledring is \(download)"), "\(second)")

        let (missing, message) = try runScript(["--root", root, "--binary", root + "/ledring-aarch64"])
        #expect(missing == 66)
        #expect(message.contains("no file \(root)/ledring-aarch64"))
    }
}
