import LEDWire
import Testing

@Suite("Raspberry Pi SPI clocks")
struct PiSPIClockTests {
    @Test("the divider rounds the clock down to an even divider")
    func rounding() {
        #expect(abs(PiSPIClock.actualHz(requestedHz: 3.0e6, sourceHz: 250e6) - 250e6 / 84) < 1e-6)
        #expect(abs(PiSPIClock.actualHz(requestedHz: 3.5e6, sourceHz: 250e6) - 250e6 / 72) < 1e-6)
        #expect(PiSPIClock.actualHz(requestedHz: 125e6, sourceHz: 250e6) == 125e6)
        #expect(PiSPIClock.actualHz(requestedHz: 0, sourceHz: 250e6) == 0)
    }

    @Test("the recommended request works for every chip from every usual source clock",
          arguments: [200e6, 250e6, 300e6, 400e6, 500e6])
    func recommended(sourceHz: Double) throws {
        let actual = PiSPIClock.actualHz(requestedHz: PiSPIClock.recommendedRequestHz, sourceHz: sourceHz)
        #expect(abs(actual - 25e6 / 7) < 1e-3)
        for chip in ClocklessChip.allCases {
            let encoder = try SPISymbolEncoder(chip: chip, clockHz: actual)
            #expect(encoder.scheme.width == .fourBit)
            let pixels = Fixtures.randomFrame(count: 8, seed: 8)
            let decoded = try encoder.decoder.decode(try encoder.encode(pixels))
            #expect(decoded.pixels.count == pixels.count)
        }
    }
}
