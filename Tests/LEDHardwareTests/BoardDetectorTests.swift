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
    ])
    func detectsFromARealFakeRoot(compatible: [String], model: String, id: String) throws {
        let root = try makeFakeRoot(compatible: compatible, model: model)
        defer { try? FileManager.default.removeItem(at: root) }
        let detection = BoardDetector(catalog: catalog, root: root.path).detect()
        #expect(detection?.board.id == id)
        #expect(detection?.evidence.contains("compatible") == true)
    }

    @Test func fallsBackToTheLongestModelPrefix() throws {
        let root = try makeFakeRoot(compatible: ["brcm,bcm2711"], model: "Raspberry Pi 400 Rev 1.1")
        defer { try? FileManager.default.removeItem(at: root) }
        let detection = BoardDetector(catalog: catalog, root: root.path).detect()
        #expect(detection?.board.id == "rpi400")
        #expect(detection?.evidence.contains("model") == true)
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
