/// The SPI clock a Raspberry Pi really produces for a requested rate, and the rate to request.
///
/// Both Pi SPI drivers (spi-bcm2835 on Pi 1–4, the RP1 DesignWare SSI on Pi 5) divide a source
/// clock by an even divider rounded up, so the real clock is at or below the request:
/// 3.0 MHz from a 250 MHz core is 250 / 84 ≈ 2.976 MHz.
public enum PiSPIClock {
    /// The rate to ask spidev for when driving WS2812 or SK6812: 3.6 MHz.
    ///
    /// It becomes 25/7 ≈ 3.571 MHz from every usual source clock (200 MHz RP1 / 56, 250 MHz
    /// core / 70, 400 / 112, 500 / 140), which sits inside the WS2812 4-bit band
    /// 3.158…3.763 MHz (−11.6 %, +5.4 %; the top is the measured 1063 ns shortest period) and
    /// inside SK6812's 2.667…4.444 MHz band for
    /// 1000/1100 symbols. The 2.632…3.077 MHz band is narrower (±7.8 %). No single request
    /// survives the core clock moving by 1.6× on a Pi 3/4 at run time, so the core clock must
    /// still be fixed (`core_freq`, `core_freq_min` in config.txt).
    public static let recommendedRequestHz: Double = 3_600_000

    /// The clock a Pi produces for `requestedHz` from a source clock of `sourceHz`: the source
    /// divided by the smallest even divider (≥ 2) that does not exceed the request.
    public static func actualHz(requestedHz: Double, sourceHz: Double) -> Double {
        guard requestedHz > 0, sourceHz > 0, requestedHz.isFinite, sourceHz.isFinite else { return 0 }
        var divider = (sourceHz / requestedHz - 1e-9).rounded(.up)
        if divider.truncatingRemainder(dividingBy: 2) != 0 { divider += 1 }
        return sourceHz / Swift.max(divider, 2)
    }
}
