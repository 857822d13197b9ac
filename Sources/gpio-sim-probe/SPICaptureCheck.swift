import LEDHardware
import LEDWire
import RingModel

/// Judges what ledring sent through the real kernel spidev to the capturing controller: the
/// clock the controller made against the board file's prediction, every WS2812/SK6812 bit
/// against its timing window at that clock, the transfer boundaries, and the decoded colours
/// against the simulated frame of the same state. Uses LEDWire's decoders, as the unit tests do.
struct SPICaptureCheck {
    /// `oneshot`: exactly one frame, the simulated one. `daemon`: the last frame is blank and
    /// the one before it is the simulated one.
    enum Run: String { case oneshot, daemon }

    var kind: DriverKind
    var board: Board
    /// The clock ledring was told to request (its driver's default unless `--spi-hz`).
    var requestedHz: UInt32
    var ledCount: Int
    /// The simulated frame's drive levels, chain order.
    var expected: [RGB8]
    var run: Run
    /// APA102 only: every transfer at most this long, and every frame split into several.
    var splitLimit: Int?

    /// Checks `capture`; returns report lines, or throws the first thing that is wrong.
    func check(_ capture: SPICapture) throws(CaptureError) -> [String] {
        guard capture.dropped == 0 else { throw CaptureError("the module dropped \(capture.dropped) transfers") }
        guard !capture.transfers.isEmpty else { throw CaptureError("no transfer was captured") }
        guard expected.count == ledCount else {
            throw CaptureError("the simulated frame has \(expected.count) LEDs, not \(ledCount)")
        }
        let requested = Int(requestedHz)
        guard let predicted = board.actualSPIClockHz(requestedHz: requestedHz) else {
            throw CaptureError("board \(board.id) predicts no SPI clock")
        }
        for transfer in capture.transfers {
            guard transfer.chipSelect == 0, transfer.mode & 0x3 == 0, transfer.bitsPerWord == 8 else {
                throw CaptureError("transfer \(transfer.seq): cs \(transfer.chipSelect) mode \(transfer.mode) "
                                   + "bits \(transfer.bitsPerWord), expected cs 0, SPI mode 0, 8 bits")
            }
            guard transfer.speedHz == requested else {
                throw CaptureError("transfer \(transfer.seq) asked for \(transfer.speedHz) Hz, ledring requests \(requested)")
            }
            guard transfer.effectiveHz == Int(predicted) else {
                throw CaptureError("transfer \(transfer.seq): the controller made \(transfer.effectiveHz) Hz "
                                   + "(divider \(transfer.divider)) but ledring's \(board.id) board file predicts \(predicted) Hz")
            }
        }
        var lines = ["clock: asked \(requested) Hz, controller made \(predicted) Hz = \(board.id)'s prediction, "
                     + "\(capture.transfers.count) transfers, SPI mode 0, 8 bits, cs 0"]
        let frames: [[RGBW8]]
        let wanted: [RGBW8]
        if let chip = kind.clocklessChip {
            (frames, lines) = try clockless(chip, capture, clockHz: Double(predicted), lines: lines)
            let white: WhiteExtraction = chip.defaultColorOrder.hasWhite ? .minimum : .none
            wanted = expected.map { white.split($0) }
        } else if let variant = kind.apa102Variant {
            (frames, lines) = try clocked(variant, capture, lines: lines)
            wanted = expected.map { RGBW8(r: $0.r, g: $0.g, b: $0.b, w: 0) }
        } else {
            throw CaptureError("\(kind.rawValue) is not an SPI driver")
        }
        let dark = [RGBW8](repeating: RGBW8(r: 0, g: 0, b: 0, w: 0), count: ledCount)
        switch run {
        case .oneshot:
            guard frames.count == 1 else { throw CaptureError("one-shot sent \(frames.count) frames, expected 1") }
            try compare(frames[0], wanted, what: "the one-shot frame")
        case .daemon:
            guard frames.count >= 2 else { throw CaptureError("the daemon sent \(frames.count) frames, expected a lit one and the blank") }
            guard frames[frames.count - 1] == dark else {
                throw CaptureError("the last captured frame (after SIGTERM) is not blank: \(describe(frames[frames.count - 1]))")
            }
            try compare(frames[frames.count - 2], wanted, what: "the daemon's last lit frame")
        }
        lines.append("colours: \(run == .oneshot ? "the frame" : "the last lit frame") matches the simulated frame, "
                     + "\(ledCount) LEDs" + (run == .daemon ? "; then a blank frame (\(frames.count) frames)" : ""))
        return lines
    }

