import Foundation
import LEDHardware
import LEDRingTesting
import Testing

/// Writes a fake device tree into a real temporary root directory.
func makeFakeRoot(compatible: [String], model: String?) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-root-\(UUID().uuidString)")
    let dt = root.appendingPathComponent("proc/device-tree")
    try FileManager.default.createDirectory(at: dt, withIntermediateDirectories: true)
    if !compatible.isEmpty {
        try Data(compatible.flatMap { Array($0.utf8) + [0] }).write(to: dt.appendingPathComponent("compatible"))
    }
    if let model {
        try Data(Array(model.utf8) + [0]).write(to: dt.appendingPathComponent("model"))
    }
    return root
}

@Suite struct BoardDetectorTests {
    let catalog: BoardCatalog

    init() throws { catalog = try BoardCatalog.builtIn() }

    @Test(arguments: [
        (["raspberrypi,4-model-b", "brcm,bcm2711"], "Raspberry Pi 4 Model B Rev 1.4", "rpi4b"),
        (["raspberrypi,5-model-b", "brcm,bcm2712"], "Raspberry Pi 5 Model B Rev 1.0", "rpi5"),
        (["raspberrypi,3-model-b-plus", "brcm,bcm2837"], "Raspberry Pi 3 Model B Plus Rev 1.3", "rpi3b"),
        (["raspberrypi,model-zero-2-w", "brcm,bcm2837"], "Raspberry Pi Zero 2 W Rev 1.0", "rpi-zero-2w"),
        (["raspberrypi,400", "brcm,bcm2711"], "Raspberry Pi 400 Rev 1.0", "rpi400"),
        (["raspberrypi,4-compute-module", "brcm,bcm2711"], "Raspberry Pi Compute Module 4 Rev 1.0", "rpi-cm4"),
        (["xunlong,orangepi-zero", "allwinner,sun8i-h2-plus"], "Xunlong Orange Pi Zero", "orangepi-zero"),
        (["radxa,rockpi4b", "radxa,rockpi4", "rockchip,rk3399"], "Radxa ROCK Pi 4B", "rockpi-4b"),
        (["ti,am335x-bone-black", "ti,am335x-bone", "ti,am33xx"], "TI AM335x BeagleBone Black", "beaglebone-black"),
        (["raspberrypi,model-zero-w", "brcm,bcm2835"], "Raspberry Pi Zero W Rev 1.1", "rpi-zero-w"),
        (["raspberrypi,model-zero", "brcm,bcm2835"], "Raspberry Pi Zero Rev 1.3", "rpi-zero"),
        (["raspberrypi,model-b-plus", "brcm,bcm2835"], "Raspberry Pi Model B Plus Rev 1.2", "rpi1"),
        (["raspberrypi,model-a-plus", "brcm,bcm2835"], "Raspberry Pi Model A Plus Rev 1.1", "rpi1"),
        (["raspberrypi,2-model-b", "brcm,bcm2836"], "Raspberry Pi 2 Model B Rev 1.1", "rpi2b"),
        (["raspberrypi,3-model-a-plus", "brcm,bcm2837"], "Raspberry Pi 3 Model A Plus Rev 1.0", "rpi3a-plus"),
        (["raspberrypi,3-compute-module", "brcm,bcm2837"], "Raspberry Pi Compute Module 3 Plus Rev 1.0", "rpi-cm3"),
        (["raspberrypi,5-compute-module", "brcm,bcm2712"], "Raspberry Pi Compute Module 5 Rev 1.0", "rpi-cm5"),
        (["raspberrypi,500", "brcm,bcm2712"], "Raspberry Pi 500 Rev 1.0", "rpi500"),
    ])
    func detectsFromARealFakeRoot(compatible: [String], model: String, id: String) throws {
        let root = try makeFakeRoot(compatible: compatible, model: model)
        defer { try? FileManager.default.removeItem(at: root) }
        let detector = BoardDetector(catalog: catalog, root: root.path)
        let detection = detector.detect()
        #expect(detection?.board.id == id, "read \(detector.identity()) under \(root.path)")
        #expect(detection?.evidence.contains("compatible") == true)
    }

