import LEDJSON

/// One benchmark result: a case at a chain length, per frame and per LED.
struct Measurement {
    /// `render`, `encode-ws2812`, `encode-apa102` or `whole-path`.
    var name: String
    /// LEDs in the frame.
    var leds: Int
    /// Best nanoseconds per frame over the repetitions.
    var nsPerFrame: Double
    /// The frame's time on the wire (WS2812 at 3.571 MHz, latch included), for the share.
    var wireMicroseconds: Double

    var nsPerLED: Double { nsPerFrame / Double(leds) }
    /// Software time as a share of the wire time, in percent.
    var wireShare: Double { nsPerFrame / (wireMicroseconds * 1000) * 100 }

    var json: String {
        JSONValue.object([
            ("case", .string(name)), ("leds", .integer(leds)), ("ns_per_frame", .number(rounded(nsPerFrame, 1))),
            ("ns_per_led", .number(rounded(nsPerLED, 2))), ("wire_us", .number(rounded(wireMicroseconds, 1))),
            ("wire_share_percent", .number(rounded(wireShare, 4))),
        ]).jsonText
    }

    static let tableHeader = pad("case", 14) + pad("LEDs", 6, right: true) + pad("ns/frame", 12, right: true)
        + pad("ns/LED", 9, right: true) + pad("wire µs", 10, right: true) + pad("% of wire", 11, right: true)

    var tableRow: String {
        Measurement.pad(name, 14) + Measurement.pad(String(leds), 6, right: true)
            + Measurement.pad(format(nsPerFrame, 0), 12, right: true) + Measurement.pad(format(nsPerLED, 1), 9, right: true)
            + Measurement.pad(format(wireMicroseconds, 0), 10, right: true) + Measurement.pad(format(wireShare, 3), 11, right: true)
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}

/// `value` rounded to `digits` decimals, for a JSON number.
func rounded(_ value: Double, _ digits: Int) -> Double {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (value * scale).rounded() / scale
}

/// `value` with exactly `digits` decimals for the table.
func format(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    if digits == 0 { return String(scaled) }
    let whole = scaled / Int(scale), fraction = scaled % Int(scale)
    let f = String(fraction)
    return "\(whole)." + String(repeating: "0", count: digits - f.count) + f
}
