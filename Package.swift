// swift-tools-version:6.0
// The package is split so that data flows one way: RingRender (pure maths) -> LEDWire (pure bytes)
// -> LEDHardware (the only code that touches the kernel) -> LEDRingApp (CLI, daemon) -> ledring.
import PackageDescription

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
    ],
    swiftLanguageModes: [.v6]
)
