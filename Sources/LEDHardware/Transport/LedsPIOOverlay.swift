/// The `ws2812-pio` overlay's settings for one `/dev/ledsN`, read at run time from the device
/// tree, so ledring knows the frame length the driver takes and the gamma it applies.
///
/// Source: raspberrypi/linux `arch/arm/boot/dts/overlays/ws2812-pio-overlay.dts` (node
/// `ws2812_pio@<gpio>` with `dev-name = "leds%d"`, `rpi,num-leds`, `rpi,brightness`, `rpi,rgbw`)
/// and `drivers/misc/ws2812-pio-rp1.c` `ws2812_pio_rp1_probe` (num-leds required; brightness
/// defaults to 255 and is capped at 255; rgbw is a boolean property; the node name is
/// `dev-name` formatted with the instance number).
public struct LedsPIOOverlay: Hashable, Sendable {
    /// The device-tree node, e.g. `/proc/device-tree/ws2812_pio@18` (without the root prefix).
    public var node: String
    /// `rpi,num-leds`: LEDs the driver sends; a frame holds `numLEDs × 4` bytes.
    public var numLEDs: Int
    /// `rpi,brightness`: the kernel's brightness at boot (255 when the property is absent).
    public var brightness: UInt8
    /// `rpi,rgbw`: whether the W byte is sent.
    public var rgbw: Bool
    /// `dev-name`, e.g. `leds%d`.
    public var devName: String

    /// Creates overlay settings.
    public init(node: String, numLEDs: Int, brightness: UInt8 = 255, rgbw: Bool = false, devName: String = "leds%d") {
        self.node = node
        self.numLEDs = numLEDs
        self.brightness = brightness
        self.rgbw = rgbw
        self.devName = devName
    }

    /// Bytes the driver holds per frame.
    public var frameBytes: Int { numLEDs * 4 }

    /// The `ws2812_pio@*` node that makes `device` under `root`, or nil when there is none (not a
    /// Pi 5, overlay not loaded, a plain file as `--device`) or when several could (two instances
    /// named `leds%d`: the instance numbers follow probe order, which the tree does not record).
    public static func find(device: String, root: String = "/", system: any SystemCalls) -> LedsPIOOverlay? {
        let system = RetryingSystemCalls(system)
        let base = "/proc/device-tree"
        guard let entries = try? system.listDirectory(RootPath.join(root, base)) else { return nil }
        let name = device.split(separator: "/").last.map(String.init) ?? device
        var matches: [LedsPIOOverlay] = []
        for entry in entries where entry.hasPrefix("ws2812_pio@") {
            let node = base + "/" + entry
            func property(_ key: String) -> [UInt8]? {
                try? system.readFile(RootPath.join(root, node + "/" + key))
            }
            guard let count = property("rpi,num-leds").flatMap(bigEndianUInt32) else { continue }
            let brightness = property("rpi,brightness").flatMap(bigEndianUInt32).map { UInt8(min($0, 255)) } ?? 255
            let devName = property("dev-name").map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? "leds%d"
            let overlay = LedsPIOOverlay(node: node, numLEDs: Int(count), brightness: brightness,
                                         rgbw: property("rpi,rgbw") != nil, devName: devName)
            if overlay.couldName(name) { matches.append(overlay) }
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Whether `dev-name` formatted with some instance number is `name`.
    func couldName(_ name: String) -> Bool {
        guard let marker = devName.indices.first(where: { devName[$0...].hasPrefix("%d") }) else { return devName == name }
        let prefix = devName[..<marker], suffix = devName[devName.index(marker, offsetBy: 2)...]
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
            return false
        }
        let number = name.dropFirst(prefix.count).dropLast(suffix.count)
        return number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A device-tree cell: 4 bytes, big-endian.
    static func bigEndianUInt32(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