    /// Every transfer one whole frame; every bit inside its window at `clockHz`.
    func clockless(_ chip: ClocklessChip, _ capture: SPICapture, clockHz: Double,
                   lines: [String]) throws(CaptureError) -> ([[RGBW8]], [String]) {
        let timing = chip.defaultTiming
        let decoder = SPISymbolDecoder(clockHz: clockHz, colorOrder: chip.defaultColorOrder,
                                       thresholdNs: timing.decisionThresholdNs)
        let latchNs = chip.defaultResetMicroseconds * 1000
        var frames: [[RGBW8]] = []
        var bitsChecked = 0
        var zeroHigh = (Double.infinity, -Double.infinity), oneHigh = zeroHigh, period = zeroHigh
        let slack = 1e-6
        func inside(_ value: Double, _ window: ClosedRange<Double>) -> Bool {
            value >= window.lowerBound - slack && value <= window.upperBound + slack
        }
        for transfer in capture.transfers {
            guard transfer.index == 0, transfer.last else {
                throw CaptureError("transfer \(transfer.seq) is part \(transfer.index) of message \(transfer.message): "
                                   + "a \(chip) frame must be one transfer")
            }
            let decoded: DecodedSymbolFrame
            do { decoded = try decoder.decode(transfer.bytes) } catch {
                throw CaptureError("transfer \(transfer.seq) does not decode: \(error.message)")
            }
            guard decoded.pixels.count == ledCount else {
                throw CaptureError("transfer \(transfer.seq) holds \(decoded.pixels.count) LEDs, expected \(ledCount)")
            }
            guard decoded.leadingLowNs >= latchNs - slack, decoded.trailingLowNs >= latchNs - slack else {
                throw CaptureError("transfer \(transfer.seq): low \(Int(decoded.leadingLowNs)) ns before and "
                                   + "\(Int(decoded.trailingLowNs)) ns after the data, \(chip) needs \(Int(latchNs)) ns")
            }
            for (index, bit) in decoded.bits.enumerated() {
                let window = bit.value ? timing.oneHigh : timing.zeroHigh
                let isLast = index == decoded.bits.count - 1
                let bitPeriod = bit.highNs + bit.lowNs
                guard inside(bit.highNs, window), bit.lowNs >= timing.minimumLow - slack,
                      isLast || inside(bitPeriod, timing.period) else {
                    throw CaptureError("transfer \(transfer.seq) bit \(index) (a \(bit.value ? 1 : 0)): high \(Int(bit.highNs.rounded())) ns, "
                                       + "low \(Int(bit.lowNs.rounded())) ns at \(Int(clockHz)) Hz; \(chip) allows high \(window), "
                                       + "period \(timing.period), low ≥ \(timing.minimumLow)")
                }
                if bit.value {
                    oneHigh = (min(oneHigh.0, bit.highNs), max(oneHigh.1, bit.highNs))
                } else {
                    zeroHigh = (min(zeroHigh.0, bit.highNs), max(zeroHigh.1, bit.highNs))
                }
                if !isLast { period = (min(period.0, bitPeriod), max(period.1, bitPeriod)) }
                bitsChecked += 1
            }
            frames.append(decoded.pixels)
        }
        func span(_ range: (Double, Double)) -> String {
            range.0 > range.1 ? "none" : "\(Int(range.0.rounded()))–\(Int(range.1.rounded())) ns"
        }
        return (frames, lines + [
            "frames: \(frames.count), each one transfer of \(capture.transfers[0].bytes.count) bytes",
            "timing: \(bitsChecked) bits inside the \(chip) windows at \(Int(clockHz)) Hz: T0H \(span(zeroHigh)) "
                + "(\(timing.zeroHigh)), T1H \(span(oneHigh)) (\(timing.oneHigh)), period \(span(period)) (\(timing.period))",
        ])
    }

