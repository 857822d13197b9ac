#if GPIOD_V1
import CGPIOD
import Glibc

/// GPIO lines through libgpiod 1.6 (Debian 12, Raspberry Pi OS Bookworm): the only file that
/// calls the 1.x C API. Package.swift compiles it when the installed `gpiod.h` is 1.x.
///
/// In 1.x a line object belongs to its open chip, so each request keeps its chip open until
/// `release()`; a request's event descriptors are one per line.
public final class LibgpiodV1Lines: GPIOLines {
    /// Where the `gpiochipN` nodes are.
    public let deviceDirectory: String
    private let system: any SystemCalls

    /// Uses the chips in `deviceDirectory`; `system` lists that directory.
    public init(deviceDirectory: String = "/dev", system: any SystemCalls = LinuxSystemCalls()) {
        self.deviceDirectory = deviceDirectory
        self.system = system
    }

    /// The library's version, e.g. "1.6.3".
    public static var libraryVersion: String { String(cString: gpiod_version_string()) }

    /// Opens every chip once to read its label and line count.
    public func chips() throws(HardwareError) -> [GPIOChipInfo] {
        try GPIOChipDevices.paths(in: deviceDirectory, system: system).map { path in
            guard let chip = gpiod_chip_open(path) else {
                return GPIOChipInfo(path: path, label: nil, lineCount: 0, openError: Errno.current)
            }
            defer { gpiod_chip_close(chip) }
            return GPIOChipInfo(
                path: path, label: String(cString: gpiod_chip_label(chip)), lineCount: Int(gpiod_chip_num_lines(chip)))
        }
    }

    /// Requests outputs with their first levels in one bulk request.
    public func requestOutputs(
        _ selection: GPIOLineSelection, initialValues: UInt64, consumer: String
    ) throws(HardwareError) -> any GPIOOutputLines {
        let request = try Request(lines: self, selection: selection)
        var values = (0..<request.offsets.count).map { Int32(GPIOValueMask.level(initialValues, $0) ? 1 : 0) }
        let result = consumer.withCString { name in
            gpiod_line_request_bulk_output_flags(&request.bulk, name, 0, &values)
        }
        if result < 0 { throw request.failure(Errno.current, operation: "requesting as output") }
        request.requested = true
        return Outputs(request)
    }

    /// Requests inputs with both edges and `bias` in one bulk request.
    public func requestInputs(
        _ selection: GPIOLineSelection, bias: GPIOBias, consumer: String
    ) throws(HardwareError) -> any GPIOInputLines {
        let request = try Request(lines: self, selection: selection)
        let flags: Int
        switch bias {
        case .asIs: flags = 0
        case .disabled: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE
        case .pullUp: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP
        case .pullDown: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN
        }
        let result = consumer.withCString { name in
            gpiod_line_request_bulk_both_edges_events_flags(&request.bulk, name, Int32(truncatingIfNeeded: flags))
        }
        if result < 0 { throw request.failure(Errno.current, operation: "requesting for edge events") }
        request.requested = true
        return Inputs(request)
    }

    /// An open chip and a bulk of its lines; releases both exactly once.
    private final class Request {
        let chip: OpaquePointer
        let label: String
        let offsets: [UInt32]
        let lines: [GPIOResolvedLine]
        var bulk = gpiod_line_bulk()
        var requested = false
        private var closed = false

        init(lines provider: LibgpiodV1Lines, selection: GPIOLineSelection) throws(HardwareError) {
            let chips = try provider.chips()
            let (info, offsets) = try GPIOChipResolver.resolve(selection, chips: chips) { info, name in
                guard let chip = gpiod_chip_open(info.path) else { return nil }
                defer { gpiod_chip_close(chip) }
                guard let line = gpiod_chip_find_line(chip, name) else { return nil }
                return gpiod_line_offset(line)
            }
            let label = info.label ?? info.path
            guard let chip = gpiod_chip_open(info.path) else {
                throw HardwareError.gpio(Errno.current, chip: label, operation: "opening \(info.path) for")
            }
            self.chip = chip
            self.label = label
            self.offsets = offsets
            gpiod_line_bulk_init(&bulk)
            var resolved: [GPIOResolvedLine] = []
            for offset in offsets {
                guard let line = gpiod_chip_get_line(chip, offset) else {
                    let error = Errno.current
                    gpiod_chip_close(chip)
                    throw HardwareError.gpio(error, chip: label, line: "line \(offset)", operation: "looking up")
                }
                gpiod_line_bulk_add(&bulk, line)
                resolved.append(GPIOResolvedLine(
                    chipLabel: label, offset: offset, name: gpiod_line_name(line).map { String(cString: $0) } ?? ""))
            }
            self.lines = resolved
        }

