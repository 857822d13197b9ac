import LEDJSON
import LEDRingControl
import LEDSystem
import RingModel

/// The config's sources in the daemon's loop. A file is read when due; a command is started when
/// due (`start`, the daemon's `CommandRuns`) and what it printed handed in when it ends
/// (`finished`); an MQTT message is handed in as it comes (`received`). What either says becomes requests: a `set` of the ring (only when
/// the value changed, so a steady battery neither animates nor writes the state file every
/// minute) and, for a source with a `state`, the look its state maps to. A source with `stale`
/// that has had no good message for that long puts its ring in the spinner (or a look) and takes
/// it out again when messages come back. On a ring with a state source, staleness counts only
/// while a job runs (the state's latest listed word maps to `default`): printers publish nothing
/// while idle, paused or done, so a finished print's look stays. Pure but for the file reads,
/// which the daemon passes in (through the seam); its deadlines join the poll timeout, so a
/// daemon with sources wakes only when one is due.
struct SourcePoller {
    struct Entry: Equatable {
        var source: SourceConfig
        /// When the file is read or the command started next; never for an MQTT source.
        var nextRead: Double
        /// When the last good message came (or the poller started).
        var lastGood: Double
        var isStale = false
        /// The last value sent, so an unchanged one is not sent again.
        var lastSent: Request.RingValueUpdate?
        /// The last look a state switched to, likewise.
        var lastLook: String?
        /// The last state word, so a notification shows when its state comes, not on every repeat.
        var lastState: String?
        /// The look the last listed state word maps to, kept through staleness: `default` means a
        /// job runs, and only then do the ring's sources go stale.
        var stateLook: String?
        /// The last problem logged, so a missing file is said once, not every read.
        var complaint: String?
    }

    private(set) var entries: [Entry]

