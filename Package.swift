// swift-tools-version:6.0
// The package is split so that data flows one way: RingRender (pure maths) -> LEDWire (pure bytes)
// -> LEDHardware (the only code that touches the kernel) -> LEDRingApp (CLI, daemon) -> ledring.
import Foundation
import PackageDescription

// Network front ends (LEDRingNet) use libmosquitto for MQTT and libmicrohttpd for HTTP. A machine
// with only the Swift toolchain must still build and run `--simulate`, so each C library is linked
// only when its header is found; the matching define (LEDRING_MQTT, LEDRING_HTTP) then switches the
// real implementation on, and without it the front end throws an error naming the package to
// install. LEDRING_MOSQUITTO_HEADER and LEDRING_MICROHTTPD_HEADER override the search: a path to
// another header, or `none` to build as if the library were missing (how the header-less build is
// tested on a machine that has the libraries).
func systemHeaderFound(_ name: String, override variable: String) -> Bool {
    var candidates = ["/usr/include/\(name)", "/usr/local/include/\(name)"]
    if let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
        candidates = override == "none" ? [] : [override]
    }
    return candidates.contains { FileManager.default.fileExists(atPath: $0) }
}

let hasMosquitto = systemHeaderFound("mosquitto.h", override: "LEDRING_MOSQUITTO_HEADER")
let hasMicroHTTPD = systemHeaderFound("microhttpd.h", override: "LEDRING_MICROHTTPD_HEADER")
let netSystemTargets: [Target] =
    (hasMosquitto ? [.systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto",
                                    providers: [.apt(["libmosquitto-dev"])])] : [])
    + (hasMicroHTTPD ? [.systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                                       providers: [.apt(["libmicrohttpd-dev"])])] : [])
let netDependencies: [Target.Dependency] = ["RingRender"]
    + (hasMosquitto ? ["CMosquitto"] : []) + (hasMicroHTTPD ? ["CMicroHTTPD"] : [])
let netSettings: [SwiftSetting] =
    (hasMosquitto ? [.define("LEDRING_MQTT")] : []) + (hasMicroHTTPD ? [.define("LEDRING_HTTP")] : [])

let package = Package(
    name: "ledring",
    products: [
        .executable(name: "ledring", targets: ["ledring"]),
        .executable(name: "ledring-bench", targets: ["ledring-bench"]),
        .library(name: "RingRender", targets: ["RingRender"]),
        .library(name: "LEDWire", targets: ["LEDWire"]),
        .library(name: "LEDHardware", targets: ["LEDHardware"]),
        .library(name: "LEDRingTesting", targets: ["LEDRingTesting"]),
        .library(name: "LEDRingNet", targets: ["LEDRingNet"]),
    ],
    targets: [
        .target(name: "RingRender"),
        .target(name: "LEDWire", dependencies: ["RingRender"]),
        .target(name: "CSpidev"),
        .target(name: "LEDHardware", dependencies: ["LEDWire", "CSpidev"]),
        .target(name: "LEDRingTesting", dependencies: ["LEDHardware"]),
        .target(name: "LEDRingApp", dependencies: ["RingRender", "LEDWire", "LEDHardware"]),
        .executableTarget(name: "ledring", dependencies: ["LEDRingApp"]),
        .executableTarget(name: "ledring-bench", dependencies: ["RingRender", "LEDWire", "LEDHardware"]),
        .testTarget(name: "RingRenderTests", dependencies: ["RingRender", "LEDRingTesting"], exclude: ["Golden"]),
        .testTarget(name: "LEDWireTests", dependencies: ["LEDWire"]),
        .testTarget(name: "LEDHardwareTests", dependencies: ["LEDHardware", "LEDRingTesting"]),
        .testTarget(name: "LEDRingAppTests", dependencies: ["LEDRingApp", "LEDRingTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ledring", "ledring-bench", "LEDWire"]),
        .target(name: "LEDRingNet", dependencies: netDependencies, swiftSettings: netSettings),
        .testTarget(name: "LEDRingNetTests", dependencies: ["LEDRingNet", "RingRender"], swiftSettings: netSettings),
    ] + netSystemTargets,
    swiftLanguageModes: [.v6]
)