        deinit { close() }

        /// The error for a failed request, naming the line that is busy and who holds it.
        func failure(_ errno: Errno, operation: String) -> HardwareError {
            if errno == .busy {
                for (index, offset) in offsets.enumerated() {
                    guard let line = gpiod_chip_get_line(chip, offset) else { continue }
                    _ = gpiod_line_update(line)
                    if gpiod_line_is_used(line) {
                        let consumer = gpiod_line_consumer(line).map { String(cString: $0) } ?? ""
                        return HardwareError.gpio(
                            errno, chip: label, line: lines[index].lineDescription,
                            consumer: consumer, operation: operation)
                    }
                }
            }
            let names = lines.map { $0.lineDescription }.joined(separator: ", ")
            return HardwareError.gpio(errno, chip: label, line: names, operation: operation)
        }

        func close() {
            guard !closed else { return }
            closed = true
            if requested { gpiod_line_release_bulk(&bulk) }
            gpiod_chip_close(chip)
        }
    }

    /// Requested outputs: `setValues` is one `gpiod_line_set_value_bulk` from a reused buffer.
    private final class Outputs: GPIOOutputLines {
        let request: Request
        let values: UnsafeMutableBufferPointer<Int32>
        var lines: [GPIOResolvedLine] { request.lines }

        init(_ request: Request) {
            self.request = request
            values = .allocate(capacity: request.offsets.count)
            values.initialize(repeating: 0)
        }

        deinit {
            request.close()
            values.deallocate()
        }

        func setValues(_ mask: UInt64) throws(HardwareError) {
            for index in values.indices { values[index] = GPIOValueMask.level(mask, index) ? 1 : 0 }
            if gpiod_line_set_value_bulk(&request.bulk, values.baseAddress) < 0 {
                throw request.failure(Errno.current, operation: "setting")
            }
        }

        func release() { request.close() }
    }

    /// Requested inputs: one event descriptor per line.
    private final class Inputs: GPIOInputLines {
        let request: Request
        let pollDescriptors: [Int32]
        var lines: [GPIOResolvedLine] { request.lines }

        init(_ request: Request) {
            self.request = request
            pollDescriptors = request.offsets.map { offset in
                gpiod_chip_get_line(request.chip, offset).map { gpiod_line_event_get_fd($0) } ?? -1
            }
        }

        deinit { request.close() }

        func readValues() throws(HardwareError) -> UInt64 {
            var values = [Int32](repeating: 0, count: request.offsets.count)
            if gpiod_line_get_value_bulk(&request.bulk, &values) < 0 {
                throw request.failure(Errno.current, operation: "reading")
            }
            return GPIOValueMask.make(values.map { $0 != 0 })
        }

        func readEvents(ready descriptor: Int32) throws(HardwareError) -> [GPIOEdgeEvent] {
            guard let index = pollDescriptors.firstIndex(of: descriptor) else { return [] }
            var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
            let count = gpiod_line_event_read_fd_multiple(descriptor, &buffer, UInt32(buffer.count))
            if count < 0 { throw request.failure(Errno.current, operation: "reading edge events of") }
            return buffer.prefix(Int(count)).map { event in
                GPIOEdgeEvent(
                    index: index,
                    edge: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? .rising : .falling,
                    timestampNanoseconds: UInt64(event.ts.tv_sec) &* 1_000_000_000 &+ UInt64(event.ts.tv_nsec))
            }
        }

        func waitForEvents(timeoutNanoseconds: Int64) throws(HardwareError) -> [GPIOEdgeEvent] {
            var events: [GPIOEdgeEvent] = []
            for descriptor in try GPIOPoll.wait(pollDescriptors, timeoutNanoseconds: timeoutNanoseconds) {
                events += try readEvents(ready: descriptor)
            }
            // Lines have separate queues in 1.x; merge them back into the order they happened.
            return events.sorted { $0.timestampNanoseconds < $1.timestampNanoseconds }
        }

        func release() { request.close() }
    }
}
#endif