    @Test func fallsBackToTheLongestModelPrefix() throws {
        let root = try makeFakeRoot(compatible: ["brcm,bcm2711"], model: "Raspberry Pi 400 Rev 1.1")
        defer { try? FileManager.default.removeItem(at: root) }
        let detection = BoardDetector(catalog: catalog, root: root.path).detect()
        #expect(detection?.board.id == "rpi400")
        #expect(detection?.evidence.contains("model") == true)
    }

    /// "Raspberry Pi Zero" is a prefix of "Raspberry Pi Zero W" and "Zero 2 W": the longest prefix
    /// must win, and the SoC string (all that the compatible file has here) must not win over it.
    @Test(arguments: [
        ("Raspberry Pi Zero W Rev 1.1", "rpi-zero-w"),
        ("Raspberry Pi Zero Rev 1.3", "rpi-zero"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "rpi-zero-2w"),
        ("Raspberry Pi Model B Plus Rev 1.2", "rpi1"),
        ("Raspberry Pi Model B Rev 2", "rpi1"),
        ("Raspberry Pi 3 Model A Plus Rev 1.0", "rpi3a-plus"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "rpi3b"),
        ("Raspberry Pi Compute Module 3 Plus Rev 1.0", "rpi-cm3"),
        ("Raspberry Pi Compute Module 4 Rev 1.0", "rpi-cm4"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "rpi-cm5"),
        ("Raspberry Pi 500 Rev 1.0", "rpi500"),
        ("Raspberry Pi 5 Model B Rev 1.0", "rpi5"),
    ])
    func theLongestModelPrefixWins(model: String, id: String) throws {
        let root = try makeFakeRoot(compatible: ["brcm,bcm2835"], model: model)
        defer { try? FileManager.default.removeItem(at: root) }
        let detection = BoardDetector(catalog: catalog, root: root.path).detect()
        #expect(detection?.board.id == id)
        #expect(detection?.evidence.contains("model") == true)
    }

    @Test(arguments: [
        ("brcm,bcm2711", "generic-bcm2711"),
        ("brcm,bcm2835", "generic-bcm283x"),
        ("brcm,bcm2837", "generic-bcm283x"),
        ("brcm,bcm2712", "generic-bcm2712"),
    ])
    func anUnknownBoardWithAKnownSoCGetsTheGenericFile(soc: String, id: String) throws {
        let root = try makeFakeRoot(compatible: ["acme,pi-clone", soc], model: "ACME Pi Clone")
        defer { try? FileManager.default.removeItem(at: root) }
        let detection = BoardDetector(catalog: catalog, root: root.path).detect()
        #expect(detection?.board.id == id)
        #expect(detection?.board.isGeneric == true)
        #expect(detection?.evidence == "SoC compatible \"\(soc)\"")
    }

    @Test func aBoardFileWinsOverTheGenericFileForItsSoC() throws {
        let root = try makeFakeRoot(compatible: ["raspberrypi,4-model-b", "brcm,bcm2711"], model: "Raspberry Pi 4 Model B Rev 1.4")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(BoardDetector(catalog: catalog, root: root.path).detect()?.board.id == "rpi4b")
    }

    @Test func anUnknownOrDesktopMachineIsNotDetected() throws {
        let desktop = FileManager.default.temporaryDirectory.appendingPathComponent("ledring-empty-\(UUID().uuidString)")
        #expect(BoardDetector(catalog: catalog, root: desktop.path).detect() == nil)
        let other = try makeFakeRoot(compatible: ["acme,widget"], model: "ACME Widget")
        defer { try? FileManager.default.removeItem(at: other) }
        let detector = BoardDetector(catalog: catalog, root: other.path)
        #expect(detector.detect() == nil)
        #expect(detector.identity() == .init(compatible: ["acme,widget"], model: "ACME Widget"))
    }

    @Test func readsThroughTheSeam() {
        let fake = FakeSystemCalls()
        fake.addFile("/r/proc/device-tree/model", "Raspberry Pi 3 Model B Rev 1.2\n")
        let detection = BoardDetector(catalog: catalog, root: "/r", system: fake).detect()
        #expect(detection?.board.id == "rpi3b")
        #expect(fake.calls.contains(.readFile(path: "/r/proc/device-tree/compatible")))
    }
}