    /// Frames cut from the transfers in order; a transfer never spans two frames.
    func clocked(_ variant: APA102Variant, _ capture: SPICapture, lines: [String]) throws(CaptureError) -> ([[RGBW8]], [String]) {
        let encoder: APA102Encoder
        do { encoder = try APA102Encoder(variant: variant) } catch { throw CaptureError(error.message) }
        let frameLength = encoder.encodedLength(ledCount: ledCount)
        var frames: [[RGBW8]] = []
        var pending: [UInt8] = []
        var pieces = 0
        var piecesPerFrame: [Int] = []
        for transfer in capture.transfers {
            if let splitLimit, transfer.bytes.count > splitLimit {
                throw CaptureError("transfer \(transfer.seq) is \(transfer.bytes.count) bytes, over the \(splitLimit) spidev takes")
            }
            pending += transfer.bytes
            pieces += 1
            guard pending.count >= frameLength else { continue }
            guard pending.count == frameLength else {
                throw CaptureError("transfer \(transfer.seq) runs \(pending.count - frameLength) bytes past a \(frameLength)-byte frame")
            }
            let pixels: [APA102Pixel]
            do { pixels = try encoder.decode(pending, ledCount: ledCount) } catch {
                throw CaptureError("frame \(frames.count) does not decode: \(error.message)")
            }
            for (index, pixel) in pixels.enumerated() where pixel.brightness != encoder.globalBrightness {
                throw CaptureError("frame \(frames.count) LED \(index) has brightness field \(pixel.brightness), expected \(encoder.globalBrightness)")
            }
            frames.append(pixels.map { RGBW8(r: $0.colour.r, g: $0.colour.g, b: $0.colour.b, w: 0) })
            piecesPerFrame.append(pieces)
            pending = []
            pieces = 0
        }
        guard pending.isEmpty else { throw CaptureError("\(pending.count) bytes left over after the last whole frame") }
        if splitLimit != nil, let fewest = piecesPerFrame.min(), fewest < 2 {
            throw CaptureError("a \(frameLength)-byte frame went out in \(fewest) transfer; expected it split")
        }
        return (frames, lines + [
            "frames: \(frames.count) of \(frameLength) bytes, in \(Set(piecesPerFrame).sorted().map(String.init).joined(separator: "/")) "
                + "transfer(s) each, decoded by APA102Encoder.decode (start frame, 0b111 markers, end bytes)",
        ])
    }

    func compare(_ got: [RGBW8], _ wanted: [RGBW8], what: String) throws(CaptureError) {
        guard got != wanted else { return }
        let differing = zip(got, wanted).enumerated().filter { $0.element.0 != $0.element.1 }
        let shown = differing.prefix(3).map { "LED \($0.offset) got \(hex($0.element.0)) simulated \(hex($0.element.1))" }
        throw CaptureError("\(what) differs from the simulated frame at \(differing.count) LEDs: " + shown.joined(separator: "; "))
    }

    func describe(_ frame: [RGBW8]) -> String { frame.prefix(4).map(hex).joined(separator: " ") + "…" }

    func hex(_ colour: RGBW8) -> String {
        func two(_ value: UInt8) -> String { (value < 16 ? "0" : "") + String(value, radix: 16) }
        return "#" + two(colour.r) + two(colour.g) + two(colour.b) + (colour.w > 0 ? "+w" + two(colour.w) : "")
    }

    /// The `"#rrggbb"` drive levels of a `--simulate --format json` frame, in chain order.
    static func simulatedPixels(json: String) -> [RGB8] {
        let bytes = Array(json.utf8)
        var pixels: [RGB8] = []
        var index = 0
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        while index + 8 < bytes.count {
            if bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "#"), bytes[index + 8] == UInt8(ascii: "\"") {
                let values = (0..<6).compactMap { digit(bytes[index + 2 + $0]) }
                if values.count == 6 {
                    pixels.append(RGB8(r: values[0] << 4 | values[1], g: values[2] << 4 | values[3], b: values[4] << 4 | values[5]))
                    index += 9
                    continue
                }
            }
            index += 1
        }
        return pixels
    }
}
