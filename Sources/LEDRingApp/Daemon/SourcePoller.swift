import LEDJSON
import LEDRingControl
import LEDSystem
import RingRender

/// The config's file sources in the daemon's loop: each file is read when due and what it says
/// becomes a request, a `set` of its ring (only when the value changed, so a steady battery
/// neither animates nor writes the state file every minute); a source with `stale` that has had
/// no good value for that long puts its ring in the spinner (or a look) and takes it out again
/// when values come back. Pure but for the reads, which the daemon passes in (through the seam);
/// its deadlines join the poll timeout, so a daemon with sources wakes only when one is due.
struct SourcePoller {
    struct Entry: Equatable {
        var source: SourceConfig
        var nextRead: Double
        /// When the last good value came (or the poller started).
        var lastGood: Double
        var isStale = false
        /// The last value sent, so an unchanged one is not sent again.
        var lastSent: Request.RingValueUpdate?
        /// The last problem logged, so a missing file is said once, not every read.
        var complaint: String?
    }

    private(set) var entries: [Entry]

    /// The sources, each due at once.
    init(sources: [SourceConfig], now: Double) {
        entries = sources.map { Entry(source: $0, nextRead: now, lastGood: now) }
    }

    /// The poller for a reloaded config's `sources`: a source that did not change keeps its
    /// schedule, staleness and last value (a ring stale before the reload comes back as before).
    func carried(to sources: [SourceConfig], now: Double) -> SourcePoller {
        var next = SourcePoller(sources: sources, now: now)
        for i in next.entries.indices {
            if let kept = entries.first(where: { $0.source == next.entries[i].source }) { next.entries[i] = kept }
        }
        return next
    }

    /// The next read or stale deadline; nil without sources.
    var nextDeadline: Double? {
        entries.map { entry in
            guard let stale = entry.source.stale, !entry.isStale else { return entry.nextRead }
            return Swift.min(entry.nextRead, entry.lastGood + stale)
        }.min()
    }

    /// Reads what is due at `now` and returns the requests to apply, in order; `log` hears each
    /// new problem and each change of staleness.
    mutating func due(at now: Double, read: (String) throws(BoundedFile.Problem) -> [UInt8], log: (String) -> Void) -> [Request] {
        var requests: [Request] = []
        for i in entries.indices {
            var entry = entries[i]
            let ring = entry.source.ring
            if entry.nextRead <= now {
                // Keep the cadence; after a long stall, one read, not a burst to catch up.
                entry.nextRead = Swift.max(entry.nextRead + entry.source.every, now)
                if entry.nextRead == now { entry.nextRead = now + entry.source.every }
                do throws(SourceProblem) {
                    let update = try SourcePoller.update(from: try SourcePoller.bytes(of: entry.source, read), entry.source)
                    if entry.complaint != nil { log("source \(entry.source.file): values again") }
                    entry.complaint = nil
                    entry.lastGood = now
                    if entry.isStale {
                        entry.isStale = false
                        requests.append(entry.source.staleLook == nil ? .stop(rings: [ring]) : .look(rings: [ring], name: "default"))
                    }
                    if update != entry.lastSent {
                        entry.lastSent = update
                        requests.append(.set(values: [update], duration: Swift.min(0.5, entry.source.every / 2), curve: .easeInOut))
                    }
                } catch {
                    if entry.complaint != error.message { log("source \(entry.source.file) (ring \(ring)): \(error.message)") }
                    entry.complaint = error.message
                }
            }
            if let stale = entry.source.stale, !entry.isStale, now >= entry.lastGood + stale {
                entry.isStale = true
                // A value that comes back must be sent again, even if it is the last one.
                entry.lastSent = nil
                log("source \(entry.source.file): no value for \(DurationText.format(stale)); ring \(ring) shows "
                    + (entry.source.staleLook.map { "the look \($0)" } ?? "the spinner") + " until one comes")
                requests.append(entry.source.staleLook.map { .look(rings: [ring], name: $0) } ?? .spin(rings: [ring]))
            }
            entries[i] = entry
        }
        return requests
    }

    /// Why a read gave no value.
    struct SourceProblem: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Largest file a source reads: a sysfs attribute or a small JSON document.
    static let maxBytes = 64 * 1024

    static func bytes(of source: SourceConfig, _ read: (String) throws(BoundedFile.Problem) -> [UInt8]) throws(SourceProblem) -> [UInt8] {
        do {
            return try read(source.file)
        } catch {
            switch error {
            case .cannotOpen(let errno): throw SourceProblem("cannot read it (\(errno))")
            case .notRegular(let kind): throw SourceProblem("is \(kind), not a file")
            case .tooLarge: throw SourceProblem("is over \(maxBytes / 1024) KiB; point the source at a smaller file")
            case .readFailed(let errno): throw SourceProblem("reading it failed (\(errno))")
            }
        }
    }

    /// The ring's new value from what a source read: the number its `value` pointer names in a
    /// JSON document, else the first number in the text; scaled by the source's `range`.
    static func update(from bytes: [UInt8], _ source: SourceConfig) throws(SourceProblem) -> Request.RingValueUpdate {
        let text: String
        if let pointer = source.value {
            let document: JSONValue
            do throws(JSONSyntaxError) { document = try JSONValue.parse(bytes) } catch {
                throw SourceProblem("is not JSON (\(error)), but \"value\" points into it")
            }
            switch document.at(pointer: pointer) {
            case .number(let n)?: text = JSONValue.format(n)
            case .string(let s)?: text = s
            case let other?: throw SourceProblem("\(pointer) is \(other.shown), not a number")
            case nil: throw SourceProblem("has nothing at \(pointer)")
            }
        } else {
            guard let first = SourcePoller.firstNumber(in: String(decoding: bytes, as: UTF8.self)) else {
                throw SourceProblem("has no number in it")
            }
            text = first
        }
        do throws(RequestError) {
            return try InputScale.update(text, ring: source.ring, range: source.range)
        } catch {
            throw SourceProblem(error.message)
        }
    }

    /// The first word of `text` that reads as a number or a percentage (`87`, `21.5`, `40%`).
    static func firstNumber(in text: String) -> String? {
        var word = ""
        for c in text + " " {
            if c.isASCII && (c.isNumber || c == "." || c == "-" || c == "+" || c == "%" || c == "e" || c == "E") {
                word.append(c)
                continue
            }
            if !word.isEmpty, ProgressText.parse(word) != nil { return word }
            word = ""
        }
        return nil
    }
}

/// A number as a program or a file writes it, turned into a ring's value: with an input range,
/// onto one lap (past its end the ring laps on, up to 100 laps); without one, as `set` reads it.
/// `ledring feed` and the file sources share it.
enum InputScale {
    static func update(_ text: String, ring: String, range: ValueRange?) throws(RequestError) -> Request.RingValueUpdate {
        let update = try Request.update(text, ring: ring)
        guard let range, !update.percent else { return update }
        return Request.RingValueUpdate(ring: ring, value: Swift.min(range.laps(update.value), Request.maxValue))
    }
}
