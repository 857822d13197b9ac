import LEDHardware
import LEDWire
import Testing

@Suite struct GPIODriverTests {
    @Test func clockedDriversParse() throws {
        #expect(try GPIODriver(name: "apa102-gpio").variant == .apa102)
        #expect(try GPIODriver(name: "sk9822-gpio").variant == .sk9822)
    }

    @Test(arguments: ["ws2812-gpio", "sk6812-gpio", "ws2812", "neopixel-gpio"])
    func selfClockedChipsAreRefusedWithTheReasonAndAlternatives(name: String) {
        let error = #expect(throws: HardwareError.self) { try GPIODriver(name: name) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.exitCode == 78)
        #expect(error?.message.contains("±150 ns") == true)
        #expect(error?.fix.contains("ws2812-spi") == true)
        #expect(error?.fix.contains("/dev/leds0") == true)
    }

    @Test func unknownDriverListsTheKnownOnes() {
        let error = #expect(throws: HardwareError.self) { try GPIODriver(name: "lpd8806-gpio") }
        #expect(error?.fix == "use apa102-gpio or sk9822-gpio")
    }

    @Test func buildReportsWhichLibgpiodItHas() throws {
        // Whatever this build has, asking for lines either works or names the package to install.
        // The define is LEDHardware's own, so the test asks the library rather than using #if.
        guard SystemGPIO.compiledAPI == nil else { return }
        let error = #expect(throws: HardwareError.self) {
            try SystemGPIO.lines().requestOutputs(
                GPIOLineSelection(chipLabels: ["x"], lines: [.offset(1)]), initialValues: 0, consumer: "t")
        }
        #expect(error?.fix.contains("libgpiod-dev") == true)
    }
}
