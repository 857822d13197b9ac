/// The single-wire ("clockless") LED chips the SPI symbol encoder drives.
public enum ClocklessChip: String, Hashable, Sendable, CaseIterable {
    /// The original WS2812 (GRB, 24 bits per LED).
    case ws2812
    /// WS2812B, pre-V5 or V5 (GRB, 24 bits per LED).
    case ws2812b
    /// WS2813 with the backup data line (GRB, 24 bits per LED).
    case ws2813
    /// SK6812 RGB (GRB, 24 bits per LED).
    case sk6812
    /// SK6812 RGBW (GRBW, 32 bits per LED).
    case sk6812rgbw

    /// The channel order the chip expects unless the strip says otherwise.
    public var defaultColorOrder: ColorOrder {
        self == .sk6812rgbw ? .grbw : .grb
    }

    /// The low time (µs) after which the chip latches the frame.
    ///
    /// 280 µs for WS2812 and WS2812B: a WS2812B-V5 needs it (datasheet ≥ 280 µs), and a strip
    /// sold as "WS2812B" may hold V5 parts, so the pre-V5 50 µs would leave them showing stale
    /// colours. WS2813: 300 µs (its datasheet's RES, "300µs or more" for WS2813A–D; FastLED's
    /// timing table too). SK6812: 80 µs per its datasheet.
    public var defaultResetMicroseconds: Double {
        switch self {
        case .ws2812, .ws2812b: 280
        case .ws2813: 300
        case .sk6812, .sk6812rgbw: 80
        }
    }

    /// The pulse windows used unless a caller passes stricter or looser ones: the WS2812
    /// intersection for every WS281x name, the SK6812 datasheet for SK6812.
    public var defaultTiming: SymbolTiming {
        switch self {
        case .ws2812, .ws2812b, .ws2813: .ws2812
        case .sk6812, .sk6812rgbw: .sk6812
        }
    }
}
