import LEDHardware

/// GPIO chips in memory: records every request, value change and release in one ordered log,
/// and lets tests drive input lines, which queues edge events like the kernel does.
public final class FakeGPIO: GPIOLines {
    /// A line on a fake chip.
    public struct LineKey: Hashable, Sendable, CustomStringConvertible {
        /// The chip's label.
        public var chip: String
        /// The line's offset.
        public var offset: UInt32

        /// Creates a key.
        public init(chip: String, offset: UInt32) {
            self.chip = chip
            self.offset = offset
        }

        /// `chip:offset`.
        public var description: String { "\(chip):\(offset)" }
    }

    /// One entry of the log, in the order things happened.
    public enum Event: Hashable, Sendable {
        /// Lines were requested (outputs with their first levels, or inputs).
        case requested(lines: [LineKey], output: Bool, consumer: String)
        /// An output line changed level (unchanged lines in a bulk update are not logged).
        case changed(line: LineKey, to: Bool)
        /// Lines were given back.
        case released(lines: [LineKey])
    }

    private struct Chip {
        var label: String
        var names: [String]
        var levels: [Bool]
        var owners: [String?]
    }

    private var fakeChips: [Chip] = []
    private var watchers: [Inputs] = []
    private var loggedLines: Set<LineKey> = []
    /// Every request, change and release, in order.
    public private(set) var log: [Event] = []
    /// Bulk updates made (`setValues` calls), for counting kernel calls.
    public private(set) var bulkUpdates = 0
    /// When set, the next request fails with this errno, as the kernel would.
    public var failNextRequest: Errno?

    /// Creates a fake with no chips.
    public init() {}

    /// Adds a chip with `lineCount` lines (named from `names` where given), all low.
    public func addChip(label: String, lineCount: Int, names: [String] = []) {
        let padded = (0..<lineCount).map { $0 < names.count ? names[$0] : "" }
        fakeChips.append(Chip(label: label, names: padded, levels: Array(repeating: false, count: lineCount),
                              owners: Array(repeating: nil, count: lineCount)))
    }

    /// The current level of a line (an output's value, or an input's driven level).
    public func level(chip: String, offset: UInt32) -> Bool {
        guard let index = chipIndex(chip), Int(offset) < fakeChips[index].levels.count else { return false }
        return fakeChips[index].levels[Int(offset)]
    }

    /// Who holds a line, nil when it is free (to check every exit path released it).
    public func owner(chip: String, offset: UInt32) -> String? {
        guard let index = chipIndex(chip), Int(offset) < fakeChips[index].owners.count else { return nil }
        return fakeChips[index].owners[Int(offset)]
    }

    /// Marks a line as held by another consumer (a kernel driver or another program).
    public func claim(chip: String, offset: UInt32, by consumer: String) {
        guard let index = chipIndex(chip), Int(offset) < fakeChips[index].owners.count else { return }
        fakeChips[index].owners[Int(offset)] = consumer
    }

    /// Drives an input line to `level` at `timestampNanoseconds`, as a button or encoder contact
    /// would; a change on a watched line queues an edge event for its request.
    public func drive(chip: String, offset: UInt32, to level: Bool, at timestampNanoseconds: UInt64) {
        guard let index = chipIndex(chip), Int(offset) < fakeChips[index].levels.count else { return }
        guard fakeChips[index].levels[Int(offset)] != level else { return }
        fakeChips[index].levels[Int(offset)] = level
        let key = LineKey(chip: chip, offset: offset)
        for watcher in watchers where !watcher.released {
            if let position = watcher.keys.firstIndex(of: key) {
                watcher.queue.append(GPIOEdgeEvent(
                    index: position, edge: level ? .rising : .falling, timestampNanoseconds: timestampNanoseconds))
            }
        }
    }

    /// The levels of `line` after each change, in order (its first level included).
    public func history(chip: String, offset: UInt32) -> [Bool] {
        let key = LineKey(chip: chip, offset: offset)
        return log.compactMap { event in
            if case .changed(key, let level) = event { return level }
            return nil
        }
    }

    /// Every timeout a request was asked to wait, in order (to check the loop waits, not spins).
    public private(set) var waits: [Int64] = []

    // MARK: - GPIOLines

    /// The fake chips as `/dev/gpiochipN` nodes.
    public func chips() throws(HardwareError) -> [GPIOChipInfo] {
        fakeChips.enumerated().map { index, chip in
            GPIOChipInfo(path: "/dev/gpiochip\(index)", label: chip.label, lineCount: chip.levels.count)
        }
    }

    /// Requests outputs; logs the first levels as changes.
    public func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines {
        let (chip, keys, resolved) = try claim(selection, consumer: consumer, output: true)
        let outputs = Outputs(fake: self, chip: chip, keys: keys, lines: resolved)
        apply(initialValues, keys: keys, chip: chip)
        return outputs
    }

    /// Requests inputs with edge events.
    public func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines {
        let (chip, keys, resolved) = try claim(selection, consumer: consumer, output: false)
        let inputs = Inputs(fake: self, chip: chip, keys: keys, lines: resolved)
        watchers.append(inputs)
        return inputs
    }

