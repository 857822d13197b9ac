// swift-tools-version:6.0
// The package is split so that data flows one way: RingModel (the domain's values) -> RingRender
// (pure maths) -> LEDWire (pure bytes) -> LEDHardware (the only code that touches the kernel) -> LEDRingApp (CLI, daemon) -> ledring;
// LEDPresentation (how a frame is shown: text, JSON, terminal and SVG pictures) sits beside
// LEDHardware, pure, so describing a frame never links a kernel library.
// LEDRingControl (the commands, their limits and the controller) is what every front end speaks;
// it stands on RingModel alone and hands the renderer a Scene, so the domain never links the drawing.
import Foundation
import PackageDescription

// Optional C libraries are used only when their header is on this machine, so a machine with only
// the Swift toolchain still builds and runs `--simulate` and the tests. LEDRING_<NAME>_HEADER
// overrides each search: a path to another header, or `none` to build as if the library were
// missing (how the header-less build is tested on a machine that has the libraries).
// SwiftPM caches this evaluation (keyed on this file and the environment, not on the headers), so
// after installing or upgrading a library run `swift package purge-cache` before rebuilding.
func headerCandidates(_ name: String, override variable: String) -> [String] {
    if let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
        return override == "none" ? [] : [override]
    }
    return ["/usr/include/\(name)", "/usr/local/include/\(name)"]
}

// libgpiod: Debian 12 / Raspberry Pi OS Bookworm ship the 1.6 C API, Debian 13 and newer ship 2.x,
// whose API is different. The header says which one is installed; without a header the package
// still builds (GPIO features then throw an error naming the package to install), so a desktop
// or CI machine without libgpiod can still run `--simulate` and the tests.
enum GPIODAPI: String { case v1 = "GPIOD_V1", v2 = "GPIOD_V2" }

