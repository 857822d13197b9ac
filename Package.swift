// swift-tools-version:6.0
// The package is split so that data flows one way: RingRender (pure maths) -> LEDWire (pure bytes)
// -> LEDHardware (the only code that touches the kernel) -> LEDRingApp (CLI, daemon) -> ledring.
import Foundation
import PackageDescription

// libgpiod: Debian 12 / Raspberry Pi OS Bookworm ship the 1.6 C API, Debian 13 and newer ship 2.x,
// whose API is different. The header says which one is installed; without a header the package
// still builds (GPIO features then throw an error naming the package to install), so a desktop
// or CI machine without libgpiod can still run `--simulate` and the tests.
// LEDRING_GPIOD_HEADER overrides the search: a path to another gpiod.h, or `none` to build as if
// libgpiod were missing.
// SwiftPM caches this evaluation (keyed on this file and the environment, not on gpiod.h), so
// after installing or upgrading libgpiod run `swift package purge-cache` before rebuilding.
enum GPIODAPI: String { case v1 = "GPIOD_V1", v2 = "GPIOD_V2" }

func detectGPIODAPI() -> GPIODAPI? {
    var candidates = ["/usr/include/gpiod.h", "/usr/local/include/gpiod.h"]
    if let override = ProcessInfo.processInfo.environment["LEDRING_GPIOD_HEADER"], !override.isEmpty {
        candidates = override == "none" ? [] : [override]
    }
    for path in candidates {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        // 2.x replaced the 1.x line/bulk calls with request and settings objects.
        if text.contains("gpiod_request_config") && text.contains("gpiod_line_settings") { return .v2 }
        if text.contains("gpiod_line_request_bulk") { return .v1 }
    }
    return nil
}

let gpiodAPI = detectGPIODAPI()
let gpiodTargets: [Target] = gpiodAPI == nil ? [] : [
    .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
]
let hardwareDependencies: [Target.Dependency] = ["LEDWire", "CSpidev"] + (gpiodAPI == nil ? [] : ["CGPIOD"])
let hardwareSettings: [SwiftSetting] = gpiodAPI.map { [.define($0.rawValue)] } ?? []

let package = Package(
    name: "ledring",
    products: [
        .executable(name: "ledring", targets: ["ledring"]),
        .executable(name: "ledring-bench", targets: ["ledring-bench"]),
        .library(name: "RingRender", targets: ["RingRender"]),
        .library(name: "LEDWire", targets: ["LEDWire"]),
        .library(name: "LEDHardware", targets: ["LEDHardware"]),
        .library(name: "LEDRingTesting", targets: ["LEDRingTesting"]),
    ],
    targets: [
        .target(name: "RingRender"),
        .target(name: "LEDWire", dependencies: ["RingRender"]),
        .target(name: "CSpidev"),
        .target(name: "LEDHardware", dependencies: hardwareDependencies, swiftSettings: hardwareSettings),
        .target(name: "LEDRingTesting", dependencies: ["LEDHardware"]),
        .target(name: "LEDRingApp", dependencies: ["RingRender", "LEDWire", "LEDHardware"]),
        .executableTarget(name: "ledring", dependencies: ["LEDRingApp"]),
        .executableTarget(name: "ledring-bench", dependencies: ["RingRender", "LEDWire", "LEDHardware"]),
        // Drives the GPIO code on a real kernel chip for tools/gpio-sim-test.sh (QEMU + gpio-sim).
        .executableTarget(name: "gpio-sim-probe", dependencies: ["LEDHardware", "LEDWire", "RingRender"]),
        .testTarget(name: "RingRenderTests", dependencies: ["RingRender", "LEDRingTesting"], exclude: ["Golden"]),
        .testTarget(name: "LEDWireTests", dependencies: ["LEDWire"]),
        .testTarget(name: "LEDHardwareTests", dependencies: ["LEDHardware", "LEDRingTesting"]),
        .testTarget(name: "LEDRingAppTests", dependencies: ["LEDRingApp", "LEDRingTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ledring", "ledring-bench", "LEDWire"]),
    ] + gpiodTargets,
    swiftLanguageModes: [.v6]
)
