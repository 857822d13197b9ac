import LEDRingControl
/// Splits a byte stream into request lines, refusing lines longer than the limit without ever
/// holding more than the limit in memory.
struct LineBuffer {
    /// What the buffer found in the bytes it was given.
    enum Event: Equatable, Sendable {
        /// A complete line, without its newline (and without a trailing `\r`).
        case line(String)
        /// A line longer than the limit; its bytes were dropped up to the next newline.
        case tooLong
    }

    /// Longest line accepted, bytes.
    let limit: Int
    private var pending: [UInt8] = []
    /// Dropping the rest of an over-long line until its newline.
    private var discarding = false

    /// A buffer for lines of at most `limit` bytes.
    init(limit: Int = Request.maxLineBytes) {
        self.limit = limit
    }

    /// Bytes waiting for their newline.
    var pendingCount: Int { pending.count }

    /// Takes `bytes` from the stream; returns the lines they complete.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var events: [Event] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                take(bytes[start...], into: &events)
                break
            }
            take(bytes[start..<newline], into: &events)
            if discarding {
                discarding = false
            } else {
                events.append(.line(LineBuffer.text(pending)))
            }
            pending.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        return events
    }

    /// The last line when the stream ends without a newline.
    mutating func finish() -> [Event] {
        defer { pending.removeAll(); discarding = false }
        guard !discarding, !pending.isEmpty else { return [] }
        return [.line(LineBuffer.text(pending))]
    }

    private mutating func take(_ part: ArraySlice<UInt8>, into events: inout [Event]) {
        guard !discarding else { return }
        if pending.count + part.count > limit {
            // Report once, at the moment the line passes the limit, then drop to its end.
            pending.removeAll(keepingCapacity: true)
            discarding = true
            events.append(.tooLong)
            return
        }
        pending.append(contentsOf: part)
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