    /// The sources; files are due at once.
    init(sources: [SourceConfig], now: Double) {
        entries = sources.map { Entry(source: $0, nextRead: $0.isPolled ? now : .infinity, lastGood: now) }
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

    /// The next read or stale deadline; nil when there is none.
    var nextDeadline: Double? {
        let deadlines = entries.map { entry -> Double in
            guard let stale = entry.source.stale, !entry.isStale, isRunning(entry.source.ring) else { return entry.nextRead }
            return Swift.min(entry.nextRead, entry.lastGood + stale)
        }
        return deadlines.filter { $0 < Double.infinity }.min()
    }

    /// Reads the files due at `now`, starts the commands due (`start` answers a problem when one
    /// cannot be started), notes the sources gone stale, and returns the requests to apply, in
    /// order; `log` hears each new problem and each change of staleness.
    mutating func due(at now: Double, read: (String) throws(BoundedFile.Problem) -> [UInt8],
                      start: (SourceConfig) -> SourceProblem? = { _ in nil }, log: (String) -> Void) -> [Request] {
        var requests: [Request] = []
        for i in entries.indices {
            guard entries[i].source.isPolled, entries[i].nextRead <= now else { continue }
            // Keep the cadence; after a long stall, one read, not a burst to catch up.
            let every = entries[i].source.every
            entries[i].nextRead = Swift.max(entries[i].nextRead + every, now)
            if entries[i].nextRead == now { entries[i].nextRead = now + every }
            guard let file = entries[i].source.file else {
                if let problem = start(entries[i].source) { complain(problem, entry: i, log: log) }
                continue
            }
            do throws(SourceProblem) {
                requests += try take(try SourcePoller.bytes(of: file, read), entry: i, at: now, log: log)
            } catch {
                complain(error, entry: i, log: log)
            }
        }
        return requests + staleness(at: now, log: log)
    }

    /// A command source's run ended: what it printed, or why it gave nothing. A source no longer
    /// in the config (a reload dropped it while it ran) is ignored.
    mutating func finished(_ source: SourceConfig, _ outcome: Result<[UInt8], SourceProblem>, at now: Double,
                           log: (String) -> Void) -> [Request] {
        guard let i = entries.firstIndex(where: { $0.source == source }) else { return [] }
        do throws(SourceProblem) {
            return try take(try outcome.get(), entry: i, at: now, log: log)
        } catch {
            complain(error, entry: i, log: log)
            return []
        }
    }

    /// An MQTT message for source `index` (its position in the config's `sources`). A retained
    /// one is the state as it was when published, replayed by the broker on every (re)connect
    /// and restart: its value and look apply, but not its notification, which was news only
    /// when it came live (else a retained `failed` would flash the ring after every restart).
    mutating func received(_ payload: [UInt8], source index: Int, retained: Bool = false, at now: Double,
                           log: (String) -> Void) -> [Request] {
        guard entries.indices.contains(index) else { return [] }
        do throws(SourceProblem) {
            return try take(payload, entry: index, notifying: !retained, at: now, log: log)
        } catch {
            complain(error, entry: index, log: log)
            return []
        }
    }

    /// What a good read or message changes; throws (changing nothing) when it says nothing usable.
    private mutating func take(_ bytes: [UInt8], entry i: Int, notifying: Bool = true, at now: Double,
                               log: (String) -> Void) throws(SourceProblem) -> [Request] {
        let source = entries[i].source
        let ring = source.ring
        let reading = try SourcePoller.reading(from: bytes, source)
        var requests: [Request] = []
        if entries[i].complaint != nil { log("source \(source.label): values again") }
        entries[i].complaint = nil
        entries[i].lastGood = now
        if entries[i].isStale {
            entries[i].isStale = false
            requests.append(source.staleLook == nil ? .stop(rings: [ring]) : .look(rings: [ring], name: "default"))
            // Whatever the state said before comes back with the next one.
            entries[i].lastLook = nil
        }
        if let update = reading.value, update != entries[i].lastSent {
            entries[i].lastSent = update
            let duration = source.isPolled ? Swift.min(0.5, source.every / 2) : 0.5
            requests.append(.set(values: [update], duration: duration, curve: .easeInOut))
        }
        if let state = reading.state, let look = source.looks[state] {
            let wasRunning = isRunning(ring)
            entries[i].stateLook = look
            requests += jobChanged(ring: ring, from: wasRunning, at: now)
            if look != entries[i].lastLook {
                entries[i].lastLook = look
                requests.append(.look(rings: [ring], name: look))
            }
        }
        // A notification each time its state comes anew (a repeated state word, e.g. a
        // retained message seen again, does not show it twice).
        if notifying, let state = reading.state, state != entries[i].lastState, let notice = source.notices[state] {
            requests.append(.notify(notice))
        }
        if let state = reading.state { entries[i].lastState = state }
        return requests
    }

    private mutating func complain(_ error: SourceProblem, entry i: Int, log: (String) -> Void) {
        if entries[i].complaint != error.message { log("source \(entries[i].source.label) (ring \(entries[i].source.ring)): \(error.message)") }
        entries[i].complaint = error.message
    }

    /// The sources that have gone stale by `now`: their rings' spinner or look.
    private mutating func staleness(at now: Double, log: (String) -> Void) -> [Request] {
        var requests: [Request] = []
        for i in entries.indices {
            let source = entries[i].source
            guard let stale = source.stale, !entries[i].isStale, isRunning(source.ring), now >= entries[i].lastGood + stale else { continue }
            entries[i].isStale = true
            // A value that comes back must be sent again, even if it is the last one.
            entries[i].lastSent = nil
            log("source \(source.label): no value for \(DurationText.format(stale)); ring \(source.ring) shows "
                + (source.staleLook.map { "the look \($0)" } ?? "the spinner") + " until one comes")
            requests.append(source.staleLook.map { .look(rings: [source.ring], name: $0) } ?? .spin(rings: [source.ring]))
        }
        return requests
    }

    /// Whether `ring`'s sources can go stale: always, unless a state source feeds the ring; then
    /// only while its latest listed word maps to `default` (printing, not done, paused or idle).
    func isRunning(_ ring: String) -> Bool {
        let states = entries.filter { $0.source.ring == ring && $0.source.state != nil && !$0.source.looks.isEmpty }
        return states.isEmpty || states.contains { $0.stateLook == "default" }
    }

    /// A state word came for `ring`: a job that starts starts the stale clocks afresh (the last
    /// progress may be from the print before); one that ends takes the ring out of staleness
    /// (the spinner stops, or the stale look gives way) before the state's own look applies.
    private mutating func jobChanged(ring: String, from wasRunning: Bool, at now: Double) -> [Request] {
        let running = isRunning(ring)
        guard running != wasRunning else { return [] }
        var requests: [Request] = []
        for k in entries.indices where entries[k].source.ring == ring && entries[k].source.stale != nil {
            if running {
                entries[k].lastGood = Swift.max(entries[k].lastGood, now)
            } else if entries[k].isStale {
                entries[k].isStale = false
                entries[k].lastLook = nil
                requests.append(entries[k].source.staleLook == nil ? .stop(rings: [ring]) : .look(rings: [ring], name: "default"))
            }
        }
        return requests
    }

    /// Why a read or message gave nothing usable.
    struct SourceProblem: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Largest file a source reads or message it takes: a sysfs attribute or a small JSON document.
    static let maxBytes = 64 * 1024

    static func bytes(of file: String, _ read: (String) throws(BoundedFile.Problem) -> [UInt8]) throws(SourceProblem) -> [UInt8] {
        do {
            return try read(file)
        } catch {
            switch error {
            case .cannotOpen(let errno): throw SourceProblem("cannot read it (\(errno))")
            case .notRegular(let kind): throw SourceProblem("is \(kind), not a file")
            case .tooLarge: throw SourceProblem("is over \(maxBytes / 1024) KiB; point the source at a smaller file")
            case .readFailed(let errno): throw SourceProblem("reading it failed (\(errno))")
            }
        }
    }

    /// What one read or message says: the ring's value and/or the state word.
    struct Reading: Equatable {
        var value: Request.RingValueUpdate?
        var state: String?
    }

    /// The value (the number `value` points at in a JSON document, else the first number in the
    /// text; scaled by `range`) and the state word (`state` points at it), as the source asks.
    static func reading(from bytes: [UInt8], _ source: SourceConfig) throws(SourceProblem) -> Reading {
        guard bytes.count <= maxBytes else { throw SourceProblem("is over \(maxBytes / 1024) KiB") }
        var document: JSONValue?
        if source.value != nil || source.state != nil {
            do throws(JSONSyntaxError) { document = try JSONValue.parse(bytes) } catch {
                throw SourceProblem("is not JSON (\(error)), but \"\(source.value == nil ? "state" : "value")\" points into it")
            }
        }
        var reading = Reading()
        if let pointer = source.state, let document {
            switch document.at(pointer: pointer) {
            case .string(let s)?: reading.state = s
            case .number(let n)?: reading.state = JSONValue.format(n)
            case .bool(let b)?: reading.state = b ? "true" : "false"
            case let other?: throw SourceProblem("\(pointer) is \(other.shown), not a state word")
            case nil: throw SourceProblem("has nothing at \(pointer)")
            }
        }
        guard source.readsValue else { return reading }
        let text: String
        if let pointer = source.value, let document {
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
            reading.value = try InputScale.update(text, ring: source.ring, range: source.range)
        } catch {
            throw SourceProblem(error.message)
        }
        return reading
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