    // MARK: - Internals

    private func chipIndex(_ label: String) -> Int? {
        fakeChips.firstIndex { $0.label == label }
    }

    private func claim(
        _ selection: GPIOLineSelection, consumer: String, output: Bool
    ) throws(HardwareError) -> (Int, [LineKey], [GPIOResolvedLine]) {
        let (info, offsets) = try GPIOChipResolver.resolve(selection, chips: try chips()) { info, name in
            guard let label = info.label, let index = chipIndex(label),
                  let offset = fakeChips[index].names.firstIndex(of: name) else { return nil }
            return UInt32(offset)
        }
        guard let label = info.label, let chip = chipIndex(label) else {
            throw HardwareError(kind: .notFound, message: "fake chip vanished")
        }
        if let errno = failNextRequest {
            failNextRequest = nil
            throw HardwareError.gpio(errno, chip: label, operation: "requesting")
        }
        for offset in offsets {
            if let holder = fakeChips[chip].owners[Int(offset)] {
                throw HardwareError.gpio(.busy, chip: label, line: "line \(offset)", consumer: holder, operation: "requesting")
            }
        }
        for offset in offsets { fakeChips[chip].owners[Int(offset)] = consumer }
        let keys = offsets.map { LineKey(chip: label, offset: $0) }
        log.append(.requested(lines: keys, output: output, consumer: consumer))
        let resolved = offsets.map {
            GPIOResolvedLine(chipLabel: label, offset: $0, name: fakeChips[chip].names[Int($0)])
        }
        return (chip, keys, resolved)
    }

    fileprivate func apply(_ mask: UInt64, keys: [LineKey], chip: Int) {
        for (index, key) in keys.enumerated() {
            let level = GPIOValueMask.level(mask, index)
            // A line's first level is logged even when it equals the idle level, so histories start there.
            if fakeChips[chip].levels[Int(key.offset)] != level || !loggedLines.contains(key) {
                fakeChips[chip].levels[Int(key.offset)] = level
                loggedLines.insert(key)
                log.append(.changed(line: key, to: level))
            }
        }
    }

    fileprivate func set(_ mask: UInt64, keys: [LineKey], chip: Int) {
        bulkUpdates += 1
        apply(mask, keys: keys, chip: chip)
    }

    fileprivate func release(_ keys: [LineKey], chip: Int) {
        for key in keys { fakeChips[chip].owners[Int(key.offset)] = nil }
        log.append(.released(lines: keys))
    }

    fileprivate func recordWait(_ timeout: Int64) { waits.append(timeout) }

    fileprivate func levels(of keys: [LineKey], chip: Int) -> UInt64 {
        GPIOValueMask.make(keys.map { fakeChips[chip].levels[Int($0.offset)] })
    }

    private final class Outputs: GPIOOutputLines {
        weak var fake: FakeGPIO?
        let chip: Int
        let keys: [LineKey]
        let lines: [GPIOResolvedLine]
        var released = false

        deinit { release() }

        init(fake: FakeGPIO, chip: Int, keys: [LineKey], lines: [GPIOResolvedLine]) {
            self.fake = fake
            self.chip = chip
            self.keys = keys
            self.lines = lines
        }

        func setValues(_ values: UInt64) throws(HardwareError) {
            guard !released else {
                throw HardwareError(kind: .closed, message: "fake GPIO outputs \(keys) used after release()")
            }
            fake?.set(values, keys: keys, chip: chip)
        }

        func release() {
            guard !released else { return }
            released = true
            fake?.release(keys, chip: chip)
        }
    }

    fileprivate final class Inputs: GPIOInputLines {
        weak var fake: FakeGPIO?
        let chip: Int
        let keys: [LineKey]
        let lines: [GPIOResolvedLine]
        var queue: [GPIOEdgeEvent] = []
        var released = false

        deinit { release() }

        init(fake: FakeGPIO, chip: Int, keys: [LineKey], lines: [GPIOResolvedLine]) {
            self.fake = fake
            self.chip = chip
            self.keys = keys
            self.lines = lines
        }

        /// A fake has no descriptors; `waitForEvents` answers from the queue instead.
        var pollDescriptors: [Int32] { [] }

        func readValues() throws(HardwareError) -> UInt64 {
            try checkOpen()
            return fake?.levels(of: keys, chip: chip) ?? 0
        }

        func readEvents(ready descriptor: Int32) throws(HardwareError) -> [GPIOEdgeEvent] {
            try checkOpen()
            defer { queue.removeAll() }
            return queue
        }

        /// Returns the queued events at once, or none (a timeout) when nothing is queued.
        func waitForEvents(timeoutNanoseconds: Int64) throws(HardwareError) -> [GPIOEdgeEvent] {
            try checkOpen()
            fake?.recordWait(timeoutNanoseconds)
            defer { queue.removeAll() }
            return queue
        }

        func release() {
            guard !released else { return }
            released = true
            fake?.release(keys, chip: chip)
        }

        private func checkOpen() throws(HardwareError) {
            if released { throw HardwareError(kind: .closed, message: "fake GPIO inputs \(keys) used after release()") }
        }
    }
}
