/// The transfers the ledring_spi_capture kernel module recorded (tools/spi-capture), parsed from
/// /sys/kernel/debug/ledring-spi-capture/transfers.
struct SPICapture {
    /// One recorded transfer.
    struct Transfer {
        var seq: Int
        var message: Int
        var index: Int
        var last: Bool
        var chipSelect: Int
        var mode: Int
        var bitsPerWord: Int
        var speedHz: Int
        var effectiveHz: Int
        var divider: Int
        var bytes: [UInt8]
    }

    /// Transfers the module had no room for (must be 0 for a capture to be judged).
    var dropped: Int
    /// Every transfer in the order the controller saw them.
    var transfers: [Transfer]

    /// Parses the module's text: a `capture … dropped N …` head line, then one `xfer` line each.
    init(text: String) throws(CaptureError) {
        var dropped: Int?
        var transfers: [Transfer] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let kind = words.first else { continue }
            // "capture bytes N dropped N …" pairs from the second word; "xfer SEQ msg M …"
            // from the third. An empty transfer ends in "data" with no value.
            let pairsFrom = kind == "xfer" ? 2 : 1
            var fields: [String: String] = [:]
            var index = pairsFrom
            while index + 1 < words.count {
                fields[words[index]] = words[index + 1]
                index += 2
            }
            func number(_ key: String) throws(CaptureError) -> Int {
                let text = fields[key] ?? ""
                let hex = text.hasPrefix("0x")
                guard let value = Int(hex ? String(text.dropFirst(2)) : text, radix: hex ? 16 : 10) else {
                    throw CaptureError("capture line lacks a number for \"\(key)\": \(line.prefix(120))")
                }
                return value
            }
            switch kind {
            case "capture":
                dropped = try number("dropped")
            case "xfer":
                guard words.count > 2, let seq = Int(words[1]) else { throw CaptureError("short xfer line: \(line.prefix(120))") }
                let bytes = try Self.bytes(hex: words.last == "data" ? "" : fields["data"] ?? "")
                let length = try number("len")
                guard bytes.count == length else {
                    throw CaptureError("transfer \(seq) says len \(length) but carries \(bytes.count) bytes")
                }
                transfers.append(Transfer(
                    seq: seq, message: try number("msg"), index: try number("index"), last: try number("last") == 1,
                    chipSelect: try number("cs"), mode: try number("mode"), bitsPerWord: try number("bits"),
                    speedHz: try number("speed"), effectiveHz: try number("effective"), divider: try number("divider"),
                    bytes: bytes))
            default:
                throw CaptureError("unexpected capture line: \(line.prefix(120))")
            }
        }
        guard let dropped else { throw CaptureError("the capture has no head line; is the module loaded?") }
        self.dropped = dropped
        self.transfers = transfers
    }

    static func bytes(hex: String) throws(CaptureError) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { throw CaptureError("odd number of hex digits") }
        func value(_ digit: UInt8) throws(CaptureError) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            default: throw CaptureError("not a hex digit: \(digit)")
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            bytes.append(try value(digits[index]) << 4 | value(digits[index + 1]))
            index += 2
        }
        return bytes
    }
}

/// Why a capture, or what it says, is not what the check expected.
struct CaptureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
