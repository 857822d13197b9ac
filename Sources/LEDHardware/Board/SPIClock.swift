/// What clocks an SPI controller can make: a source clock and a divider rule.
public struct SPIClock: Hashable, Sendable {
    /// How the controller's driver turns a requested clock into a divider.
    public enum DividerRule: String, CaseIterable, Hashable, Sendable {
        /// BCM283x (`spi-bcm2835.c`), DesignWare (`spi-dw-core.c`), Rockchip
        /// (`spi-rockchip.c`) and Allwinner sun6i since Linux 5.8 / 4.19-stable (`spi-sun6i.c`,
        /// commit ed7815db70d1): divider = ceil(source / requested), rounded up to even, so the
        /// clock never exceeds the request (250 MHz, 3 MHz → 84 → 2.976 MHz; 24 MHz, 3.6 MHz →
        /// 8 → 3.0 MHz).
        case evenDivider
        /// OMAP McSPI (`spi-omap2-mcspi.c`): divider = ceil(source / requested), any integer.
        case integerDivider
    }

    /// The divider rule.
    public var rule: DividerRule
    /// The source clock the driver divides (Pi ≤ 4: the core clock it saw at probe time).
    public var sourceHz: UInt32?
    /// The lowest the source clock drops to when not fixed (Pi ≤ 4: core_freq_min).
    public var sourceMinHz: UInt32?
    /// The smallest divider the hardware allows.
    public var minDivider: UInt32
    /// The largest divider the hardware allows.
    public var maxDivider: UInt32
    /// Why the numbers are what they are.
    public var note: String

    /// The divider the driver picks for `requestedHz` from `sourceHz`.
    public func divider(requestedHz: UInt32, sourceHz source: UInt32) -> UInt32 {
        let request = UInt64(max(requestedHz, 1))
        let source64 = UInt64(source)
        var divider: UInt64
        switch rule {
        case .evenDivider:
            divider = (source64 + request - 1) / request
            divider += divider % 2
        case .integerDivider:
            divider = (source64 + request - 1) / request
        }
        return UInt32(min(max(divider, UInt64(minDivider)), UInt64(maxDivider)))
    }

    /// The clock the controller makes for `requestedHz`; nil when the source clock is unknown.
    public func actualHz(requestedHz: UInt32, sourceHz override: UInt32? = nil) -> UInt32? {
        guard let source = override ?? sourceHz, source > 0 else { return nil }
        return source / divider(requestedHz: requestedHz, sourceHz: source)
    }

    /// The range the clock can wander over when the source clock is not fixed: the divider
    /// is picked for `sourceHz` but applied to anything down to `sourceMinHz` (Pi 3/4).
    public func actualRangeHz(requestedHz: UInt32) -> ClosedRange<UInt32>? {
        guard let source = sourceHz, source > 0 else { return nil }
        let divider = divider(requestedHz: requestedHz, sourceHz: source)
        let low = min(sourceMinHz ?? source, source) / divider
        return low...(source / divider)
    }
}
