import LEDHardware
import LEDRingTesting
import LEDWire
import RingModel
import Testing

@Suite struct GPIOClockedTransportTests {
    static let chip = "pinctrl-bcm2711"

    func makeFake() -> FakeGPIO {
        let fake = FakeGPIO()
        fake.addChip(label: "gpio-other", lineCount: 8)
        fake.addChip(label: Self.chip, lineCount: 58, names: (0..<58).map { "GPIO\($0)" })
        return fake
    }

    @Test(arguments: APA102Variant.allCases)
    func bitStreamDecodesBackToTheColours(variant: APA102Variant) throws {
        let fake = makeFake()
        let encoder = try APA102Encoder(variant: variant, globalBrightness: 17)
        let pixels: [RGB8] = (0..<20).map { (index: Int) -> RGB8 in
            RGB8(r: UInt8(index * 12), g: UInt8(255 - index), b: UInt8(index % 3 * 100))
        }
        let frame = try encoder.encode(pixels)
        let transport = try GPIOClockedTransport(
            lines: fake, chipLabels: ["pinctrl-rp1", Self.chip], data: .offset(23), clock: .name("GPIO24"))
        #expect(transport.dataLine == GPIOResolvedLine(chipLabel: Self.chip, offset: 23, name: "GPIO23"))
        try transport.send(frame, framing: .splittable)

        let bytes = fake.clockedBytes(chip: Self.chip, data: 23, clock: 24)
        #expect(bytes == frame)
        let decoded = try encoder.decode(bytes, ledCount: pixels.count)
        #expect(decoded.map { $0.colour } == pixels)
        #expect(decoded.allSatisfy { $0.brightness == 17 })
        // Two bulk updates per bit and one to idle: data and clock never need separate calls.
        #expect(fake.bulkUpdates == frame.count * 16 + 1)
        #expect(transport.bitsSent == frame.count * 8)
        // Mode 0: the clock idles low after the frame.
        #expect(fake.level(chip: Self.chip, offset: 24) == false)
    }

    @Test func consecutiveFramesFollowEachOtherExactly() throws {
        let fake = makeFake()
        let encoder = try APA102Encoder()
        let first = try encoder.encode([RGB8(r: 1, g: 2, b: 3)])
        let second = try encoder.encode([RGB8(r: 0xFF, g: 0, b: 0x80)])
        let transport = try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(10), clock: .offset(11))
        try transport.send(first)
        try transport.send(second, framing: .splittable)
        #expect(fake.clockedBytes(chip: Self.chip, data: 10, clock: 11) == first + second)
    }

    @Test func linesAreReleasedOnCloseAndDeinit() throws {
        let fake = makeFake()
        do {
            let transport = try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(2), clock: .offset(3))
            #expect(fake.owner(chip: Self.chip, offset: 2) == "ledring")
            try transport.close()
            #expect(fake.owner(chip: Self.chip, offset: 2) == nil)
            let error = #expect(throws: HardwareError.self) { try transport.send([1]) }
            #expect(error?.kind == .closed)
            try transport.close()
        }
        do {
            _ = try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(4), clock: .offset(5))
        }
        #expect(fake.owner(chip: Self.chip, offset: 4) == nil)
        #expect(fake.owner(chip: Self.chip, offset: 5) == nil)
    }

    @Test func missingChipNamesTheLabelsPresent() throws {
        let fake = makeFake()
        let error = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: ["pinctrl-rp1"], data: .offset(2), clock: .offset(3))
        }
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains("\"pinctrl-rp1\"") == true)
        #expect(error?.message.contains("\"\(Self.chip)\" (58 lines)") == true)
        #expect(error?.exitCode == 69)
    }

    @Test func busyLineNamesItsHolderAndTheOverlay() throws {
        let fake = makeFake()
        fake.claim(chip: Self.chip, offset: 11, by: "spi0 CS0")
        let error = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(10), clock: .offset(11))
        }
        #expect(error?.kind == .busy)
        #expect(error?.message.contains("line 11 on \(Self.chip)") == true)
        #expect(error?.message.contains("spi0 CS0") == true)
        #expect(error?.fix.contains("dtparam=spi=off") == true)
        // Nothing stays claimed after a failed request.
        #expect(fake.owner(chip: Self.chip, offset: 10) == nil)
    }

    @Test func permissionProblemsNameTheGPIOGroup() throws {
        let fake = makeFake()
        fake.failNextRequest = .permissionDenied
        let error = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(10), clock: .offset(11))
        }
        #expect(error?.kind == .permissionDenied)
        #expect(error?.exitCode == 77)
        #expect(error?.fix.contains("`gpio` group") == true)
    }

    /// EPERM on a chip is the device cgroup (systemd's DeviceAllow=), where the group cannot help.
    @Test func aDevicePolicyRefusalNamesTheUnitsDeviceAllow() throws {
        let fake = makeFake()
        fake.failNextRequest = .notPermitted
        let error = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(10), clock: .offset(11))
        }
        #expect(error?.kind == .permissionDenied)
        #expect(error?.exitCode == 77)
        #expect(error?.fix.contains("DeviceAllow=char-gpiochip rw") == true)
        #expect(error?.fix.contains("usermod") == false)
    }

    @Test func badLinesAreConfigurationErrors() throws {
        let fake = makeFake()
        let outOfRange = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(58), clock: .offset(11))
        }
        #expect(outOfRange?.kind == .invalidConfiguration)
        #expect(outOfRange?.message.contains("0…57") == true)
        let unknownName = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .name("GPIO99"), clock: .offset(11))
        }
        #expect(unknownName?.message.contains("\"GPIO99\"") == true)
        let same = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [Self.chip], data: .offset(7), clock: .name("GPIO7"))
        }
        #expect(same?.message.contains("named twice") == true)
    }

    @Test func chipFoundByLineNameAlone() throws {
        let fake = makeFake()
        let transport = try GPIOClockedTransport(lines: fake, chipLabels: [], data: .name("GPIO5"), clock: .name("GPIO6"))
        #expect(transport.clockLine.chipLabel == Self.chip)
        let byOffset = #expect(throws: HardwareError.self) {
            try GPIOClockedTransport(lines: fake, chipLabels: [], data: .offset(1), clock: .offset(2))
        }
        #expect(byOffset?.kind == .invalidConfiguration)
    }

    @Test func deniedChipsTurnAMissingLabelIntoAPermissionError() throws {
        let chips = [
            GPIOChipInfo(path: "/dev/gpiochip0", label: "other", lineCount: 4),
            GPIOChipInfo(path: "/dev/gpiochip1", label: nil, lineCount: 0, openError: .permissionDenied),
        ]
        let error = #expect(throws: HardwareError.self) {
            try GPIOChipResolver.resolve(
                GPIOLineSelection(chipLabels: ["pinctrl-rp1"], lines: [.offset(1)]), chips: chips) { _, _ in nil }
        }
        #expect(error?.kind == .permissionDenied)
        #expect(error?.message.contains("/dev/gpiochip1 (cannot open: Permission denied)") == true)
        let none = #expect(throws: HardwareError.self) {
            try GPIOChipResolver.resolve(GPIOLineSelection(chipLabels: ["x"], lines: [.offset(1)]), chips: []) { _, _ in nil }
        }
        #expect(none?.message.contains("no GPIO chips") == true)
    }
}