func detectGPIODAPI() -> GPIODAPI? {
    for path in headerCandidates("gpiod.h", override: "LEDRING_GPIOD_HEADER") {
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
let hardwareDependencies: [Target.Dependency] = ["RingModel", "RingRender", "LEDWire", "LEDSystem", "LEDJSON", "CLinux"] + (gpiodAPI == nil ? [] : ["CGPIOD"])
let hardwareSettings: [SwiftSetting] = gpiodAPI.map { [.define($0.rawValue)] } ?? []

// The MQTT bridge of the full build uses libmosquitto (for TLS to the broker; the static build
// has ledring's own MQTT client instead, and both builds have ledring's own HTTP server). A
// machine with only the Swift toolchain must still build and run `--simulate`, so libmosquitto is
// used only when its header is found; LEDRING_MQTT then switches the bridge on, and without it
// the bridge throws an error naming the package to install (LEDRING_MOSQUITTO_HEADER).
func systemHeaderFound(_ name: String, override variable: String) -> Bool {
    headerCandidates(name, override: variable).contains { FileManager.default.fileExists(atPath: $0) }
}

let hasMosquitto = systemHeaderFound("mosquitto.h", override: "LEDRING_MOSQUITTO_HEADER")
// Not linked: the C target opens the library with dlopen when MQTT is configured (linking it and
// the TLS libraries it pulls in costs every `ledring run` about 4.5 MB of memory), and forwards
// the calls ledring makes. Building still needs the -dev header.
let netSystemTargets: [Target] = hasMosquitto
    ? [.target(name: "CLibraryLoader"), .target(name: "CMosquitto", dependencies: ["CLibraryLoader"])] : []
let netDependencies: [Target.Dependency] = ["RingModel", "LEDJSON", "LEDRingControl", "LEDSystem", "LEDDNS", "LEDMQTT"]
    + (hasMosquitto ? ["CMosquitto"] : [])
let netSettings: [SwiftSetting] = hasMosquitto ? [.define("LEDRING_MQTT")] : []

let package = Package(
    name: "ledring",
    products: [
        .executable(name: "ledring", targets: ["ledring"]),
        .executable(name: "ledring-bench", targets: ["ledring-bench"]),
        .library(name: "RingModel", targets: ["RingModel"]),
        .library(name: "RingRender", targets: ["RingRender"]),
        .library(name: "LEDWire", targets: ["LEDWire"]),
        .library(name: "LEDJSON", targets: ["LEDJSON"]),
        .library(name: "LEDHardware", targets: ["LEDHardware"]),
        .library(name: "LEDPresentation", targets: ["LEDPresentation"]),
        .library(name: "LEDRingControl", targets: ["LEDRingControl"]),
        .library(name: "LEDRingTesting", targets: ["LEDRingTesting"]),
        .library(name: "LEDRingTestSupport", targets: ["LEDRingTestSupport"]),
        .library(name: "LEDRingNet", targets: ["LEDRingNet"]),
    ],
    targets: [
        // libm for the pure targets without a platform module, so they also build in Embedded Swift.
        .target(name: "CMath"),
        // The domain's values, below everything else: a ring's spec, layout, state, looks and
        // appearance, the colours they are written in (RGB8, sRGB, OKLab gradients), the
        // progress grammar and the scene a controller hands the renderer.
        .target(name: "RingModel", dependencies: ["CMath"]),
        // The drawing: scenes to linear light, the colour pipeline, current limiting, dithering.
        .target(name: "RingRender", dependencies: ["RingModel"]),
        .target(name: "LEDWire", dependencies: ["RingModel", "RingRender"]),
        // The one JSON value type, its strict parser, writer and path-carrying reader: no
        // Foundation, so configs, state files and payloads cost a static binary no ICU.
        .target(name: "LEDJSON"),
        // The ring-control domain: the one command vocabulary, its limits and checks, the socket
        // protocol's parsing, snapshots and the controller; the CLI, socket, MQTT and HTTP all go
        // through it, so a command means and is checked the same whichever way it arrives.
        .target(name: "LEDRingControl", dependencies: ["RingModel", "LEDJSON"]),
        .target(name: "CLinux"),
        // The syscall seam: one thin typed wrapper per call, EINTR retried in one place, a fake in
        // LEDRingTesting that can fail any of them; everything that touches the kernel goes through it.
        .target(name: "LEDSystem", dependencies: ["CLinux"]),
        .target(name: "LEDHardware", dependencies: hardwareDependencies, swiftSettings: hardwareSettings),
        // How frames are shown (text, JSON, ANSI and SVG pictures): pure, so the simulated output
        // and its tests link no kernel library.
        .target(name: "LEDPresentation", dependencies: ["RingModel", "RingRender", "CMath"]),
        // Test support in four parts, so a test links only what it uses: pure helpers, kernel
        // fakes, the broker/browser/CA harness of the network tests, and the ring-control double.
        .target(name: "LEDRingTestSupport"),
        .target(name: "LEDRingTesting", dependencies: ["LEDHardware"]),
        .target(name: "LEDRingNetTesting", dependencies: ["CLinux"]),
        // The real controller behind a test clock, recording what the front ends sent.
        .target(name: "LEDRingControlTesting", dependencies: ["LEDRingControl", "RingModel", "RingRender"]),
        .target(name: "LEDRingApp", dependencies: ["RingModel", "RingRender", "LEDWire", "LEDJSON", "LEDSystem", "LEDHardware", "LEDPresentation", "LEDRingControl", "LEDRingNet"]),
        .executableTarget(name: "ledring", dependencies: ["LEDRingApp"]),
        .executableTarget(name: "ledring-bench", dependencies: ["RingModel", "RingRender", "LEDWire", "LEDJSON", "LEDHardware", "LEDRingControl"]),
        // Drives the GPIO code on a real kernel chip for tools/gpio-sim-test.sh (QEMU + gpio-sim).
        .executableTarget(name: "gpio-sim-probe", dependencies: ["LEDHardware", "LEDWire", "RingModel"]),
        .testTarget(name: "RingRenderTests", dependencies: ["RingModel", "RingRender", "LEDRingTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "LEDJSONTests", dependencies: ["LEDJSON", "LEDRingTestSupport"]),
        .testTarget(name: "LEDWireTests", dependencies: ["LEDWire", "LEDRingTestSupport"]),
        .testTarget(name: "LEDHardwareTests", dependencies: ["LEDHardware", "LEDRingTesting"]),
        .testTarget(name: "LEDPresentationTests", dependencies: ["LEDPresentation", "RingModel", "RingRender"]),
        .testTarget(name: "LEDRingControlTests", dependencies: ["LEDRingControl", "LEDRingControlTesting", "LEDJSON", "RingModel", "RingRender"]),
        .testTarget(name: "LEDRingAppTests", dependencies: ["LEDRingApp", "LEDJSON", "LEDRingControl", "LEDRingControlTesting", "LEDRingTesting", "LEDRingNetTesting"]),
        // LEDRingApp for its command-line table: the tests loop over every verb and option it has.
        .testTarget(name: "EndToEndTests", dependencies: ["ledring", "ledring-bench", "LEDRingApp", "LEDWire", "LEDRingNet", "LEDRingNetTesting"]),
        .target(name: "LEDRingNet", dependencies: netDependencies, swiftSettings: netSettings),
        // ledring's own name lookup (/etc/hosts, resolv.conf, DNS and one-shot multicast DNS
        // queries), sans-IO: the static Pi binaries cannot use glibc's NSS, and a lookup must not
        // stop the daemon's poll loop the way getaddrinfo(3) would.
        .target(name: "LEDDNS", dependencies: ["LEDSystem"]),
        .testTarget(name: "LEDDNSTests", dependencies: ["LEDDNS", "LEDSystem", "LEDRingTesting", "LEDRingNetTesting"]),
        // ledring's own MQTT 3.1.1 client: a sans-IO codec and session (bytes in, bytes out,
        // deadlines) and MQTTLink, which drives one on a TCP socket through the LEDSystem seam
        // as a descriptor of the daemon's poll loop; no Foundation, so the full build and the
        // Embedded Pi binaries share one implementation (Debian ships no static libmosquitto).
        .target(name: "LEDMQTT", dependencies: ["LEDSystem"]),
        // The codec's golden bytes and the session's clock rules; MQTTLink against the fake
        // kernel's TCP (LEDRingTesting) and, over the real system calls, against the real
        // Mosquitto broker of LEDRingNetTesting.
        .testTarget(name: "LEDMQTTTests", dependencies: ["LEDMQTT", "LEDSystem", "LEDRingTesting", "LEDRingNetTesting"]),
        .testTarget(name: "LEDRingNetTests", dependencies: ["LEDRingNet", "LEDJSON", "LEDRingControl", "LEDRingControlTesting", "RingModel", "LEDRingNetTesting"], swiftSettings: netSettings),
    ] + gpiodTargets + netSystemTargets,
    swiftLanguageModes: [.v6]
)
